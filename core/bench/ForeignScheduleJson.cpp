// ForeignSchedule <-> JSON, and importForeignInChild over the worker's --import mode.
#include "bench/ForeignScheduleJson.h"

#include "dag/FunctionDAG.h"
#include "pipeline/PipelineSourceJson.h"
#include "schedule/ScheduleIO.h"
#include "util/Error.h"
#include "util/Subprocess.h"

namespace beamscope {

nlohmann::json foreignScheduleToJson(const ForeignSchedule &schedule) {
    nlohmann::json funcs = nlohmann::json::array();
    for (const ImportedFunc &f : schedule.imported.funcs) {
        funcs.push_back({{"name", f.name},
                         {"representable", f.representable},
                         {"constructs", f.constructs},
                         {"differences", f.differences},
                         {"theirs", f.theirs},
                         {"loops", f.loops},
                         {"tails", f.tails},
                         {"staged_into", f.stagedInto}});
    }
    const StatePtr &state = schedule.imported.state;
    return {{"what", schedule.what},
            {"autoscheduler_ms", schedule.autoschedulerMs},
            {"autoscheduler_cached", schedule.fromCache},
            {"funcs", funcs},
            {"schedule", state ? scheduleToJson(*state) : nlohmann::json()}};
}

ForeignSchedule foreignScheduleFromJson(const nlohmann::json &json,
                                        const std::shared_ptr<const FunctionDAG> &dag) {
    ForeignSchedule out;
    try {
        out.what = json.at("what").get<std::string>();
        out.autoschedulerMs = json.at("autoscheduler_ms").get<double>();
        out.fromCache = json.value("autoscheduler_cached", false);
        if (const nlohmann::json &s = json.at("schedule"); !s.is_null())
            out.imported.state = scheduleFromJson(dag, s);
        for (const nlohmann::json &j : json.at("funcs")) {
            ImportedFunc f;
            f.name = j.at("name").get<std::string>();
            f.node = dag->find(f.name);
            if (f.node < 0)
                throw Error("the imported schedule names a Func '" + f.name +
                            "' the pipeline does not have");
            f.representable = j.at("representable").get<bool>();
            f.constructs = j.at("constructs").get<std::vector<std::string>>();
            f.differences = j.at("differences").get<std::vector<std::string>>();
            f.theirs = j.at("theirs").get<std::string>();
            f.loops = j.at("loops").get<std::string>();
            f.tails = j.at("tails").get<std::string>();
            f.stagedInto = j.at("staged_into").get<std::vector<std::string>>();
            if (f.representable && out.imported.state)
                f.placement = out.imported.state->placement(f.node);
            out.imported.funcs.push_back(std::move(f));
        }
    } catch (const nlohmann::json::exception &e) {
        throw Error(std::string("an imported schedule of another shape: ") + e.what());
    }
    return out;
}

ForeignSchedule importForeignInChild(const std::string &with, const PipelineSource &source,
                                     const GpuSpec &gpu,
                                     const std::shared_ptr<const FunctionDAG> &dag,
                                     const ChildImportOptions &options) {
    if (options.workerPath.empty() || !isExecutableFile(options.workerPath))
        throw Error("cannot import " + with + ": beamscope-worker not found next to this program");
    ProcessOptions run;
    run.timeoutS = options.timeoutS;
    run.cancel = options.cancel;
    const ProcessResult result =
        runProcess({options.workerPath, "--import", with, pipelineSourceToJson(source).dump(),
                    gpu.toJson().dump()},
                   run);
    if (result.cancelled) throw ImportCancelled();
    // The worker's answer is its last stdout line (discarded when it is not JSON).
    const nlohmann::json json = nlohmann::json::parse(lastLine(result.out), nullptr, false);
    if (result.succeeded() && json.is_object() && !json.contains("failure"))
        return foreignScheduleFromJson(json, dag);
    if (json.is_object() && json.contains("failure") && json["failure"].is_string())
        throw Error(json.at("failure").get<std::string>()); // the plugin's or the import's error
    const std::string last = lastLine(result.err);
    throw Error("importing " + with + " " +
                (result.timedOut ? "did not finish in time"
                                 : "ended with " + result.describeEnd(options.timeoutS)) +
                (last.empty() ? "" : ": " + last));
}

} // namespace beamscope
