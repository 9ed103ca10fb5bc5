// LoopNest: one node of an immutable, structurally shared GPU loop tree. The root's children
// are kernels (one per stage of each compute_root Func); below a kernel come its block loops,
// the Funcs fused at block level (shared memory), the thread loops, the Funcs fused at thread
// level (registers) and the serial loops in which a stage's body runs.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <ostream>
#include <vector>

namespace beamscope {

class FunctionDAG;

/// The GPU level a loop node maps to.
enum class LoopLevel : uint8_t { Root, Block, Thread, Serial };

const char *loopLevelName(LoopLevel level);

/// Where a Func's storage lives.
enum class MemoryType : uint8_t { Global, Shared, Register, None };

const char *memoryTypeName(MemoryType type);

/// A Func inlined into a stage's body, with how many times the body evaluates it.
struct InlinedCall {
    int node = -1;
    int64_t calls = 0;
    bool operator==(const InlinedCall &) const = default;
};

struct LoopNest;
using LoopNestPtr = std::shared_ptr<const LoopNest>;

struct LoopNest {
    LoopLevel level = LoopLevel::Root;
    int node = -1;                  ///< Func whose stage these loops iterate (-1 at the root)
    int stage = -1;                 ///< stage index within that Func
    std::vector<int64_t> extents;   ///< iterations per stage loop (innermost first)
    std::vector<int> stored;        ///< Funcs allocated at this level
    std::vector<LoopNestPtr> children; ///< executed in order
    bool computesHere = false;      ///< the stage's body runs inside these loops
    bool unrolled = false;          ///< serial loops fully unrolled
    std::vector<InlinedCall> inlined; ///< Funcs inlined into the body (computesHere only)

    /// Structural hashes of this subtree per depth, filled on first use by the search thread
    /// (subtrees are shared between states, so each is hashed once). 0 means not computed.
    mutable std::array<uint64_t, 7> hashCache{};

    /// Product of extents.
    int64_t iterations() const;
    /// Prints the subtree as an indented loop nest ("for f.x in 12 @block").
    void print(std::ostream &os, const FunctionDAG &dag, int indent = 0) const;
};

} // namespace beamscope
