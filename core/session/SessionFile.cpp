// Session <-> JSON.
#include "session/SessionFile.h"

#include "util/Error.h"
#include "util/JsonNumber.h"

#include <optional>
#include <type_traits>
#include <utility>

namespace beamscope {

namespace {

constexpr const char *kFormat = "beamscope-session";
constexpr int kVersion = 1;

/// `v` as a T; nothing when it is not one (an integer field holding 2.5, or 1e67, whose
/// conversion by the JSON library would be undefined behaviour).
template <typename T> std::optional<T> asField(const nlohmann::json &v) {
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        return jsonInteger<T>(v);
    } else {
        try {
            return v.get<T>();
        } catch (const nlohmann::json::exception &) {
            return std::nullopt;
        }
    }
}

template <typename T> T field(const nlohmann::json &j, const char *key, const char *where) {
    if (!j.contains(key)) throw Error(std::string("session: missing \"") + key + "\" in " + where);
    std::optional<T> value = asField<T>(j.at(key));
    if (!value)
        throw Error(std::string("session: \"") + key + "\" in " + where + " has the wrong type");
    return std::move(*value);
}

template <typename T> T optionalField(const nlohmann::json &j, const char *key, T fallback) {
    if (!j.contains(key)) return fallback;
    std::optional<T> value = asField<T>(j.at(key));
    if (!value) throw Error(std::string("session: \"") + key + "\" has the wrong type");
    return std::move(*value);
}

} // namespace

nlohmann::json sessionToJson(const Session &session) {
    const SearchOptions &o = session.options;
    const SearchSpaceOptions &space = o.space;
    nlohmann::json j = {{"format", kFormat},
                        {"version", kVersion},
                        {"pipeline",
                         {{"name", session.source.name},
                          {"generator_library", session.source.generatorLibrary},
                          {"generator_python", session.source.generatorPython},
                          {"pipeline_file", session.source.pipelineFile},
                          {"params", session.source.params},
                          {"estimates", session.source.estimates},
                          {"inputs", session.source.inputs}}},
                        {"search",
                         {{"beam_size", o.beamSize},
                          {"passes", o.passes},
                          {"seed", o.seed},
                          {"sampling", o.sampling},
                          {"freezing", o.freezing},
                          {"freeze_min_funcs", o.freezeMinFuncs},
                          {"memoization", o.memoization},
                          {"known_bad_penalty", o.knownBadPenalty},
                          {"space",
                           {{"max_inline_recompute", space.maxInlineRecompute},
                            {"max_fused_recompute", space.maxFusedRecompute},
                            {"min_sm_fraction", space.minSmFraction},
                            {"min_lane_utilization", space.minLaneUtilization},
                            {"max_unrolled_serial", space.maxUnrolledSerial},
                            {"max_thread_dims", space.maxThreadDims}}}}},
                        {"gpu", {{"name", session.gpuName}, {"spec", o.gpu.toJson()}}},
                        {"pins", pinsToJson(o.pins).at("pins")},
                        {"steps", session.steps}};
    if (session.benchmark) j["benchmark"] = session.benchmark->toJson();
    return j;
}

Session sessionFromJson(const nlohmann::json &j) {
    if (!j.is_object() || optionalField<std::string>(j, "format", "") != kFormat) {
        throw Error("not a Beamscope session file");
    }
    if (const int version = field<int>(j, "version", "the file"); version != kVersion) {
        throw Error("session: unsupported version " + std::to_string(version));
    }
    Session s;
    const nlohmann::json p = field<nlohmann::json>(j, "pipeline", "the file");
    s.source.name = field<std::string>(p, "name", "\"pipeline\"");
    s.source.generatorLibrary = optionalField<std::string>(p, "generator_library", "");
    s.source.generatorPython = optionalField<std::string>(p, "generator_python", "");
    s.source.pipelineFile = optionalField<std::string>(p, "pipeline_file", "");
    s.source.params = optionalField<std::vector<std::string>>(p, "params", {});
    s.source.estimates = optionalField<std::vector<std::string>>(p, "estimates", {});
    s.source.inputs = optionalField<std::vector<std::string>>(p, "inputs", {});

    const nlohmann::json search = field<nlohmann::json>(j, "search", "the file");
    SearchOptions &o = s.options;
    o.beamSize = field<int>(search, "beam_size", "\"search\"");
    o.passes = field<int>(search, "passes", "\"search\"");
    o.seed = field<uint64_t>(search, "seed", "\"search\"");
    o.sampling = optionalField(search, "sampling", o.sampling);
    o.freezing = optionalField(search, "freezing", o.freezing);
    // A session saved before the threshold froze every pipeline.
    o.freezeMinFuncs = optionalField(search, "freeze_min_funcs", 0);
    o.memoization = optionalField(search, "memoization", o.memoization);
    o.knownBadPenalty = optionalField(search, "known_bad_penalty", o.knownBadPenalty);
    if (search.contains("space")) {
        const nlohmann::json &sp = search.at("space");
        SearchSpaceOptions &space = o.space;
        space.maxInlineRecompute =
            optionalField(sp, "max_inline_recompute", space.maxInlineRecompute);
        space.maxFusedRecompute = optionalField(sp, "max_fused_recompute", space.maxFusedRecompute);
        space.minSmFraction = optionalField(sp, "min_sm_fraction", space.minSmFraction);
        space.minLaneUtilization =
            optionalField(sp, "min_lane_utilization", space.minLaneUtilization);
        space.maxUnrolledSerial = optionalField(sp, "max_unrolled_serial", space.maxUnrolledSerial);
        space.maxThreadDims = optionalField(sp, "max_thread_dims", space.maxThreadDims);
    }

    const nlohmann::json gpu = field<nlohmann::json>(j, "gpu", "the file");
    s.gpuName = optionalField<std::string>(gpu, "name", "");
    if (gpu.contains("spec"))
        o.gpu = GpuSpec::fromJson(gpu.at("spec"), "session GPU spec");
    else
        o.gpu = GpuSpec::load(s.gpuName.empty() ? "v100" : s.gpuName);

    if (j.contains("pins")) o.pins = pinsFromJson(nlohmann::json{{"pins", j.at("pins")}});
    s.steps = optionalField(j, "steps", 0);
    if (s.steps < 0) throw Error("session: \"steps\" is negative");
    if (j.contains("benchmark")) s.benchmark = BenchReport::fromJson(j.at("benchmark"));
    return s;
}

} // namespace beamscope
