// Kernel trees of a schedule and derivations (one decision on top of a parent state).
// Contents: PlacementView; which kernels a decision touches; building kernel trees (kernel,
// fused Funcs, inlined calls); derive; Derivation::kernel / materialize.
#include "schedule/ScheduleState.h"

#include <algorithm>

namespace beamscope {

const FuncPlacement &PlacementView::operator()(int n) const {
    return n == node && override ? *override : base.placement(n);
}

namespace {

/// Builds kernel trees from the placements seen through a view.
class KernelBuilder {
public:
    KernelBuilder(const FunctionDAG &dag, const PlacementView &view) : m_dag(dag), m_view(view) {}

    /// Root Funcs whose kernels contain `node` (itself, its host chain, or through inlining),
    /// sorted. Small vectors, not sets: derive() runs this for every candidate.
    std::vector<int> rootsContaining(int node) const {
        std::vector<int> roots, seen;
        std::vector<int> work{node};
        while (!work.empty()) {
            const int f = work.back();
            work.pop_back();
            if (std::find(seen.begin(), seen.end(), f) != seen.end()) continue;
            seen.push_back(f);
            const FuncPlacement &p = m_view(f);
            if (p.kind == ComputeKind::Root) {
                roots.push_back(f);
            } else if (p.kind == ComputeKind::Block || p.kind == ComputeKind::Thread) {
                work.push_back(p.host);
            } else if (p.kind == ComputeKind::Inline) {
                for (int e : m_dag.node(f).outgoing)
                    work.push_back(m_dag.edge(e).consumer);
            }
        }
        std::sort(roots.begin(), roots.end());
        return roots;
    }

    LoopNestPtr kernel(int root, int stageIndex) const {
        const FuncPlacement &p = m_view(root);
        const StageTiling &t = p.tilings[size_t(stageIndex)];
        const Stage &stage = m_dag.node(root).stages[size_t(stageIndex)];
        const bool last = stageIndex == int(m_dag.node(root).stages.size()) - 1;

        auto serial = leaf(root, stageIndex, t.serial);
        serial->unrolled = m_view.base.unrolls(pureSerialPoints(stage, t)); // paper 4.7

        auto thread = std::make_shared<LoopNest>();
        thread->level = LoopLevel::Thread;
        thread->node = root;
        thread->stage = stageIndex;
        thread->extents = t.threads;

        auto block = std::make_shared<LoopNest>();
        block->level = LoopLevel::Block;
        block->node = root;
        block->stage = stageIndex;
        block->extents = t.blocks;
        if (last) {
            for (const Node &n : m_dag.nodes()) {
                if (n.isInput) continue;
                const FuncPlacement &q = m_view(n.index);
                if (q.host != root) continue;
                if (q.kind == ComputeKind::Block) {
                    block->stored.push_back(n.index);
                    addBlockStages(n.index, *block);
                } else if (q.kind == ComputeKind::Thread) {
                    thread->stored.push_back(n.index);
                    addThreadStages(n.index, *thread);
                }
            }
        }
        thread->children.push_back(serial);
        block->children.push_back(thread);
        return block;
    }

private:
    std::shared_ptr<LoopNest> leaf(int node, int stage, const std::vector<int64_t> &extents) const {
        auto serial = std::make_shared<LoopNest>();
        serial->level = LoopLevel::Serial;
        serial->node = node;
        serial->stage = stage;
        serial->extents = extents;
        serial->computesHere = true;
        addInlined(node, stage, 1, serial->inlined);
        return serial;
    }

    /// A Func at the thread level of its host: each stage's serial loops over the region one
    /// thread needs, in stage order; the pure loops unrolled when few, an accumulator's always
    /// (an update's inside its RVars, ScheduleCalls).
    void addThreadStages(int node, LoopNest &thread) const {
        const FuncPlacement &p = m_view(node);
        const Node &n = m_dag.node(node);
        for (size_t s = 0; s < n.stages.size(); ++s) {
            auto serial = leaf(node, int(s), p.tilings[s].serial);
            serial->unrolled = threadLevelUnrolled(n, pureSerialPoints(n.stages[s], p.tilings[s]),
                                                   m_view.base.maxUnrolledPoints());
            thread.children.push_back(serial);
        }
    }

    /// A Func at the block level of its host: per stage, in stage order, its thread and serial
    /// loops over the region per block (an update's RVars among the serial loops); the Funcs
    /// at its thread level in its last stage's threads.
    void addBlockStages(int node, LoopNest &block) const {
        const FuncPlacement &p = m_view(node);
        const Node &n = m_dag.node(node);
        for (size_t s = 0; s < n.stages.size(); ++s) {
            const StageTiling &t = p.tilings[s];
            auto serial = leaf(node, int(s), t.serial);
            serial->unrolled = m_view.base.unrolls(pureSerialPoints(n.stages[s], t));
            auto thread = std::make_shared<LoopNest>();
            thread->level = LoopLevel::Thread;
            thread->node = node;
            thread->stage = int(s);
            thread->extents = t.threads;
            if (s + 1 == n.stages.size()) {
                for (const Node &m : m_dag.nodes()) {
                    if (m.isInput) continue;
                    const FuncPlacement &q = m_view(m.index);
                    if (q.kind == ComputeKind::Thread && q.host == node) {
                        thread->stored.push_back(m.index);
                        addThreadStages(m.index, *thread);
                    }
                }
            }
            thread->children.push_back(serial);
            block.children.push_back(thread);
        }
    }

    void addInlined(int node, int stage, int64_t factor, std::vector<InlinedCall> &out) const {
        for (int e : m_dag.node(node).stages[size_t(stage)].incoming) {
            const Edge &edge = m_dag.edge(e);
            if (m_view(edge.producer).kind != ComputeKind::Inline) continue;
            const int64_t calls = factor * int64_t(edge.calls.size());
            auto it = std::find_if(out.begin(), out.end(),
                                   [&](const InlinedCall &c) { return c.node == edge.producer; });
            if (it == out.end())
                out.push_back({edge.producer, calls});
            else
                it->calls += calls;
            addInlined(edge.producer, 0, calls, out);
        }
    }

    const FunctionDAG &m_dag;
    const PlacementView &m_view;
};

} // namespace

Derivation ScheduleState::derive(int node, FuncPlacement decision) const {
    return derive(node, std::make_shared<const FuncPlacement>(std::move(decision)));
}

Derivation ScheduleState::derive(int node, std::shared_ptr<const FuncPlacement> decision) const {
    Derivation d;
    d.parent = shared_from_this();
    d.node = node;
    d.placement = std::move(decision);
    const PlacementView view{*this, node, d.placement.get()};
    const KernelBuilder builder(*m_dag, view);

    // Kernels whose contents the decision changes are rebuilt; the others are shared.
    const std::vector<int> dirtyRoots = builder.rootsContaining(node);
    const bool nowRoot = d.placement->kind == ComputeKind::Root;
    const bool wasRoot = placement(node).kind == ComputeKind::Root;
    auto map = std::make_shared<KernelMap>();
    std::vector<std::pair<int, int>> &ids = map->ids;
    if (nowRoot == wasRoot) {
        ids = m_kernelIds;
    } else {
        // Kernels are ordered by node index (producers first), then stage.
        for (const auto &id : m_kernelIds) {
            if (id.first != node) ids.push_back(id);
        }
        if (nowRoot) {
            std::vector<std::pair<int, int>> own;
            for (size_t s = 0; s < m_dag->node(node).stages.size(); ++s)
                own.push_back({node, int(s)});
            auto at = std::lower_bound(ids.begin(), ids.end(), own.front());
            ids.insert(at, own.begin(), own.end());
        }
    }
    map->parentKernel.assign(ids.size(), -1);
    size_t p = 0;
    for (size_t k = 0; k < ids.size(); ++k) {
        const auto &id = ids[k];
        while (p < m_kernelIds.size() && m_kernelIds[p] < id)
            ++p;
        const bool inParent = p < m_kernelIds.size() && m_kernelIds[p] == id;
        if (inParent && !std::binary_search(dirtyRoots.begin(), dirtyRoots.end(), id.first))
            map->parentKernel[k] = int(p);
    }
    d.kernelMap = std::move(map);
    return d;
}

Derivation ScheduleState::deriveSibling(const Derivation &sibling,
                                        std::shared_ptr<const FuncPlacement> decision) const {
    // A root placement of a Func makes its own kernels the only changed ones, whatever the
    // tiling, so the kernel map depends on the parent and the Func alone.
    if (sibling.parent.get() != this || sibling.placement->kind != ComputeKind::Root ||
        decision->kind != ComputeKind::Root)
        return derive(sibling.node, std::move(decision));
    Derivation d;
    d.parent = sibling.parent;
    d.node = sibling.node;
    d.placement = std::move(decision);
    d.kernelMap = sibling.kernelMap;
    return d;
}

LoopNestPtr Derivation::buildKernel(size_t k) const {
    const PlacementView view{*parent, node, placement.get()};
    const auto &[root, stage] = kernelMap->ids[k];
    return KernelBuilder(parent->dag(), view).kernel(root, stage);
}

const LoopNest &Derivation::kernel(size_t k) const {
    const int fromParent = kernelMap->parentKernel[k];
    if (fromParent >= 0) return *parent->kernels()[size_t(fromParent)];
    if (freshKernels.empty()) freshKernels.resize(kernelMap->ids.size());
    if (!freshKernels[k]) freshKernels[k] = buildKernel(k);
    return *freshKernels[k];
}

StatePtr Derivation::materialize() const {
    auto child = std::shared_ptr<ScheduleState>(new ScheduleState());
    child->m_dag = parent->m_dag;
    child->m_placements = parent->m_placements;
    child->m_placements[size_t(node)] = placement;
    child->m_decisions = parent->m_decisions + 1;
    child->m_maxUnrolledPoints = parent->m_maxUnrolledPoints;
    child->m_parent = parent;
    const KernelMap &map = *kernelMap;
    child->m_kernelIds = map.ids;
    child->m_kernels.resize(map.ids.size());
    for (size_t k = 0; k < map.ids.size(); ++k) {
        if (map.parentKernel[k] >= 0)
            child->m_kernels[k] = parent->m_kernels[size_t(map.parentKernel[k])];
        else if (!freshKernels.empty() && freshKernels[k])
            child->m_kernels[k] = freshKernels[k];
        else
            child->m_kernels[k] = buildKernel(k);
    }
    return child;
}

} // namespace beamscope
