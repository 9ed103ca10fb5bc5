// StructuralHash: FNV-1a over a depth-limited walk of the kernels' loop trees.
#include "search/StructuralHash.h"

#include <algorithm>

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
    case LoopLevel::Block: return {1, 1, 2};
    case LoopLevel::Thread: return {2, 3, 4};
    default: return {2, 5, 6};
    }
}

void hashNode(const LoopNest &n, int depth, Hasher &h) {
    const LevelDepths at = depthsOf(n.level);
    h.add(uint64_t(n.level) + 1);
    h.add(uint64_t(n.node + 1));
    h.add(uint64_t(n.stage + 1));
    if (depth >= at.parallel) {
        for (int64_t e : n.extents) h.add(depth >= at.exact ? uint64_t(e) : uint64_t(e > 1));
    }
    for (const InlinedCall &c : n.inlined) h.add(uint64_t(c.node) + 0x2000);
    // A fused Func below this level is part of the structure from its level's depth on.
    for (int f : n.stored) {
        if (depth >= at.contents) h.add(uint64_t(f) + 0x1000);
    }
    for (const LoopNestPtr &c : n.children) {
        const bool ownLoops = c->node == n.node;
        if (ownLoops || depth >= at.contents) hashNode(*c, depth, h);
    }
    h.add(0xffff);
}

uint64_t kernelHash(const LoopNest &kernel, int depth) {
    uint64_t &cached = kernel.hashCache[size_t(depth)];
    if (cached == 0) {
        Hasher h;
        h.add(uint64_t(kernel.node + 1));
        h.add(uint64_t(kernel.stage + 1));
        if (depth >= 1) hashNode(kernel, depth, h);
        cached = h.value() | 1; // never 0, which marks "not computed"
    }
    return cached;
}

} // namespace

uint64_t structuralHash(const Derivation &child, int depth) {
    depth = std::clamp(depth, 0, kMaxHashDepth);
    Hasher h;
    for (size_t k = 0; k < child.kernelIds.size(); ++k) h.add(kernelHash(child.kernel(k), depth));
    return h.value();
}

uint64_t structuralHash(const ScheduleState &state, int depth) {
    depth = std::clamp(depth, 0, kMaxHashDepth);
    Hasher h;
    for (const LoopNestPtr &kernel : state.kernels()) h.add(kernelHash(*kernel, depth));
    return h.value();
}

} // namespace beamscope
