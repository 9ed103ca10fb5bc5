// StructuralHash: FNV-1a over a depth-limited walk of the kernels' loop trees.
#include "search/StructuralHash.h"

#include <algorithm>
#include <vector>

namespace beamscope {

namespace {

class Hasher {
public:
    void add(uint64_t v) {
        for (int i = 0; i < 8; ++i) {
            m_h ^= (v >> (8 * i)) & 0xff;
            m_h *= 0x100000001b3ULL;
        }
    }
    uint64_t value() const { return m_h; }

private:
    uint64_t m_h = 0xcbf29ce484222325ULL;
};

/// Depths from which a level's contents, and its extents (as >1 or not, then exactly), count.
struct LevelDepths {
    int contents, parallel, exact;
};

LevelDepths depthsOf(LoopLevel level) {
    switch (level) {
    case LoopLevel::Block:
        return {2, 1, 2};
    case LoopLevel::Thread:
        return {4, 3, 4};
    default:
        return {6, 5, 6};
    }
}

void hashNode(const LoopNest &n, int depth, Hasher &h) {
    const LevelDepths at = depthsOf(n.level);
    h.add(uint64_t(n.level) + 1);
    h.add(uint64_t(n.node + 1));
    h.add(uint64_t(n.stage + 1));
    if (depth >= at.parallel) {
        for (int64_t e : n.extents)
            h.add(depth >= at.exact ? uint64_t(e) : uint64_t(e > 1));
    }
    // What is computed inside this level (fused or inlined Funcs) counts from its contents
    // depth on, one unit after its loop sizes.
    if (depth >= at.contents) {
        for (const InlinedCall &c : n.inlined)
            h.add(uint64_t(c.node) + 0x2000);
        for (int f : n.stored)
            h.add(uint64_t(f) + 0x1000);
    }
    for (const LoopNestPtr &c : n.children) {
        const bool ownLoops = c->node == n.node;
        if (ownLoops || depth >= at.contents) hashNode(*c, depth, h);
    }
    h.add(0xffff);
}

/// A kernel's hash at depth 0: its root Func and stage only.
uint64_t idHash(int node, int stage) {
    Hasher h;
    h.add(uint64_t(node + 1));
    h.add(uint64_t(stage + 1));
    return h.value() | 1; // never 0, which marks "not computed"
}

/// idHash of a (node, stage), computed once per thread: a greedy step hashes every one of its
/// tens of thousands of candidates at depth 0, each kernel by its id.
uint64_t cachedIdHash(int node, int stage) {
    if (node < 0 || stage < 0) return idHash(node, stage);
    thread_local std::vector<std::vector<uint64_t>> cache;
    if (size_t(node) >= cache.size()) cache.resize(size_t(node) + 1);
    std::vector<uint64_t> &stages = cache[size_t(node)];
    if (size_t(stage) >= stages.size()) stages.resize(size_t(stage) + 1, 0);
    uint64_t &h = stages[size_t(stage)];
    if (h == 0) h = idHash(node, stage); // never 0 itself
    return h;
}

/// The depth-0 hash of a schedule's kernel list. The children of one parent mostly keep its
/// kernels (every tiling of a root Func does), so the last list hashed on this thread is kept:
/// comparing two lists costs a fraction of hashing one.
uint64_t idSequenceHash(const std::vector<std::pair<int, int>> &ids) {
    thread_local std::vector<std::pair<int, int>> lastIds;
    thread_local uint64_t lastHash = 0;
    thread_local bool any = false;
    if (any && ids == lastIds) return lastHash;
    Hasher h;
    for (const auto &[node, stage] : ids)
        h.add(cachedIdHash(node, stage));
    lastIds = ids;
    lastHash = h.value();
    any = true;
    return lastHash;
}

uint64_t kernelHash(const LoopNest &kernel, int depth) {
    uint64_t &cached = kernel.hashCache[size_t(depth)];
    if (cached == 0) {
        if (depth == 0) return cached = cachedIdHash(kernel.node, kernel.stage);
        Hasher h;
        h.add(uint64_t(kernel.node + 1));
        h.add(uint64_t(kernel.stage + 1));
        hashNode(kernel, depth, h);
        cached = h.value() | 1;
    }
    return cached;
}

} // namespace

uint64_t structuralHash(const Derivation &child, int depth) {
    depth = std::clamp(depth, 0, kMaxHashDepth);
    // At depth 0 a kernel is its (root Func, stage), so a child's kernels need not be built.
    if (depth == 0) return idSequenceHash(child.kernelIds());
    Hasher h;
    for (size_t k = 0; k < child.kernelIds().size(); ++k)
        h.add(kernelHash(child.kernel(k), depth));
    return h.value();
}

uint64_t structuralHash(const ScheduleState &state, int depth) {
    depth = std::clamp(depth, 0, kMaxHashDepth);
    Hasher h;
    for (const LoopNestPtr &kernel : state.kernels())
        h.add(kernelHash(*kernel, depth));
    return h.value();
}

namespace {

uint64_t withDecisions(int decisions, int depth, uint64_t structure) {
    Hasher h;
    h.add(uint64_t(decisions));
    if (depth >= 0) h.add(structure);
    return h.value();
}

} // namespace

uint64_t searchHash(const ScheduleState &state, int depth) {
    return withDecisions(state.decisions(), depth, depth >= 0 ? structuralHash(state, depth) : 0);
}

uint64_t searchHash(const Derivation &child, int depth) {
    return withDecisions(child.parent->decisions() + 1, depth,
                         depth >= 0 ? structuralHash(child, depth) : 0);
}

} // namespace beamscope
