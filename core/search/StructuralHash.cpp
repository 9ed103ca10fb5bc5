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

void hashNode(const LoopNest &n, int depth, Hasher &h) {
    h.add(uint64_t(n.level) + 1);
    h.add(uint64_t(n.node + 1));
    h.add(uint64_t(n.stage + 1));
    const bool extents = (n.level == LoopLevel::Block && depth >= 3) ||
                         (n.level == LoopLevel::Thread && depth >= 4) ||
                         (n.level == LoopLevel::Serial && depth >= 5);
    if (extents) {
        for (int64_t e : n.extents) h.add(uint64_t(e));
    }
    // Thread-level Funcs (registers) count from depth 2; block-level ones from depth 1.
    const bool hideThreadLevel = n.level == LoopLevel::Thread && depth < 2;
    if (!hideThreadLevel) {
        for (int f : n.stored) h.add(uint64_t(f) + 0x1000);
    }
    for (const InlinedCall &c : n.inlined) h.add(uint64_t(c.node) + 0x2000);
    for (const LoopNestPtr &c : n.children) {
        if (hideThreadLevel && c->node != n.node) continue;
        hashNode(*c, depth, h);
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

uint64_t structuralHash(const ScheduleState &state, int depth) {
    depth = std::clamp(depth, 0, kMaxHashDepth);
    Hasher h;
    for (const LoopNestPtr &kernel : state.kernels()) h.add(kernelHash(*kernel, depth));
    return h.value();
}

} // namespace beamscope
