// ScheduleState: a (partial) GPU schedule of a pipeline — where each Func is computed, how its
// stages are tiled, the region each realization covers — and the LoopNest tree it implies.
// States are immutable; a child state shares every kernel subtree its decision did not touch.
#pragma once

#include "dag/FunctionDAG.h"
#include "schedule/LoopNest.h"
#include "schedule/UnrollLimit.h"

#include <array>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace beamscope {

/// Where a Func is computed (paper section 4, decision 1).
enum class ComputeKind : uint8_t { Unscheduled, Inline, Root, Block, Thread };

const char *computeKindName(ComputeKind kind);

/// Why a Func cannot be computed inside a host's block or thread loop (ScheduleState::canFuse).
enum class FuseRefusal {
    None,
    NotAFusableFunc,         ///< a pipeline input or output, or the host itself
    UnsupportedLevel,        ///< neither Block nor Thread
    UpdatesReachOtherPoints, ///< an update reads or writes points it is not computed over
    HostNotRootTiled,        ///< the host is not a tiled root Func
    HostTileLongerThanLoop,  ///< a host tile covers more than its loop: tiles are guarded
    HostHasUpdates,          ///< the host's update tiles are guarded
    ReadByHostUpdate,        ///< the host reads it in an update, not its last stage
    ReadOutsideHost,         ///< another consumer outside the host's loop reads it
    NotReadInHost,           ///< nothing inside the host's loop reads it
};

/// The tiling of one stage: per stage loop (innermost first), threads per block and serial
/// iterations per thread; blocks cover the rest. RVar loops stay serial and whole.
struct StageTiling {
    std::vector<int64_t> blocks;
    std::vector<int64_t> threads;
    std::vector<int64_t> serial;
    auto operator<=>(const StageTiling &) const = default;
};

/// Points one thread computes per RVar iteration: the product of `stage`'s pure serial sizes.
int64_t pureSerialPoints(const Stage &stage, const StageTiling &tiling);

/// The extents of the GPU thread dimensions (x, y, z) the applier maps `stage`'s thread loops
/// to (core/codegen/ScheduleCalls.cpp), for a stage placed at the root or at its host's block
/// level: its pure loops in order, innermost first (at the block level, less those split off as
/// a serial loop of one thread), the fourth and outer ones fused into z; a stage without one runs
/// on a single thread. Halide launches a kernel's blocks with, per dimension, the largest extent
/// any of its stages maps there (FuseGPUThreadLoops), so a block of phases shaped 64x1 and 8x8
/// has 512 threads.
std::array<int64_t, 3> gpuThreadDims(const Stage &stage, const StageTiling &tiling,
                                     bool blockLevel);

/// Whether a stage of `node` at a thread level has its pure serial loops unrolled: when they
/// are few (at most `maxUnrolledPoints`, paper 4.7), and always when `node` has updates (its
/// accumulators live in registers, which need constant indices; the thread-level budget bounds
/// the tile).
bool threadLevelUnrolled(const Node &node, int64_t pureSerialPoints, int64_t maxUnrolledPoints);

/// Everything decided for one Func.
struct FuncPlacement {
    ComputeKind kind = ComputeKind::Unscheduled;
    int host = -1;                    ///< Func hosting a Block/Thread placement
    bool tiled = false;               ///< decision 2 taken (Root) or implied (others)
    std::vector<StageTiling> tilings; ///< per stage (empty for Inline)
    Box region;                       ///< region computed per realization
    int64_t realizations = 1;         ///< realizations per pipeline run
};

class ScheduleState;
using StatePtr = std::shared_ptr<const ScheduleState>;

/// A state's placements with one of them replaced (a decision not yet turned into a state).
struct PlacementView {
    const ScheduleState &base;
    int node = -1;
    const FuncPlacement *override = nullptr;
    const FuncPlacement &operator()(int n) const;
};

/// A child's kernels as (root Func, stage), and which of them are its parent's unchanged.
/// Shared by the children whose decisions touch the same kernels (every tiling of one root Func
/// on one parent), so a tiling menu of thousands of options builds it once per parent.
struct KernelMap {
    std::vector<std::pair<int, int>> ids; ///< (root Func, stage) per kernel of the child
    std::vector<int> parentKernel;        ///< index into the parent's kernels, or -1
};

/// One decision applied to a parent, before it becomes a state: the new placement and the
/// child's kernels (rebuilt ones built, the others taken from the parent). Cheap to build and
/// to hash, so the search only materializes the candidates it samples.
struct Derivation {
    StatePtr parent;
    int node = -1;
    std::shared_ptr<const FuncPlacement> placement;
    std::shared_ptr<const KernelMap> kernelMap;
    /// Rebuilt kernels (where kernelMap->parentKernel is -1), built on first use by kernel()
    /// and sized then: a hash at depth 0 needs only kernelIds(), so most candidates of a greedy
    /// step never build theirs. Only kernel() and applyTilingMenu (a menu's shared kernels)
    /// store here, on the thread that makes the step, before it is published; materialize()
    /// builds the missing ones without storing, so a published step is only read.
    mutable std::vector<LoopNestPtr> freshKernels;

    const std::vector<std::pair<int, int>> &kernelIds() const { return kernelMap->ids; }

    /// The child's k-th kernel (built now if it is a rebuilt one not built yet).
    const LoopNest &kernel(size_t k) const;
    /// The child state.
    StatePtr materialize() const;
    /// Builds the child's k-th kernel from the parent and the new placement.
    LoopNestPtr buildKernel(size_t k) const;
};

class ScheduleState : public std::enable_shared_from_this<ScheduleState> {
public:
    /// The empty schedule of `dag`: nothing placed yet. `maxUnrolledPoints`: the most pure
    /// serial points per thread its lowering unrolls (its children inherit it).
    static StatePtr initial(std::shared_ptr<const FunctionDAG> dag,
                            int64_t maxUnrolledPoints = kMaxUnrolledPoints);

    const FunctionDAG &dag() const { return *m_dag; }
    const std::shared_ptr<const FunctionDAG> &dagPtr() const { return m_dag; }
    const FuncPlacement &placement(int node) const { return *m_placements[size_t(node)]; }
    /// Kernels in launch order (producers first); shared with parent states when untouched.
    const std::vector<LoopNestPtr> &kernels() const { return m_kernels; }
    /// Number of decisions taken so far.
    int decisions() const { return m_decisions; }
    const ScheduleState *parent() const { return m_parent.get(); }
    /// Serial loops of at most this many pure points per thread are unrolled.
    int64_t maxUnrolledPoints() const { return m_maxUnrolledPoints; }
    /// Whether a tile of `pureSerialPoints` per thread is unrolled under this state's lowering.
    bool unrolls(int64_t pureSerialPoints) const { return pureSerialPoints <= m_maxUnrolledPoints; }

    /// True if every Func has a final placement (root Funcs tiled).
    bool complete() const;

    /// Placements for one decision, computed from this state (bounds, realizations). Throw
    /// Error when the decision is illegal; use the can* checks first.
    FuncPlacement inlinePlacement(int node) const;
    FuncPlacement rootPlacement(int node) const; ///< untiled: costed with a provisional tiling
    FuncPlacement rootTilingPlacement(int node, const std::vector<StageTiling> &tilings) const;
    /// The same, which depends on the DAG alone: a tiling menu builds each once for all parents.
    static FuncPlacement rootTilingPlacement(const FunctionDAG &dag, int node,
                                             std::vector<StageTiling> tilings);
    FuncPlacement blockPlacement(int node, int host, const std::vector<int64_t> &serial) const;
    FuncPlacement threadPlacement(int node, int host) const;
    /// This state plus `placement` for `node`, not yet materialized.
    Derivation derive(int node, FuncPlacement decision) const;
    Derivation derive(int node, std::shared_ptr<const FuncPlacement> decision) const;
    /// Another root tiling of the Func a root-tiling `sibling` of this state decided: the same
    /// kernels change, so the two share their KernelMap (derive() when they would not).
    Derivation deriveSibling(const Derivation &sibling,
                             std::shared_ptr<const FuncPlacement> decision) const;

    /// Children: the same schedule plus one decision (derive(...).materialize()).
    StatePtr withInline(int node) const;
    StatePtr withRoot(int node) const; ///< untiled: a provisional tiling costs it until tiled
    StatePtr withRootTiling(int node, const std::vector<StageTiling> &tilings) const;
    StatePtr withBlock(int node, int host, const std::vector<int64_t> &serial) const;
    StatePtr withThread(int node, int host) const;
    /// Replays `placement` (as decided in another state of the same DAG) onto this one.
    StatePtr withPlacement(int node, const FuncPlacement &placement) const;

    bool canInline(int node) const;
    /// Can `node` be fused into `host` at `level` (Block or Thread)?
    bool canFuse(int node, int host, LoopLevel level) const {
        return fuseRefusal(node, host, level) == FuseRefusal::None;
    }
    /// The first rule that keeps `node` out of `host`'s `level` loop (None: it can be fused).
    FuseRefusal fuseRefusal(int node, int host, LoopLevel level) const;
    /// That rule in one line, with the Funcs, loops and sizes it concerns (Why not?).
    std::string describeFuseRefusal(int node, int host, LoopLevel level) const;

    /// The region of `node` needed within one iteration of `host`'s `level` loop, from its
    /// consumers as currently placed.
    Box regionWithin(int node, int host, LoopLevel level) const;
    /// The loops of `consumer`'s `stage` within one iteration of `host`'s `level` loop (one
    /// interval per loop of the stage); empty when the consumer is not inside the host.
    Box loopBoxWithin(int consumer, int stage, int host, LoopLevel level) const;
    /// The edges through which `node` is read within one iteration of `host`'s `level` loop:
    /// its edges to the host and to Funcs inside that loop, and theirs, transitively.
    std::vector<int> edgesWithin(int node, int host, LoopLevel level) const;

    /// Memory type of `node`'s storage as placed (None when inlined).
    MemoryType memoryOf(int node) const;
    /// The kernel (root Func, stage) whose loops contain `node`; {-1,-1} when not placed.
    std::pair<int, int> kernelOf(int node) const;

    /// The whole tree as text, one line per loop.
    void printLoopNest(std::ostream &os) const;
    /// One line per Func: decision, host, tiles.
    void dump(std::ostream &os) const;

    /// A tiling that a root Func uses until decision 2 is taken (32 threads on the innermost
    /// loop of size >= 16, up to 8 on the next, serial 1).
    static std::vector<StageTiling> provisionalTiling(const FunctionDAG &dag, int node);
    /// Blocks for threads/serial over a stage's full extents. Loops past the end of `threads` or
    /// `serial` get 1; entries past the stage's loops are dropped.
    static StageTiling makeTiling(const Stage &stage, std::vector<int64_t> threads,
                                  std::vector<int64_t> serial);

private:
    ScheduleState() = default;
    friend struct Derivation;
    bool insideHost(int node, int host, LoopLevel level) const;

    std::shared_ptr<const FunctionDAG> m_dag;
    std::vector<std::shared_ptr<const FuncPlacement>> m_placements; ///< shared with parents
    std::vector<LoopNestPtr> m_kernels;
    std::vector<std::pair<int, int>> m_kernelIds; ///< (root Func, stage) per kernel
    int m_decisions = 0;
    int64_t m_maxUnrolledPoints = kMaxUnrolledPoints;
    StatePtr m_parent;
};

} // namespace beamscope
