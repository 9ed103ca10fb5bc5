// BenchJob <-> JSON.
#include "measure/BenchJob.h"

#include "pipeline/PipelineSourceJson.h"
#include "util/Error.h"
#include "util/JsonNumber.h"

#include <cmath>

namespace beamscope {

nlohmann::json BenchJob::toJson() const {
    nlohmann::json j;
    j["label"] = label;
    j["predicted"] = std::isfinite(predicted) ? nlohmann::json(predicted) : nlohmann::json();
    j["pipeline"] = pipelineSourceToJson(source);
    j["schedule"] = schedule;
    j["baseline"] = baseline;
    j["gpu"] = gpu.name.empty() ? nlohmann::json() : gpu.toJson();
    j["target"] = target;
    j["ptx_capability"] = ptxCapability;
    j["stage_producers"] = stageProducers;
    j["max_unrolled_points"] = maxUnrolledPoints;
    j["warmup"] = warmup;
    j["repeats"] = repeats;
    j["min_timed_ms"] = minTimedMs;
    j["timeout_s"] = timeoutS;
    j["seed"] = seed;
    j["int_max"] = intMax;
    j["rtol"] = rtol;
    j["atol"] = atol;
    j["reference_cache"] = referenceCache;
    if (!deviceLock.empty()) j["device_lock"] = deviceLock;
    if (!aotLibrary.empty())
        j["aot"] = {{"target", aotTarget}, {"library", aotLibrary}, {"data", aotData}};
    if (!inject.empty()) j["inject"] = inject;
    return j;
}

BenchJob BenchJob::fromJson(const nlohmann::json &j) {
    if (!j.is_object()) throw Error("a bench job is a JSON object");
    BenchJob job;
    refuseFractionalIntegers(
        j, {"ptx_capability", "warmup", "repeats", "seed", "int_max", "max_unrolled_points"},
        "bad bench job");
    try {
        job.label = j.value("label", std::string());
        if (j.contains("predicted") && j["predicted"].is_number()) job.predicted = j["predicted"];
        job.source = pipelineSourceFromJson(j.at("pipeline"));
        job.schedule = j.value("schedule", nlohmann::json());
        job.baseline = j.value("baseline", std::string());
        if (j.contains("gpu") && !j["gpu"].is_null())
            job.gpu = GpuSpec::fromJson(j["gpu"], "job gpu");
        job.target = j.value("target", std::string());
        job.ptxCapability = j.value("ptx_capability", 0);
        job.stageProducers = j.value("stage_producers", true);
        job.maxUnrolledPoints = j.value("max_unrolled_points", kMaxUnrolledPoints);
        job.warmup = j.value("warmup", 1);
        job.repeats = j.value("repeats", 5);
        job.minTimedMs = j.value("min_timed_ms", kDefaultMinTimedMs);
        job.timeoutS = j.value("timeout_s", 120.0);
        job.seed = j.value("seed", std::uint64_t(1));
        job.intMax = j.value("int_max", std::int64_t(1023));
        job.rtol = j.value("rtol", 1e-3);
        job.atol = j.value("atol", 1e-3);
        job.referenceCache = j.value("reference_cache", std::string());
        job.deviceLock = j.value("device_lock", std::string());
        job.inject = j.value("inject", std::string());
        if (j.contains("aot") && !j["aot"].is_null()) {
            const nlohmann::json &aot = j["aot"];
            job.aotTarget = aot.value("target", std::string());
            job.aotLibrary = aot.at("library").get<std::string>();
            job.aotData = aot.value("data", std::string());
        }
    } catch (const nlohmann::json::exception &e) {
        throw Error(std::string("bad bench job: ") + e.what());
    }
    if (job.schedule.is_null() && job.baseline.empty())
        throw Error("bad bench job: neither a schedule nor a baseline");
    if (job.repeats < 1 || job.warmup < 0) throw Error("bad bench job: repeats >= 1, warmup >= 0");
    if (job.maxUnrolledPoints < 1) throw Error("bad bench job: max_unrolled_points >= 1");
    if (!(job.minTimedMs >= 0) || !std::isfinite(job.minTimedMs))
        throw Error("bad bench job: min_timed_ms must be a number >= 0");
    return job;
}

} // namespace beamscope
