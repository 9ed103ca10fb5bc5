// ScheduleApplier: checks that a fresh pipeline matches the schedule's DAG, then executes the
// ScheduleCalls of the schedule on its Funcs.
#include "codegen/ScheduleApplier.h"

#include "util/Error.h"

namespace beamscope {

namespace {

/// A name without Halide's "$n" suffix, which differs between builds of one pipeline.
std::string baseName(const std::string &name) {
    return name.substr(0, name.find('$'));
}

void checkSameDag(const FunctionDAG &expected, const FunctionDAG &fresh) {
    const auto mismatch = [&](const std::string &what) {
        throw Error("pipeline '" + fresh.pipelineName() + "' does not match the schedule: " + what);
    };
    if (expected.nodes().size() != fresh.nodes().size()) {
        mismatch(std::to_string(fresh.nodes().size()) + " Funcs and inputs, expected " +
                 std::to_string(expected.nodes().size()));
    }
    for (size_t i = 0; i < expected.nodes().size(); ++i) {
        const Node &a = expected.nodes()[i];
        const Node &b = fresh.nodes()[i];
        if (baseName(a.name) != baseName(b.name) || a.isInput != b.isInput) {
            mismatch("found '" + b.name + "' where '" + a.name + "' was expected");
        }
        if (a.stages.size() != b.stages.size()) {
            mismatch("'" + b.name + "' has " + std::to_string(b.stages.size()) +
                     " stages, expected " + std::to_string(a.stages.size()));
        }
        for (size_t s = 0; s < a.stages.size(); ++s) {
            const auto &la = a.stages[s].loops;
            const auto &lb = b.stages[s].loops;
            bool same = la.size() == lb.size();
            for (size_t l = 0; same && l < la.size(); ++l) {
                same = la[l].name == lb[l].name && la[l].isReduction == lb[l].isReduction;
            }
            if (!same) mismatch("the loops of '" + b.stages[s].name + "' differ");
        }
    }
}

Halide::VarOrRVar toHalide(const CallVar &v) {
    return Halide::VarOrRVar(v.name, v.rvar);
}

Halide::Stage stageOf(const Halide::Func &f, int stage) {
    return stage == 0 ? Halide::Stage(f) : Halide::Func(f).update(stage - 1);
}

void execute(const ScheduleCall &c, Halide::Func f, const std::vector<Halide::Func> &funcs) {
    switch (c.kind) {
    case CallKind::ComputeInline:
        f.compute_inline();
        return;
    case CallKind::ComputeRoot:
        f.compute_root();
        return;
    case CallKind::ComputeAt: {
        const Halide::Func &host = funcs.at(size_t(c.host));
        f.compute_at(host, Halide::Var(c.vars.at(0).name));
        return;
    }
    case CallKind::StoreIn:
        f.store_in(c.memory == MemoryType::Shared ? Halide::MemoryType::GPUShared
                                                  : Halide::MemoryType::Register);
        return;
    case CallKind::BoundExtent:
        f.bound_extent(Halide::Var(c.vars.at(0).name), Halide::Expr(int(c.factor)));
        return;
    default:
        break;
    }
    Halide::Stage stage = stageOf(f, c.stage);
    std::vector<Halide::VarOrRVar> vars;
    for (const CallVar &v : c.vars)
        vars.push_back(toHalide(v));
    switch (c.kind) {
    case CallKind::Split:
        stage.split(vars.at(0), vars.at(1), vars.at(2), Halide::Expr(int(c.factor)), tailStrategy(c));
        break;
    case CallKind::Fuse:
        stage.fuse(vars.at(0), vars.at(1), vars.at(2));
        break;
    case CallKind::Reorder:
        stage.reorder(vars);
        break;
    case CallKind::GpuBlocks:
    case CallKind::GpuThreads: {
        const bool blocks = c.kind == CallKind::GpuBlocks;
        if (vars.size() == 1) {
            blocks ? stage.gpu_blocks(vars[0]) : stage.gpu_threads(vars[0]);
        } else if (vars.size() == 2) {
            blocks ? stage.gpu_blocks(vars[0], vars[1]) : stage.gpu_threads(vars[0], vars[1]);
        } else if (vars.size() == 3) {
            blocks ? stage.gpu_blocks(vars[0], vars[1], vars[2])
                   : stage.gpu_threads(vars[0], vars[1], vars[2]);
        } else {
            throw Error("cannot map " + std::to_string(vars.size()) + " loops to the GPU");
        }
        break;
    }
    case CallKind::Unroll:
        stage.unroll(vars.at(0));
        break;
    default:
        break;
    }
}

/// Executes one Func's calls in order; those after a StageIn schedule the wrapper it makes.
void executeAll(const FuncCalls &fc, const Halide::Func &f,
                const std::vector<Halide::Func> &funcs) {
    Halide::Func target = f;
    for (const ScheduleCall &c : fc.calls) {
        if (c.kind == CallKind::StageIn) {
            target = Halide::Func(f).in(funcs.at(size_t(c.host)));
        } else {
            execute(c, target, funcs);
        }
    }
}

} // namespace

void applySchedule(const ScheduleState &state, const PipelineInstance &fresh,
                   const Halide::Target &target, const ScheduleCallOptions &options) {
    const FunctionDAG &dag = state.dag();
    if (!target.has_gpu_feature()) {
        throw Error("cannot apply a GPU schedule for target '" + target.to_string() +
                    "': it has no GPU feature (add cuda or opencl)");
    }
    // Planning first: an incomplete state is reported before the pipeline is touched.
    const std::vector<FuncCalls> plan = scheduleCalls(state, options);
    const FunctionDAG freshDag = wrapHalideErrors("analyzing pipeline '" + fresh.name + "'",
                                                  [&] { return FunctionDAG(fresh); });
    checkSameDag(dag, freshDag);

    std::vector<Halide::Func> funcs(freshDag.nodes().size());
    for (const Node &n : freshDag.nodes()) {
        if (!n.isInput) funcs[size_t(n.index)] = Halide::Func(n.function);
    }
    for (const FuncCalls &fc : plan) {
        const Halide::Func &f = funcs.at(size_t(fc.node));
        wrapHalideErrors("scheduling '" + dag.node(fc.node).name + "' (" + fc.decision + ")",
                         [&] { executeAll(fc, f, funcs); });
    }
}

} // namespace beamscope
