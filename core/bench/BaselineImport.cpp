// Importing a plugin's or a file's schedule of a pipeline.
#include "bench/BaselineImport.h"
#include "measure/BufferLimits.h"
#include "util/Text.h"

#include "schedule/ScheduleIO.h"
#include "util/Error.h"

#include <algorithm>
#include <filesystem>

namespace beamscope {

Halide::Target importTarget(const GpuSpec &gpu) {
    const int capability = gpu.computeCapability > 0 ? gpu.computeCapability : 70;
    return Halide::Target("host-cuda-cuda_capability_" + std::to_string(std::min(capability, 86)));
}

ForeignSchedule importBaseline(Baseline baseline, const PipelineSource &source, const GpuSpec &gpu,
                               bool withApplier) {
    ForeignSchedule out;
    out.what = baselineName(baseline);
    PipelineInstance instance = loadPipeline(source);
    // Built before the plugin schedules the Funcs: the DAG reads their algorithm, the import
    // their schedules through the same Function handles.
    auto dag = std::make_shared<const FunctionDAG>(instance);
    // The target a bench gives the plugin (large buffers where the pipeline needs them), so a
    // bench and an import of the same baseline share one plugin run in the baseline cache.
    const Halide::Target target = withBufferLimits(importTarget(gpu), *dag);
    if (baseline == Baseline::Naive) {
        applyNaiveGpuSchedule(instance);
    } else {
        out.autoschedulerMs =
            applyHalideAutoscheduler(baseline, instance, target, gpu, &out.fromCache).milliseconds;
    }
    out.imported = wrapHalideErrors("importing " + out.what + "'s schedule",
                                    [&] { return importSchedule(dag); });
    if (withApplier && out.imported.state) {
        compareWithApplier(out.imported, loadPipeline(source), target,
                           ScheduleCallOptions::forGpu(gpu));
    }
    return out;
}

ForeignSchedule importScheduleFile(const std::string &path, const PipelineSource &source,
                                   const GpuSpec &gpu) {
    const std::string ext = std::filesystem::path(path).extension().string();
    if (ext == ".h" || ext == ".hpp" || ext == ".cpp" || ext == ".cc") {
        throw Error("'" + path +
                    "' is C++: Beamscope imports a schedule it can apply without a "
                    "compiler, a JSON schedule as Beamscope writes it");
    }
    const nlohmann::json json = readScheduleFile(path);
    ForeignSchedule out;
    out.what = path;
    auto dag = std::make_shared<const FunctionDAG>(loadPipeline(source));
    StatePtr state;
    try {
        state = scheduleFromJson(dag, json);
    } catch (const Error &e) {
        throw Error("'" + path + "': " + e.what());
    }
    const Halide::Target target = withBufferLimits(importTarget(gpu), *dag);
    const ScheduleCallOptions options = ScheduleCallOptions::forGpu(gpu);
    out.imported = importApplied(*state, loadPipeline(source), target, options);
    if (out.imported.state) compareWithApplier(out.imported, loadPipeline(source), target, options);
    return out;
}

ForeignSchedule importForeign(const std::string &with, const PipelineSource &source,
                              const GpuSpec &gpu) {
    for (Baseline b : allBaselines()) {
        if (asciiLower(with) == baselineName(b)) return importBaseline(b, source, gpu);
    }
    if (!std::filesystem::exists(with)) {
        throw UsageError("--with '" + with + "' is neither a Halide autoscheduler (" +
                         baselineNames() + ") nor a file");
    }
    return importScheduleFile(with, source, gpu);
}

} // namespace beamscope
