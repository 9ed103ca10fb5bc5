// ScheduleState: decisions, legality of fusion, bounds of fused Funcs, printing. Kernel trees
// and derivations are built in KernelBuilder.cpp.
// Contents: names; initial; placements of decisions; legality (can*, insideHost); bounds
// (regionWithin, loopBoxWithin); memory types; printing.
#include "schedule/ScheduleState.h"

#include "util/Error.h"
#include "util/IntMath.h"

#include <algorithm>
#include <set>

namespace beamscope {

namespace {

int levelRank(LoopLevel l) {
    return static_cast<int>(l);
}

/// The first pure loop of `stage` whose tile (threads x serial) covers more than its extent, or
/// -1: such a host's tiles are guarded and have no constant size.
int firstOverlongLoop(const Stage &stage, const StageTiling &t) {
    for (size_t l = 0; l < stage.loops.size(); ++l) {
        const LoopVar &loop = stage.loops[l];
        if (!loop.isReduction && t.threads[l] * t.serial[l] > loop.estimate.extent()) return int(l);
    }
    return -1;
}

} // namespace

const char *computeKindName(ComputeKind kind) {
    switch (kind) {
    case ComputeKind::Unscheduled:
        return "unscheduled";
    case ComputeKind::Inline:
        return "inline";
    case ComputeKind::Root:
        return "root";
    case ComputeKind::Block:
        return "block";
    case ComputeKind::Thread:
        return "thread";
    }
    return "?";
}

StatePtr ScheduleState::initial(std::shared_ptr<const FunctionDAG> dag, int64_t maxUnrolledPoints) {
    auto state = std::shared_ptr<ScheduleState>(new ScheduleState());
    state->m_maxUnrolledPoints = maxUnrolledPoints;
    state->m_placements.assign(dag->nodes().size(), std::make_shared<const FuncPlacement>());
    state->m_dag = std::move(dag);
    return state;
}

bool ScheduleState::complete() const {
    for (const Node &n : m_dag->nodes()) {
        if (n.isInput) continue;
        const FuncPlacement &p = *m_placements[size_t(n.index)];
        if (p.kind == ComputeKind::Unscheduled) return false;
        if (p.kind == ComputeKind::Root && !p.tiled) return false;
    }
    return true;
}

StageTiling ScheduleState::makeTiling(const Stage &stage, std::vector<int64_t> threads,
                                      std::vector<int64_t> serial) {
    StageTiling t;
    t.threads = std::move(threads);
    t.serial = std::move(serial);
    // A 2-D tiling given to a 3-D stage would be read past its end.
    t.threads.resize(stage.loops.size(), 1);
    t.serial.resize(stage.loops.size(), 1);
    t.blocks.resize(stage.loops.size());
    for (size_t l = 0; l < stage.loops.size(); ++l) {
        const int64_t extent = stage.loops[l].estimate.extent();
        if (stage.loops[l].isReduction) {
            t.threads[l] = 1;
            t.serial[l] = extent;
        }
        t.threads[l] = std::max<int64_t>(1, std::min(t.threads[l], extent));
        t.serial[l] = std::max<int64_t>(1, std::min(t.serial[l], ceilDiv(extent, t.threads[l])));
        t.blocks[l] = ceilDiv(extent, t.threads[l] * t.serial[l]);
    }
    return t;
}

std::vector<StageTiling> ScheduleState::provisionalTiling(const FunctionDAG &dag, int node) {
    std::vector<StageTiling> tilings;
    for (const Stage &stage : dag.node(node).stages) {
        std::vector<int64_t> threads(stage.loops.size(), 1), serial(stage.loops.size(), 1);
        int innermost = -1;
        for (size_t l = 0; l < stage.loops.size(); ++l) {
            if (!stage.loops[l].isReduction && stage.loops[l].estimate.extent() >= 16) {
                innermost = int(l);
                break;
            }
        }
        if (innermost >= 0) {
            threads[size_t(innermost)] = 32;
            for (size_t l = 0; l < stage.loops.size(); ++l) {
                if (int(l) != innermost && !stage.loops[l].isReduction) {
                    threads[l] = 8;
                    break;
                }
            }
        }
        tilings.push_back(makeTiling(stage, threads, serial));
    }
    return tilings;
}

// ---- decisions ---------------------------------------------------------------------------

FuncPlacement ScheduleState::inlinePlacement(int node) const {
    if (!canInline(node)) throw Error("'" + m_dag->node(node).name + "' cannot be inlined");
    FuncPlacement p;
    p.kind = ComputeKind::Inline;
    p.tiled = true;
    return p;
}

FuncPlacement ScheduleState::rootPlacement(int node) const {
    FuncPlacement p;
    p.kind = ComputeKind::Root;
    p.tilings = provisionalTiling(*m_dag, node);
    p.region = m_dag->node(node).region;
    return p;
}

FuncPlacement ScheduleState::rootTilingPlacement(int node,
                                                 const std::vector<StageTiling> &tilings) const {
    return rootTilingPlacement(*m_dag, node, tilings);
}

FuncPlacement ScheduleState::rootTilingPlacement(const FunctionDAG &dag, int node,
                                                 std::vector<StageTiling> tilings) {
    FuncPlacement p;
    p.kind = ComputeKind::Root;
    p.tiled = true;
    p.tilings = std::move(tilings);
    p.region = dag.node(node).region;
    return p;
}

StatePtr ScheduleState::withInline(int node) const {
    return derive(node, inlinePlacement(node)).materialize();
}
StatePtr ScheduleState::withRoot(int node) const {
    return derive(node, rootPlacement(node)).materialize();
}
StatePtr ScheduleState::withRootTiling(int node, const std::vector<StageTiling> &tilings) const {
    return derive(node, rootTilingPlacement(node, tilings)).materialize();
}
StatePtr ScheduleState::withBlock(int node, int host, const std::vector<int64_t> &serial) const {
    return derive(node, blockPlacement(node, host, serial)).materialize();
}
StatePtr ScheduleState::withThread(int node, int host) const {
    return derive(node, threadPlacement(node, host)).materialize();
}

FuncPlacement ScheduleState::blockPlacement(int node, int host,
                                            const std::vector<int64_t> &serial) const {
    if (!canFuse(node, host, LoopLevel::Block)) {
        throw Error("'" + m_dag->node(node).name + "' cannot be computed at the block level of '" +
                    m_dag->node(host).name + "'");
    }
    FuncPlacement p;
    p.kind = ComputeKind::Block;
    p.host = host;
    p.tiled = true;
    p.region = regionWithin(node, host, LoopLevel::Block);
    const Node &n = m_dag->node(node);
    const Stage &pure = n.stages[0];
    // Per Func dimension: the serial size and the threads that cover the region per block.
    std::vector<int64_t> threadsOf(size_t(n.dimensions), 1), serialOf(size_t(n.dimensions), 1);
    for (size_t l = 0; l < pure.loops.size(); ++l) {
        const size_t d = size_t(pure.loops[l].funcDim);
        const int64_t extent = p.region[d].extent();
        serialOf[d] = std::max<int64_t>(1, std::min(l < serial.size() ? serial[l] : 1, extent));
        threadsOf[d] = ceilDiv(extent, serialOf[d]);
    }
    // Every stage runs on the same threads (an update's points are its pure stage's, written
    // in place: Node::pointwiseUpdates); an update's RVars run serially and whole in each.
    for (const Stage &stage : n.stages) {
        StageTiling t{std::vector<int64_t>(stage.loops.size(), 1),
                      std::vector<int64_t>(stage.loops.size(), 1),
                      std::vector<int64_t>(stage.loops.size(), 1)};
        for (size_t l = 0; l < stage.loops.size(); ++l) {
            const LoopVar &loop = stage.loops[l];
            if (loop.isReduction || loop.funcDim < 0) {
                t.serial[l] = loop.estimate.extent();
                continue;
            }
            t.threads[l] = threadsOf[size_t(loop.funcDim)];
            t.serial[l] = serialOf[size_t(loop.funcDim)];
        }
        p.tilings.push_back(std::move(t));
    }
    const FuncPlacement &h = *m_placements[size_t(host)];
    int64_t blocks = 1;
    for (int64_t b : h.tilings.back().blocks)
        blocks *= b;
    p.realizations = h.realizations * blocks;
    return p;
}

FuncPlacement ScheduleState::threadPlacement(int node, int host) const {
    if (!canFuse(node, host, LoopLevel::Thread)) {
        throw Error("'" + m_dag->node(node).name + "' cannot be computed at the thread level of '" +
                    m_dag->node(host).name + "'");
    }
    FuncPlacement p;
    p.kind = ComputeKind::Thread;
    p.host = host;
    p.tiled = true;
    p.region = regionWithin(node, host, LoopLevel::Thread);
    // Every stage runs serially over the region one thread needs; RVars whole.
    for (const Stage &stage : m_dag->node(node).stages) {
        std::vector<int64_t> ones(stage.loops.size(), 1), serial(stage.loops.size(), 1);
        for (size_t l = 0; l < stage.loops.size(); ++l) {
            const LoopVar &loop = stage.loops[l];
            serial[l] =
                loop.isReduction ? loop.estimate.extent() : p.region[size_t(loop.funcDim)].extent();
        }
        p.tilings.push_back(StageTiling{ones, ones, serial});
    }
    const FuncPlacement &h = *m_placements[size_t(host)];
    int64_t outer = 1;
    for (int64_t b : h.tilings.back().blocks)
        outer *= b;
    for (int64_t t : h.tilings.back().threads)
        outer *= t;
    p.realizations = h.realizations * outer;
    return p;
}

StatePtr ScheduleState::withPlacement(int node, const FuncPlacement &placement) const {
    switch (placement.kind) {
    case ComputeKind::Inline:
        return withInline(node);
    case ComputeKind::Root:
        return placement.tiled ? withRootTiling(node, placement.tilings) : withRoot(node);
    case ComputeKind::Block:
        return withBlock(node, placement.host, placement.tilings.at(0).serial);
    case ComputeKind::Thread:
        return withThread(node, placement.host);
    case ComputeKind::Unscheduled:
        break;
    }
    throw Error("cannot replay an unscheduled placement of '" + m_dag->node(node).name + "'");
}

int64_t pureSerialPoints(const Stage &stage, const StageTiling &tiling) {
    int64_t points = 1;
    for (size_t l = 0; l < stage.loops.size(); ++l) {
        if (!stage.loops[l].isReduction) points *= tiling.serial[l];
    }
    return points;
}

std::array<int64_t, 3> gpuThreadDims(const Stage &stage, const StageTiling &tiling,
                                     bool blockLevel) {
    std::vector<int64_t> dims;
    for (size_t l = 0; l < stage.loops.size(); ++l) {
        if (stage.loops[l].isReduction) continue;
        const int64_t threads = std::max<int64_t>(1, tiling.threads[l]);
        if (blockLevel && tiling.serial[l] > 1 && threads == 1) continue; // a serial loop only
        dims.push_back(threads);
    }
    std::array<int64_t, 3> out{1, 1, 1};
    for (size_t d = 0; d < dims.size(); ++d)
        out[std::min<size_t>(d, 2)] *= dims[d];
    return out;
}

bool threadLevelUnrolled(const Node &node, int64_t pureSerialPoints, int64_t maxUnrolledPoints) {
    return pureSerialPoints <= maxUnrolledPoints || node.stages.size() > 1;
}

// ---- legality ----------------------------------------------------------------------------

bool ScheduleState::canInline(int node) const {
    const Node &n = m_dag->node(node);
    return !n.isInput && !n.isOutput && n.stages.size() == 1;
}

bool ScheduleState::insideHost(int node, int host, LoopLevel level) const {
    if (node == host) return false;
    const FuncPlacement &p = *m_placements[size_t(node)];
    switch (p.kind) {
    case ComputeKind::Inline: {
        const Node &n = m_dag->node(node);
        if (n.outgoing.empty()) return false;
        for (int e : n.outgoing) {
            const Edge &edge = m_dag->edge(e);
            const bool atHost = edge.consumer == host &&
                                edge.consumerStage == int(m_dag->node(host).stages.size()) - 1;
            if (!atHost && !insideHost(edge.consumer, host, level)) return false;
        }
        return true;
    }
    case ComputeKind::Block:
    case ComputeKind::Thread: {
        const LoopLevel own = p.kind == ComputeKind::Block ? LoopLevel::Block : LoopLevel::Thread;
        if (p.host == host) return levelRank(own) >= levelRank(level);
        return insideHost(p.host, host, level);
    }
    default:
        return false;
    }
}

FuseRefusal ScheduleState::fuseRefusal(int node, int host, LoopLevel level) const {
    const Node &n = m_dag->node(node);
    if (n.isInput || n.isOutput || node == host) return FuseRefusal::NotAFusableFunc;
    if (level != LoopLevel::Block && level != LoopLevel::Thread)
        return FuseRefusal::UnsupportedLevel;
    // A Func with updates is fused only when its updates touch only the points they are
    // computed over: at the thread level all its stages run in each thread's tile, its
    // accumulators in registers; at the block level (shared memory) each stage runs on the
    // block's threads over the Func's region per block, its RVars serial (Anderson et al.
    // 2021's compute_at at the block level, the reduction into shared memory).
    // A Func whose updates scatter (a histogram, Node::scatteredDims) only at the block level:
    // its threads own their pure points and the scattered dimensions are whole in shared
    // memory; registers need constant indices, which a data-dependent one is not.
    const bool scatters = !n.scatteredDims.empty() && level == LoopLevel::Block;
    if (n.stages.size() != 1 && !n.pointwiseUpdates && !scatters)
        return FuseRefusal::UpdatesReachOtherPoints;
    const FuncPlacement &h = *m_placements[size_t(host)];
    // Only a root host's tiles have a constant size (its tile splits shift inwards; a block-level
    // host's loops and tiles longer than the stage are guarded): a Func fused into a variable
    // tile would have a dynamic size, which registers cannot hold.
    if (h.kind != ComputeKind::Root || !h.tiled) return FuseRefusal::HostNotRootTiled;
    if (firstOverlongLoop(m_dag->node(host).stages.back(), h.tilings.back()) >= 0)
        return FuseRefusal::HostTileLongerThanLoop;
    // An update stage's tiles are guarded (recomputing an update would apply it twice), so the
    // points a thread computes vary in the last tile, and registers need a constant size. At the
    // block level Halide bounds the Func by the whole tile, guard or not (shared memory of a
    // constant size; Anderson et al. 2021 compute Funcs there, e.g. lens_blur's
    // worst_case_bokeh_radius in blurred's update tiles), and so does regionWithin.
    if (m_dag->node(host).stages.size() > 1 && level == LoopLevel::Thread)
        return FuseRefusal::HostHasUpdates;
    bool usedByHost = false;
    const int lastStage = int(m_dag->node(host).stages.size()) - 1;
    for (int e : n.outgoing) {
        const Edge &edge = m_dag->edge(e);
        if (edge.consumer == host) {
            if (edge.consumerStage != lastStage) return FuseRefusal::ReadByHostUpdate;
            usedByHost = true;
        } else if (!insideHost(edge.consumer, host, level)) {
            return FuseRefusal::ReadOutsideHost;
        }
    }
    if (!usedByHost) {
        // Reached only through Funcs inside the host's loop: still legal, still inside.
        return n.outgoing.empty() ? FuseRefusal::NotReadInHost : FuseRefusal::None;
    }
    return FuseRefusal::None;
}

std::string ScheduleState::describeFuseRefusal(int node, int host, LoopLevel level) const {
    const Node &n = m_dag->node(node);
    const Node &h = m_dag->node(host);
    const std::string name = "'" + n.name + "'", hostName = "'" + h.name + "'";
    switch (fuseRefusal(node, host, level)) {
    case FuseRefusal::None:
        return name + " can be computed inside " + hostName;
    case FuseRefusal::NotAFusableFunc:
        return name + (node == host ? " is the host itself" : " is a pipeline input or output");
    case FuseRefusal::UnsupportedLevel:
        return "only a block or thread level can hold a Func";
    case FuseRefusal::UpdatesReachOtherPoints:
        return name + "'s updates reach points other than those they are computed over" +
               (level == LoopLevel::Thread && !n.scatteredDims.empty()
                    ? " (a scattering update goes to the block level only)"
                    : "");
    case FuseRefusal::HostNotRootTiled: {
        const FuncPlacement &p = *m_placements[size_t(host)];
        return hostName + " is " + computeKindName(p.kind) +
               (p.kind == ComputeKind::Root ? " untiled" : "") +
               " there; only a tiled root Func's tiles have a constant size";
    }
    case FuseRefusal::HostTileLongerThanLoop: {
        const StageTiling &t = m_placements[size_t(host)]->tilings.back();
        const size_t l = size_t(firstOverlongLoop(h.stages.back(), t));
        const LoopVar &loop = h.stages.back().loops[l];
        return hostName + "'s tile of " + std::to_string(t.threads[l]) + " threads x " +
               std::to_string(t.serial[l]) + " serial in " + loop.name + " covers " +
               std::to_string(t.threads[l] * t.serial[l]) + " points of its " +
               std::to_string(loop.estimate.extent()) +
               ": its tiles are guarded, so a Func inside them has no constant size";
    }
    case FuseRefusal::HostHasUpdates:
        return hostName + " has update stages, whose guarded tiles give a thread no constant "
                          "number of points: a Func goes to its block level (shared memory)";
    case FuseRefusal::ReadByHostUpdate:
        return hostName + " reads " + name +
               " in a stage before its last, outside the last stage's tiles";
    case FuseRefusal::ReadOutsideHost:
        return name + " is also read by a Func outside " + hostName + "'s " +
               (level == LoopLevel::Block ? "block" : "thread") + " loop";
    case FuseRefusal::NotReadInHost:
        return "nothing reads " + name;
    }
    return {};
}

// ---- bounds ------------------------------------------------------------------------------

Box ScheduleState::loopBoxWithin(int consumer, int stageIndex, int host, LoopLevel level) const {
    const Stage &stage = m_dag->node(consumer).stages[size_t(stageIndex)];
    Box box(stage.loops.size());
    if (consumer == host) {
        const FuncPlacement &h = *m_placements[size_t(host)];
        const StageTiling &t = h.tilings[size_t(stageIndex)];
        for (size_t l = 0; l < stage.loops.size(); ++l) {
            const LoopVar &loop = stage.loops[l];
            const int64_t base = loop.funcDim >= 0 && !h.region.empty()
                                     ? h.region[size_t(loop.funcDim)].min
                                     : loop.estimate.min;
            const int64_t span =
                level == LoopLevel::Block ? t.threads[l] * t.serial[l] : t.serial[l];
            box[l] = loop.isReduction ? loop.estimate : Interval{base, base + span - 1};
        }
        return box;
    }
    if (!insideHost(consumer, host, level)) return {};
    const Box region = regionWithin(consumer, host, level);
    for (size_t l = 0; l < stage.loops.size(); ++l) {
        const LoopVar &loop = stage.loops[l];
        box[l] = loop.funcDim >= 0 ? region[size_t(loop.funcDim)] : loop.estimate;
    }
    return box;
}

Box ScheduleState::regionWithin(int node, int host, LoopLevel level) const {
    const Node &n = m_dag->node(node);
    Box region(size_t(n.dimensions));
    bool reached = false;
    for (int e : n.outgoing) {
        const Edge &edge = m_dag->edge(e);
        const Box box = loopBoxWithin(edge.consumer, edge.consumerStage, host, level);
        if (box.empty() &&
            !m_dag->node(edge.consumer).stages[size_t(edge.consumerStage)].loops.empty()) {
            continue;
        }
        reached = true;
        const Box required = edge.requiredRegion(box);
        for (size_t d = 0; d < region.size() && d < required.size(); ++d)
            region[d].unite(required[d]);
    }
    // An update that writes a data-dependent coordinate may write anywhere in the Func's range
    // there: Halide's bounds inference realizes it whole in that dimension.
    if (reached) {
        for (int d : n.scatteredDims)
            region[size_t(d)].unite(n.region[size_t(d)]);
    }
    return region;
}

std::vector<int> ScheduleState::edgesWithin(int node, int host, LoopLevel level) const {
    std::vector<int> edges;
    std::set<int> seen;
    std::vector<int> work{node};
    while (!work.empty()) {
        const int f = work.back();
        work.pop_back();
        for (int e : m_dag->node(f).outgoing) {
            const int c = m_dag->edge(e).consumer;
            if (c != host && !insideHost(c, host, level)) continue;
            edges.push_back(e);
            if (c != host && seen.insert(c).second) work.push_back(c);
        }
    }
    std::sort(edges.begin(), edges.end());
    return edges;
}

MemoryType ScheduleState::memoryOf(int node) const {
    if (m_dag->node(node).isInput) return MemoryType::Global;
    switch (m_placements[size_t(node)]->kind) {
    case ComputeKind::Block:
        return MemoryType::Shared;
    case ComputeKind::Thread:
        return MemoryType::Register;
    case ComputeKind::Inline:
        return MemoryType::None;
    default:
        return MemoryType::Global; // root, and not yet scheduled (treated as root)
    }
}

std::pair<int, int> ScheduleState::kernelOf(int node) const {
    const FuncPlacement &p = *m_placements[size_t(node)];
    if (p.kind == ComputeKind::Root) return {node, int(m_dag->node(node).stages.size()) - 1};
    if (p.kind == ComputeKind::Block || p.kind == ComputeKind::Thread) return kernelOf(p.host);
    return {-1, -1};
}

// ---- printing ----------------------------------------------------------------------------

void ScheduleState::printLoopNest(std::ostream &os) const {
    for (size_t k = 0; k < m_kernels.size(); ++k) {
        const int root = m_kernelIds[k].first;
        if (m_kernelIds[k].second == 0) {
            os << "allocate " << m_dag->node(root).name << " @global\n";
        }
        m_kernels[k]->print(os, *m_dag, 0);
    }
}

void ScheduleState::dump(std::ostream &os) const {
    for (const Node &n : m_dag->nodes()) {
        if (n.isInput) continue;
        const FuncPlacement &p = *m_placements[size_t(n.index)];
        os << n.name << ": " << computeKindName(p.kind);
        if (p.host >= 0) os << " in " << m_dag->node(p.host).name;
        if (p.kind == ComputeKind::Root && !p.tiled) os << " (untiled)";
        for (size_t s = 0; s < p.tilings.size(); ++s) {
            const StageTiling &t = p.tilings[s];
            os << " [s" << s << " blocks";
            for (int64_t v : t.blocks)
                os << " " << v;
            os << " threads";
            for (int64_t v : t.threads)
                os << " " << v;
            os << " serial";
            for (int64_t v : t.serial)
                os << " " << v;
            os << "]";
        }
        os << "\n";
    }
}

} // namespace beamscope
