// TraceReader: the trace's search header (to and from JSON), reading the lines, and the replay
// that checks every step against its line.
#include "search/TraceReader.h"

#include "search/SearchReport.h"
#include "util/Error.h"

#include <filesystem>
#include <fstream>

namespace beamscope {

namespace {

constexpr int kTraceVersion = 1;

template <typename T> T field(const nlohmann::json &j, const char *key, const T &fallback) {
    if (!j.contains(key)) return fallback;
    try {
        return j.at(key).get<T>();
    } catch (const nlohmann::json::exception &) {
        throw Error(std::string("search field '") + key + "' has the wrong type");
    }
}

} // namespace

nlohmann::json traceSearchToJson(const PipelineSource &source, const SearchOptions &options) {
    // Files are named by absolute path, so that the trace replays from any directory.
    const auto absolute = [](const std::string &path) {
        std::error_code ec;
        return path.empty() || !std::filesystem::exists(path, ec)
                   ? path
                   : std::filesystem::absolute(path, ec).string();
    };
    return {{"trace_version", kTraceVersion},
            {"app", source.name},
            {"generator_lib", absolute(source.generatorLibrary)},
            {"generator_py", absolute(source.generatorPython)},
            {"pipeline_file", absolute(source.pipelineFile)},
            {"params", source.params},
            {"estimates", source.estimates},
            {"inputs", source.inputs},
            {"beam", options.beamSize},
            {"passes", options.passes},
            {"seed", options.seed},
            {"sampling", options.sampling},
            {"freezing", options.freezing},
            {"freeze_min_funcs", options.freezeMinFuncs},
            {"memoization", options.memoization},
            {"known_bad_penalty", options.knownBadPenalty},
            {"wide_tilings", options.space.wideTilings},
            {"parallelism_filter", options.space.parallelismFilter},
            {"gpu", options.gpu.toJson()},
            {"pins", pinsToJson(options.pins)},
            {"freeze_funcs", options.freezeFuncs},
            {"cost_model", absolute(options.costModel)}};
}

TraceSearch traceSearchFromJson(const nlohmann::json &j) {
    if (!j.is_object()) throw Error("the search is not a JSON object");
    if (field<int>(j, "trace_version", 0) != kTraceVersion)
        throw Error("trace_version is not " + std::to_string(kTraceVersion));
    TraceSearch t;
    t.source.name = field<std::string>(j, "app", "");
    if (t.source.name.empty()) throw Error("search field 'app' is missing");
    t.source.generatorLibrary = field<std::string>(j, "generator_lib", "");
    t.source.generatorPython = field<std::string>(j, "generator_py", "");
    t.source.pipelineFile = field<std::string>(j, "pipeline_file", "");
    t.source.params = field<std::vector<std::string>>(j, "params", {});
    t.source.estimates = field<std::vector<std::string>>(j, "estimates", {});
    t.source.inputs = field<std::vector<std::string>>(j, "inputs", {});
    SearchOptions &o = t.options;
    o.beamSize = field<int>(j, "beam", o.beamSize);
    o.passes = field<int>(j, "passes", o.passes);
    o.seed = field<uint64_t>(j, "seed", o.seed);
    o.sampling = field<bool>(j, "sampling", o.sampling);
    o.freezing = field<bool>(j, "freezing", o.freezing);
    // A trace written before the threshold froze every pipeline.
    o.freezeMinFuncs = field<int>(j, "freeze_min_funcs", 0);
    o.memoization = field<bool>(j, "memoization", o.memoization);
    o.knownBadPenalty = field<double>(j, "known_bad_penalty", o.knownBadPenalty);
    o.space.wideTilings = field<bool>(j, "wide_tilings", o.space.wideTilings);
    o.space.parallelismFilter = field<bool>(j, "parallelism_filter", o.space.parallelismFilter);
    o.costModel = field<std::string>(j, "cost_model", o.costModel);
    if (!j.contains("gpu")) throw Error("search field 'gpu' is missing");
    o.gpu = GpuSpec::fromJson(j["gpu"], "the trace's GPU spec");
    if (j.contains("pins")) o.pins = pinsFromJson(j["pins"]);
    o.freezeFuncs = field<std::vector<std::string>>(j, "freeze_funcs", {});
    return t;
}

TraceReader::TraceReader(std::string path) : m_path(std::move(path)) {
    const std::string where = "trace '" + m_path + "'";
    std::ifstream in(m_path);
    if (!in) throw Error("cannot read " + where);
    std::string text;
    int number = 0;
    while (std::getline(in, text)) {
        ++number;
        if (text.empty()) continue;
        nlohmann::json j;
        try {
            j = nlohmann::json::parse(text);
        } catch (const nlohmann::json::exception &) {
            throw Error(where + " line " + std::to_string(number) + ": not JSON");
        }
        if (!j.is_object() || !j.contains("step"))
            throw Error(where + " line " + std::to_string(number) +
                        ": not a step of a search trace");
        if (m_lines.empty()) {
            if (!j.contains("search")) {
                throw Error(where + " line 1: no \"search\" field (write the trace with this "
                                    "version of beamscope-cli search --trace)");
            }
            try {
                m_search = traceSearchFromJson(j["search"]);
            } catch (const Error &e) {
                throw Error(where + " line 1: " + e.what());
            }
            j.erase("search");
        }
        // Kept as text in the form stepToJson's dump takes (sorted keys): a parsed line costs
        // several times its text, and a long trace has tens of megabytes of it.
        m_lines.push_back(j.dump());
    }
    if (m_lines.empty()) throw Error(where + " is empty");
}

TraceReplay TraceReader::replay(const CancelToken *cancel,
                                const std::function<void(int, int)> &progress,
                                const TraceStepSink &sink) const {
    const std::string where = "trace '" + m_path + "'";
    TraceReplay r;
    r.search = m_search;
    r.dag = std::make_shared<const FunctionDAG>(loadPipeline(m_search.source));
    SearchEngine engine(r.dag, m_search.options);
    for (size_t i = 0; i < m_lines.size(); ++i) {
        const std::string line = where + " line " + std::to_string(i + 1);
        if (engine.finished()) throw Error(line + ": the search ended before this step");
        SearchStepPtr step = engine.step(cancel);
        const nlohmann::json mine = stepToJson(*step, *r.dag);
        if (mine.dump() != m_lines[i]) {
            const nlohmann::json theirs = nlohmann::json::parse(m_lines[i]);
            std::string differs = "the fields";
            for (const auto &[key, value] : mine.items()) {
                if (!theirs.contains(key) || theirs[key].dump() != value.dump()) {
                    differs = "'" + key + "'";
                    break;
                }
            }
            throw Error(line + ": step " + std::to_string(step->index) +
                        " does not match the replay (" + differs + " differs)");
        }
        if (sink)
            sink(step);
        else
            r.steps.push_back(std::move(step));
        if (progress) progress(int(i + 1), int(m_lines.size()));
    }
    return r;
}

} // namespace beamscope
