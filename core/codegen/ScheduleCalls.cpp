// ScheduleCalls: turns each Func's placement and tiling into Halide scheduling calls.
// Contents: fresh loop names; stage plans for root kernels, block-level (shared memory) and
// thread-level (register) Funcs; staging calls (paper 4.7, rule in ProducerStaging.cpp);
// decision summaries; scheduleCalls.
//
// Tail strategy: GuardWithIf computes exactly the points required, at the price of an if in
// the tail, and so handles every extent, even one below the factor, on outputs and updates.
// But a guarded tile has a variable size, and Funcs fused into it (at the block or thread
// level) then have no constant bound: register allocations need one. So the tile split of a
// pure stage whose estimated extent is at least one tile uses ShiftInwards, Halide's own
// default for pure loops: the last tile is shifted back inside the region (recomputing a few
// points), every tile has the same size, and nothing outside the region is read. Updates keep
// GuardWithIf (recomputing an update applies it twice); so do stages shorter than a tile.
#include "codegen/ScheduleCalls.h"

#include "codegen/ProducerStaging.h"
#include "util/Error.h"

#include <set>

namespace beamscope {

namespace {

/// Hands out loop names that are new within a Func. Names differ between stages too, because
/// compute_at(host, var) names no stage: Halide looks the loop up by name in all of the host's
/// stages. (Halide 21 rejected compute_at(LoopLevel(host, var, stage)) as an invalid location
/// while listing that very loop among the legal ones.)
class StageNames {
public:
    StageNames(const Node &node, int stage) : m_suffix(stage > 0 ? std::to_string(stage) : "") {
        m_used.insert(kOutermostVar);
        for (const std::string &a : node.args)
            m_used.insert(a);
        for (const Stage &s : node.stages) {
            for (const LoopVar &l : s.loops)
                m_used.insert(l.name);
        }
    }
    CallVar fresh(const std::string &base) {
        std::string name = base + m_suffix;
        while (m_used.count(name))
            name += "_";
        m_used.insert(name);
        return {name, false};
    }

private:
    std::string m_suffix; ///< the stage index for updates: "x_b1" is update(0)'s block loop
    std::set<std::string> m_used;
};

/// The calls for one stage and the GPU loops they leave, innermost first.
struct StagePlan {
    std::vector<ScheduleCall> calls;
    std::vector<CallVar> blockVars;
    std::vector<CallVar> threadVars;
    bool constantTiles = false; ///< every tile split shifts inwards
    bool unrolled = false;      ///< the serial loops are unrolled
};

ScheduleCall makeCall(CallKind kind, int stage, std::vector<CallVar> vars, int64_t factor = 0) {
    ScheduleCall c;
    c.kind = kind;
    c.stage = stage;
    c.vars = std::move(vars);
    c.factor = factor;
    return c;
}

/// Halide maps at most three loops to blocks (or threads): fuse the outermost extra ones.
void fuseToThree(StagePlan &plan, int stage, std::vector<CallVar> &vars, StageNames &names,
                 const std::string &base) {
    while (vars.size() > 3) {
        const CallVar outer = vars.back();
        vars.pop_back();
        const CallVar inner = vars.back();
        const CallVar fused = names.fresh(base);
        plan.calls.push_back(makeCall(CallKind::Fuse, stage, {inner, outer, fused}));
        vars.back() = fused;
    }
}

/// Unrolls the serial loops when `unroll` (the state's rule, ScheduleState::unrolls); true if
/// there were any to unroll.
bool unrollSerial(StagePlan &plan, int stage, const std::vector<CallVar> &serial, bool unroll) {
    if (!unroll) return false;
    for (const CallVar &v : serial)
        plan.calls.push_back(makeCall(CallKind::Unroll, stage, {v}));
    return !serial.empty();
}

/// A stage with no pure loop (only RVars, or a 0-D Func) still runs as one GPU thread:
/// outermost is split into unit-extent loops that carry the block and thread mapping.
void singleThread(StagePlan &plan, int stage, StageNames &names, bool withBlock) {
    const CallVar outermost{kOutermostVar, false};
    if (withBlock) {
        const CallVar block = names.fresh("block");
        const CallVar thread = names.fresh("thread");
        plan.calls.push_back(makeCall(CallKind::Split, stage, {outermost, outermost, block}, 1));
        plan.calls.push_back(makeCall(CallKind::Split, stage, {block, block, thread}, 1));
        plan.calls.push_back(makeCall(CallKind::GpuBlocks, stage, {block}));
        plan.calls.push_back(makeCall(CallKind::GpuThreads, stage, {thread}));
        plan.blockVars = {block};
        plan.threadVars = {thread};
    } else {
        const CallVar thread = names.fresh("thread");
        plan.calls.push_back(makeCall(CallKind::Split, stage, {outermost, outermost, thread}, 1));
        plan.calls.push_back(makeCall(CallKind::GpuThreads, stage, {thread}));
        plan.threadVars = {thread};
    }
}

/// A compute_root stage is one kernel: each pure loop v becomes v_b (blocks), v_t (threads)
/// and, when the serial size is above 1, v_s; order inside out: serial, RVars, threads, blocks.
StagePlan rootStagePlan(const ScheduleState &state, const Node &node, int stageIndex,
                        const StageTiling &tiling) {
    const Stage &stage = node.stages[size_t(stageIndex)];
    StageNames names(node, stageIndex);
    StagePlan plan;
    plan.constantTiles = stageIndex == 0;
    std::vector<CallVar> serial, rvars, threads, blocks;
    int64_t serialProduct = 1;
    for (size_t l = 0; l < stage.loops.size(); ++l) {
        const LoopVar &loop = stage.loops[l];
        if (loop.isReduction) {
            rvars.push_back({loop.name, true}); // serial and whole, in the algorithm's order
            continue;
        }
        const CallVar v{loop.name, false};
        const int64_t t = std::max<int64_t>(1, tiling.threads[l]);
        const int64_t s = std::max<int64_t>(1, tiling.serial[l]);
        const CallVar block = names.fresh(loop.name + "_b");
        if (s > 1) {
            // One split by the whole tile, then an exact split of the tile into thread x serial.
            const CallVar tile = names.fresh(loop.name + "_i");
            const CallVar thread = names.fresh(loop.name + "_t");
            const CallVar ser = names.fresh(loop.name + "_s");
            plan.calls.push_back(makeCall(CallKind::Split, stageIndex, {v, block, tile}, t * s));
            plan.calls.back().shiftInwards = stageIndex == 0 && loop.estimate.extent() >= t * s;
            plan.constantTiles = plan.constantTiles && plan.calls.back().shiftInwards;
            plan.calls.push_back(makeCall(CallKind::Split, stageIndex, {tile, thread, ser}, s));
            serial.push_back(ser);
            threads.push_back(thread);
            serialProduct *= s;
        } else {
            const CallVar thread = names.fresh(loop.name + "_t");
            plan.calls.push_back(makeCall(CallKind::Split, stageIndex, {v, block, thread}, t));
            plan.calls.back().shiftInwards = stageIndex == 0 && loop.estimate.extent() >= t;
            plan.constantTiles = plan.constantTiles && plan.calls.back().shiftInwards;
            threads.push_back(thread);
        }
        blocks.push_back(block);
    }
    if (threads.empty()) {
        singleThread(plan, stageIndex, names, true);
        return plan;
    }
    std::vector<CallVar> order = serial;
    order.insert(order.end(), rvars.begin(), rvars.end());
    order.insert(order.end(), threads.begin(), threads.end());
    order.insert(order.end(), blocks.begin(), blocks.end());
    plan.calls.push_back(makeCall(CallKind::Reorder, stageIndex, order));
    fuseToThree(plan, stageIndex, threads, names, "fused_t");
    fuseToThree(plan, stageIndex, blocks, names, "fused_b");
    plan.calls.push_back(makeCall(CallKind::GpuBlocks, stageIndex, blocks));
    plan.calls.push_back(makeCall(CallKind::GpuThreads, stageIndex, threads));
    // A guarded tile split of a pure stage puts `if (likely(v <= v.max))` around the serial
    // loops inside v's; Halide 21's loop partitioning, partitioning an outer (block or thread)
    // loop, can simplify that guard to true and write past the allocation when the guard
    // encloses a loop (docs/design-notes.md). Unrolled, the guards enclose straight-line code.
    const bool guardedPure = stageIndex == 0 && !plan.constantTiles;
    plan.unrolled =
        unrollSerial(plan, stageIndex, serial, state.unrolls(serialProduct) || guardedPure);
    plan.blockVars = blocks;
    plan.threadVars = threads;
    return plan;
}

/// A stage of a Func at the block level of its host: its pure loops split into threads
/// (outer) and serial (inner) parts of the chosen serial sizes; an update's RVars serial and
/// whole between them (inside out: serial, RVars, threads, as a root stage orders its loops).
StagePlan blockStagePlan(const ScheduleState &state, const Node &node, int stageIndex,
                         const StageTiling &tiling) {
    const Stage &stage = node.stages[size_t(stageIndex)];
    StageNames names(node, stageIndex);
    StagePlan plan;
    std::vector<CallVar> serial, rvars, threads, once;
    int64_t serialProduct = 1;
    for (size_t l = 0; l < stage.loops.size(); ++l) {
        if (stage.loops[l].isReduction) {
            rvars.push_back({stage.loops[l].name, true});
            continue;
        }
        const CallVar v{stage.loops[l].name, false};
        const int64_t s = std::max<int64_t>(1, tiling.serial[l]);
        if (s > 1) {
            // The split keeps the serial loop's extent constant where Halide's region per
            // block is not (a hull of calls); an outer part of one iteration (serial over the
            // whole region, a histogram's bins) stays a serial loop outside the threads rather
            // than a thread loop of one, which would make a fourth GPU dimension to fuse.
            const CallVar thread = names.fresh(v.name + "_t");
            const CallVar ser = names.fresh(v.name + "_s");
            plan.calls.push_back(makeCall(CallKind::Split, stageIndex, {v, thread, ser}, s));
            serial.push_back(ser);
            (tiling.threads[l] == 1 ? once : threads).push_back(thread);
            serialProduct *= s;
        } else {
            threads.push_back(v);
        }
    }
    if (threads.empty() && serial.empty()) {
        singleThread(plan, stageIndex, names, false);
        return plan;
    }
    if (!serial.empty() || (!rvars.empty() && stageIndex > 0)) {
        std::vector<CallVar> order = serial;
        order.insert(order.end(), rvars.begin(), rvars.end());
        order.insert(order.end(), threads.begin(), threads.end());
        order.insert(order.end(), once.begin(), once.end());
        plan.calls.push_back(makeCall(CallKind::Reorder, stageIndex, order));
    }
    if (threads.empty()) {
        singleThread(plan, stageIndex, names, false);
    } else {
        fuseToThree(plan, stageIndex, threads, names, "fused_t");
        plan.calls.push_back(makeCall(CallKind::GpuThreads, stageIndex, threads));
        plan.threadVars = threads;
    }
    unrollSerial(plan, stageIndex, serial, state.unrolls(serialProduct));
    return plan;
}

/// A stage of a Func inside its host's thread loops: serial loops over the region one thread
/// needs. An update runs its pure loops inside its RVars, unrolled, so that the points of the
/// tile accumulate in registers while each RVar iteration's loads are shared between them (the
/// unrolled block of accumulators of a fast matrix multiply, paper 6.2).
StagePlan threadStagePlan(const ScheduleState &state, const Node &node, int stageIndex,
                          const StageTiling &tiling) {
    const Stage &stage = node.stages[size_t(stageIndex)];
    StagePlan plan;
    std::vector<CallVar> pure, rvars;
    int64_t product = 1;
    for (size_t l = 0; l < stage.loops.size(); ++l) {
        if (stage.loops[l].isReduction) {
            rvars.push_back({stage.loops[l].name, true});
            continue;
        }
        pure.push_back({stage.loops[l].name, false});
        product *= std::max<int64_t>(1, tiling.serial[l]);
    }
    if (!pure.empty() && !rvars.empty()) {
        std::vector<CallVar> order = pure;
        order.insert(order.end(), rvars.begin(), rvars.end());
        plan.calls.push_back(makeCall(CallKind::Reorder, stageIndex, order));
    }
    unrollSerial(plan, stageIndex, pure,
                 threadLevelUnrolled(node, product, state.maxUnrolledPoints()));
    return plan;
}

/// A producer staged into a consumer: at which of the consumer's loops, and its size.
struct Staging {
    int consumer = -1;
    CallVar thread;               ///< the consumer's innermost thread loop
    std::vector<int64_t> extents; ///< of the copy, per dimension of the producer
};

/// For each Func, the consumers that stage it (paper 4.7), consumers in outputs-first order.
std::vector<std::vector<Staging>> planStaging(const ScheduleState &state,
                                              const std::vector<std::vector<StagePlan>> &plans,
                                              const ScheduleCallOptions &options) {
    std::vector<std::vector<Staging>> staging(plans.size());
    for (int node : state.dag().outputsFirst()) {
        const auto &own = plans[size_t(node)];
        if (own.size() != 1 || own[0].threadVars.empty()) continue;
        const ThreadTile tile{node, own[0].constantTiles, own[0].unrolled};
        for (const StagedProducer &s : stagedProducers(state, tile, options)) {
            staging[size_t(s.producer)].push_back({node, own[0].threadVars.front(), s.extents});
        }
    }
    return staging;
}

/// The calls that make `s.consumer` read `producer` through a copy computed at its innermost
/// thread loop, stored in registers, its loops unrolled so that every index is a constant. The
/// extents are given: Halide cannot always prove that a shifted tile's footprint has a
/// constant size (it does, see ProducerStaging.cpp), and unrolling needs one.
std::vector<ScheduleCall> stagingCalls(const Node &producer, const Staging &s) {
    ScheduleCall wrap = makeCall(CallKind::StageIn, 0, {});
    wrap.host = s.consumer;
    ScheduleCall at = makeCall(CallKind::ComputeAt, 0, {s.thread});
    at.host = s.consumer;
    ScheduleCall store = makeCall(CallKind::StoreIn, 0, {});
    store.memory = MemoryType::Register;
    std::vector<ScheduleCall> calls = {wrap, at, store};
    // A wrapper's loops are the Func's arguments.
    for (size_t d = 0; d < producer.args.size(); ++d) {
        const CallVar arg{producer.args[d], false};
        calls.push_back(makeCall(CallKind::BoundExtent, 0, {arg}, s.extents.at(d)));
        calls.push_back(makeCall(CallKind::Unroll, 0, {arg}));
    }
    return calls;
}

std::string joinSizes(const std::vector<int64_t> &sizes) {
    std::string out;
    for (size_t i = 0; i < sizes.size(); ++i)
        out += (i ? "x" : "") + std::to_string(sizes[i]);
    return out.empty() ? "-" : out;
}

} // namespace

std::string describePlacement(const FunctionDAG &dag, int node, const FuncPlacement &p) {
    const Node &n = dag.node(node);
    switch (p.kind) {
    case ComputeKind::Inline:
        return "inline";
    case ComputeKind::Root: {
        std::string out = "root";
        for (size_t s = 0; s < p.tilings.size(); ++s) {
            const StageTiling &t = p.tilings[s];
            out += s ? "; " + n.stages[s].name.substr(n.name.size() + 1) + ":" : ":";
            out += " blocks " + joinSizes(t.blocks) + ", threads " + joinSizes(t.threads) +
                   ", serial " + joinSizes(t.serial);
        }
        return out;
    }
    case ComputeKind::Block:
        return "block level of " + dag.node(p.host).name + ", shared memory, threads " +
               joinSizes(p.tilings.at(0).threads) + ", serial " + joinSizes(p.tilings.at(0).serial);
    case ComputeKind::Thread:
        return "thread level of " + dag.node(p.host).name + ", registers, serial " +
               joinSizes(p.tilings.at(0).serial);
    case ComputeKind::Unscheduled:
        break;
    }
    return "unscheduled";
}

std::vector<FuncCalls> scheduleCalls(const ScheduleState &state,
                                     const ScheduleCallOptions &options) {
    const FunctionDAG &dag = state.dag();
    if (!state.complete()) {
        throw Error("cannot schedule '" + dag.pipelineName() + "': the schedule is incomplete");
    }
    // Stage plans first: a fused Func's compute_at names loops its host's plan creates.
    std::vector<std::vector<StagePlan>> plans(dag.nodes().size());
    for (const Node &n : dag.nodes()) {
        if (n.isInput) continue;
        const FuncPlacement &p = state.placement(n.index);
        auto &out = plans[size_t(n.index)];
        if (p.kind == ComputeKind::Root) {
            for (size_t s = 0; s < n.stages.size(); ++s) {
                out.push_back(rootStagePlan(state, n, int(s), p.tilings.at(s)));
            }
        } else if (p.kind == ComputeKind::Block) {
            for (size_t s = 0; s < n.stages.size(); ++s) {
                out.push_back(blockStagePlan(state, n, int(s), p.tilings.at(s)));
            }
        } else if (p.kind == ComputeKind::Thread) {
            for (size_t s = 0; s < n.stages.size(); ++s) {
                out.push_back(threadStagePlan(state, n, int(s), p.tilings.at(s)));
            }
        }
    }

    const std::vector<std::vector<Staging>> staging = planStaging(state, plans, options);

    std::vector<FuncCalls> result;
    for (int node : dag.outputsFirst()) {
        const Node &n = dag.node(node);
        const FuncPlacement &p = state.placement(node);
        FuncCalls fc;
        fc.node = node;
        fc.decision = describePlacement(dag, node, p);
        if (p.kind == ComputeKind::Inline) {
            fc.calls.push_back(makeCall(CallKind::ComputeInline, 0, {}));
        } else if (p.kind == ComputeKind::Root) {
            fc.calls.push_back(makeCall(CallKind::ComputeRoot, 0, {}));
        } else {
            const bool block = p.kind == ComputeKind::Block;
            const auto &hostPlans = plans.at(size_t(p.host));
            if (hostPlans.empty()) {
                throw Error("'" + n.name + "' is fused into '" + dag.node(p.host).name +
                            "', which has no GPU loops");
            }
            const StagePlan &hostLast = hostPlans.back();
            const auto &hostVars = block ? hostLast.blockVars : hostLast.threadVars;
            if (hostVars.empty()) {
                throw Error("'" + n.name + "' is fused into '" + dag.node(p.host).name +
                            "' at a level that has no loops");
            }
            ScheduleCall at = makeCall(CallKind::ComputeAt, 0, {hostVars.front()});
            at.host = p.host;
            fc.calls.push_back(at);
            ScheduleCall store = makeCall(CallKind::StoreIn, 0, {});
            store.memory = block ? MemoryType::Shared : MemoryType::Register;
            fc.calls.push_back(store);
        }
        for (const StagePlan &plan : plans[size_t(node)]) {
            fc.calls.insert(fc.calls.end(), plan.calls.begin(), plan.calls.end());
        }
        for (const Staging &s : staging[size_t(node)]) {
            fc.decision += "; staged in registers of " + dag.node(s.consumer).name + " (" +
                           joinSizes(s.extents) + " per thread)";
            const std::vector<ScheduleCall> calls = stagingCalls(n, s);
            fc.calls.insert(fc.calls.end(), calls.begin(), calls.end());
        }
        result.push_back(std::move(fc));
    }
    return result;
}

} // namespace beamscope
