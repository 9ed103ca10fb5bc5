// Contents: baseline names; the naive GPU and reference CPU schedules (Halide scheduling calls
// on the Funcs of a fresh instance); the params Halide's autoschedulers run with (the plugins
// are loaded and run by measure/UpstreamAutoscheduler).
#include "measure/Baselines.h"

#include "measure/BaselineScheduleCache.h"
#include "util/Text.h"

#include "dag/FunctionDAG.h"
#include "measure/UpstreamAutoscheduler.h"
#include "util/Error.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <sstream>

namespace beamscope {

namespace {

/// The pure loops of a stage, innermost first (the __outermost placeholder excluded).
std::vector<std::string> pureLoops(const Halide::Internal::Definition &definition) {
    std::vector<std::string> loops;
    for (const Halide::Internal::Dim &dim : definition.schedule().dims()) {
        if (dim.dim_type == Halide::Internal::DimType::PureVar &&
            dim.var != Halide::Var::outermost().name()) {
            loops.push_back(dim.var);
        }
    }
    return loops;
}

void tileStage(Halide::Stage stage, const std::vector<std::string> &loops) {
    using Halide::TailStrategy;
    using Halide::Var;
    if (loops.empty()) {
        stage.gpu_single_thread();
    } else if (loops.size() == 1) {
        const Var x(loops[0]);
        stage.gpu_tile(x, Var(loops[0] + "_block"), Var(loops[0] + "_thread"), 256,
                       TailStrategy::GuardWithIf);
    } else {
        const Var x(loops[0]), y(loops[1]);
        stage.gpu_tile(x, y, Var(loops[0] + "_block"), Var(loops[1] + "_block"),
                       Var(loops[0] + "_thread"), Var(loops[1] + "_thread"), 16, 16,
                       TailStrategy::GuardWithIf);
    }
}

bool isOutput(const PipelineInstance &instance, const Halide::Internal::Function &function) {
    for (const Halide::Func &output : instance.pipeline.outputs())
        if (output.function().same_as(function)) return true;
    return false;
}

} // namespace

const char *baselineName(Baseline baseline) {
    switch (baseline) {
    case Baseline::Naive:
        return "naive";
    case Baseline::Anderson2021:
        return "anderson2021";
    case Baseline::Anderson2021Paper:
        return "anderson2021-paper";
    case Baseline::Li2018:
        return "li2018";
    case Baseline::Mullapudi2016:
        return "mullapudi2016";
    }
    return "naive";
}

std::vector<Baseline> allBaselines() {
    return {Baseline::Naive, Baseline::Anderson2021, Baseline::Anderson2021Paper, Baseline::Li2018,
            Baseline::Mullapudi2016};
}

std::string baselineNames() {
    std::string names;
    for (Baseline b : allBaselines())
        names += (names.empty() ? "" : ", ") + std::string(baselineName(b));
    return names;
}

Baseline parseBaseline(const std::string &name) {
    const std::string lower = asciiLower(name);
    for (Baseline b : allBaselines())
        if (lower == baselineName(b)) return b;
    throw UsageError("unknown baseline '" + name + "' (" + baselineNames() + ")");
}

std::vector<Baseline> parseBaselineList(const std::string &list) {
    std::vector<Baseline> out;
    if (list.empty() || list == "none") return out;
    std::stringstream ss(list);
    std::string item;
    while (std::getline(ss, item, ',')) {
        if (item.empty()) continue;
        const Baseline b = parseBaseline(item);
        if (std::find(out.begin(), out.end(), b) == out.end()) out.push_back(b);
    }
    return out;
}

std::vector<Halide::Func> nonInlinedFuncs(const PipelineInstance &instance) {
    const FunctionDAG dag(instance);
    std::vector<Halide::Func> funcs;
    for (const Node &node : dag.nodes()) {
        if (node.isInput || node.pointwiseUsesOnly) continue;
        if (isOutput(instance, node.function)) continue;
        funcs.emplace_back(node.function);
    }
    return funcs;
}

void applyNaiveGpuSchedule(const PipelineInstance &instance) {
    wrapHalideErrors("naive schedule of " + instance.name, [&] {
        std::vector<Halide::Func> funcs = nonInlinedFuncs(instance);
        for (Halide::Func f : funcs)
            f.compute_root();
        for (const Halide::Func &output : instance.pipeline.outputs())
            funcs.push_back(output);
        for (Halide::Func f : funcs) {
            const Halide::Internal::Function function = f.function();
            tileStage(f, pureLoops(function.definition()));
            for (size_t u = 0; u < function.updates().size(); ++u) {
                tileStage(f.update(int(u)), pureLoops(function.updates()[u]));
            }
        }
    });
}

void applyReferenceCpuSchedule(const PipelineInstance &instance) {
    wrapHalideErrors("reference schedule of " + instance.name, [&] {
        for (Halide::Func f : nonInlinedFuncs(instance))
            f.compute_root();
    });
}

Halide::AutoschedulerParams autoschedulerParams(Baseline baseline, const GpuSpec &gpu,
                                                const Halide::Target &target) {
    const std::string sms = std::to_string(std::max(1, gpu.smCount));
    switch (baseline) {
    case Baseline::Anderson2021:
        return anderson2021Params(gpu, 32);
    case Baseline::Anderson2021Paper:
        return anderson2021Params(gpu, 32, anderson2021PaperParams());
    case Baseline::Li2018:
        return {"Li2018", {{"parallelism", sms}}};
    case Baseline::Mullapudi2016: {
        const bool gpuMode = target.has_gpu_feature();
        const std::int64_t cache = gpuMode ? gpu.sharedMemoryPerBlockBytes : gpu.l2CacheBytes;
        return {"Mullapudi2016",
                {{"experimental_gpu_schedule", gpuMode ? "1" : "0"},
                 {"parallelism", sms},
                 {"last_level_cache_size", std::to_string(cache)}}};
    }
    case Baseline::Naive:
        break;
    }
    throw Error("the naive baseline is not a Halide autoscheduler");
}

AutoschedulerRun applyHalideAutoscheduler(Baseline baseline, const PipelineInstance &instance,
                                          const Halide::Target &target, const GpuSpec &gpu,
                                          bool *fromCache) {
    CachedAutoschedulerRun cached =
        applyAutoschedulerCached(instance, autoschedulerParams(baseline, gpu, target), target);
    if (fromCache) *fromCache = cached.fromCache;
    AutoschedulerRun run = std::move(cached.run);
    if (!run.error.empty())
        throw Error(std::string(baselineName(baseline)) + " autoscheduler: " + run.error);
    return run;
}

} // namespace beamscope
