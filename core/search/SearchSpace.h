// SearchSpace: the candidates of the two decisions for one Func (paper 4, 4.1-4.3) and the
// pruning rules of 4.6; every dropped candidate carries its PruneReason.
#pragma once

#include "schedule/GpuSpec.h"
#include "schedule/ScheduleState.h"
#include "search/ParallelTileFilter.h"

#include <string>
#include <vector>

namespace beamscope {

/// Why a candidate was dropped (paper 4.6).
enum class PruneReason : uint8_t {
    ExcessiveRecompute,
    IdleSms,
    PoorWarpLaneUtilization,
    SerialTooLargeToUnroll,
    ThreadAllocationDynamicOrTooLarge,
    TooManyThreads,
    TooMuchSharedMemory,
    Count
};
constexpr size_t kPruneReasons = static_cast<size_t>(PruneReason::Count);

/// "excessive_recompute", "idle_sms", ...
const char *pruneReasonName(PruneReason r);

/// The two decisions per Func.
enum class Phase : uint8_t { ComputeLocation, Tiling };
const char *phaseName(Phase p);

/// A surviving candidate: the decision on top of its parent (not yet a state) and a short
/// description of it.
struct Candidate {
    Derivation child;
    std::string label;
};

/// A dropped candidate; its derivation is kept for soft reasons (a possible fallback).
struct PrunedCandidate {
    std::string label;
    PruneReason reason;
    std::string detail;
    std::optional<Derivation> child;
};

/// The tilings of one root Func, which depend on the Func alone (not on the rest of the state):
/// computed once per Func and applied to every parent (SearchSpace::tilingMenu).
struct TilingMenu {
    struct Option {
        /// The root placement with this tiling, shared by the candidates of every parent.
        std::shared_ptr<const FuncPlacement> placement;
        std::string label;
        /// The Func's kernels (one per stage) with this tiling on a parent where nothing is
        /// computed inside the Func yet and its producers are unscheduled or at root: the same
        /// on every such parent, so built once (applyTilingMenu with shareKernels) and shared,
        /// with the hashes and memoized features that hang on them.
        mutable std::vector<LoopNestPtr> kernels;
    };
    std::vector<Option> kept;            ///< passed the checks and the parallelism filter
    std::vector<PrunedCandidate> pruned; ///< in enumeration order, then the filter's; no children
    /// Soft-pruned tilings (index into pruned), derived only when none passed the checks.
    std::vector<std::pair<size_t, std::vector<StageTiling>>> soft;
    bool anyPassed = false; ///< some tiling passed the checks (before the filter)
};

/// Reasons that describe wasted hardware rather than an impossible or absurd schedule; when a
/// Func has no other option, candidates dropped for these are used anyway.
bool isSoftPruneReason(PruneReason r);

/// Thresholds of the pruning rules; defaults follow the paper's intent, documented per field.
struct SearchSpaceOptions {
    double maxInlineRecompute = 16.0; ///< evaluations of an inlined Func per point it has
    double maxFusedRecompute = 4.0;   ///< points computed by a fused Func per point it has
    double minSmFraction = 0.5;       ///< fewest blocks, as a fraction of the SMs
    double minLaneUtilization = 0.75; ///< used lanes of the active warps of a block
    int64_t maxUnrolledSerial = 16;   ///< largest serial tile (pure loops) per thread: about
                                      ///< what can be unrolled (kMaxUnrolledPoints)
    int maxThreadDims = 3;            ///< GPU thread dimensions (x, y, z)
    bool rootOrInlineOnly = false;    ///< the freezing pre-pass: no fusion options
    /// Tilings of root Funcs are filtered by their block counts before they become states
    /// (4.3: at least 2x the SMs; ParallelTileFilter); off: every tiling within the limits.
    bool parallelismFilter = true;
    /// The authors' tiling space (4.1-4.2): serial sizes on every dimension and the thread
    /// dimensions chosen (any maxThreadDims of them); off (default): serial sizes on the thread
    /// dimensions only, threads on the innermost dimension of extent >= 16 and the next ones
    /// (or the smallest ones: threadDimensionSets).
    bool wideTilings = false;
    ParallelFilterOptions parallelFilter;
};

class SearchSpace {
public:
    SearchSpace(GpuSpec gpu, SearchSpaceOptions options);

    /// Decision 1: where to compute `node` (root, inline, block or thread level of a consumer).
    /// Block-level options are tiled right away (serial sizes).
    void locations(const ScheduleState &state, int node, std::vector<Candidate> &kept,
                   std::vector<PrunedCandidate> &pruned) const;

    /// Decision 2: tilings of a root Func (serial, then thread sizes; blocks from the rest).
    void tilings(const ScheduleState &state, int node, std::vector<Candidate> &kept,
                 std::vector<PrunedCandidate> &pruned) const;

    /// The same, in two halves: the menu of `node`'s tilings (the same for every state), and
    /// the derivations of its kept tilings on top of `state`.
    TilingMenu tilingMenu(const FunctionDAG &dag, int node) const;
    /// With `shareKernels`, the candidates get their Func's kernels from the menu where that
    /// is exact (TilingMenu::Option::kernels), building them once: for a search that hashes
    /// every candidate's kernels, not only the sampled ones'.
    void applyTilingMenu(const TilingMenu &menu, const ScheduleState &state, int node,
                         std::vector<Candidate> &kept, std::vector<PrunedCandidate> &pruned,
                         bool shareKernels = false) const;

    /// Serial sizes the paper enumerates for a loop of `extent` (1, 2, 4, 8, and 3, 5, 7
    /// when they make extent / size a multiple of the warp size); an extent of 3, 5 or 7 gets
    /// 1 and itself, as the authors' implementation enumerates it.
    std::vector<int64_t> serialSizes(int64_t extent) const;
    /// Thread sizes for one dimension: 16, 32, 64 innermost, powers of two up to 16 elsewhere,
    /// and the whole extent when it is under 64 (the tiling menu drops an outer dimension's
    /// size that computes more than 8/7 of its points).
    std::vector<int64_t> threadSizes(int64_t extent, bool innermost) const;

    const SearchSpaceOptions &options() const { return m_options; }
    SearchSpaceOptions &options() { return m_options; }
    const GpuSpec &gpu() const { return m_gpu; }

    /// Pruning checks on placing `node` as `placement` on top of `parent`; empty when it
    /// survives.
    std::optional<PrunedCandidate> check(const ScheduleState &parent, int node,
                                         const FuncPlacement &placement) const;
    /// The same check on a materialized child state.
    std::optional<PrunedCandidate> check(const ScheduleState &child, int node) const;

    /// The root-placement checks on a tiling, without building a state.
    std::optional<PrunedCandidate> checkRootTiling(const Node &node,
                                                   const std::vector<StageTiling> &tilings) const;

private:
    double inlineRecompute(const ScheduleState &state, int node) const;
    /// Checks `placement` of `node` and files the derivation as kept or pruned.
    void consider(const ScheduleState &parent, int node, FuncPlacement placement, std::string label,
                  std::vector<Candidate> &kept, std::vector<PrunedCandidate> &pruned) const;
    std::vector<int> fusionHosts(const ScheduleState &state, int node) const;
    /// The choices of a root tiling's thread dimensions (true: takes thread and serial sizes).
    std::vector<std::vector<bool>> threadDimensionSets(const Node &node, int innermost) const;
    void blockCandidates(const ScheduleState &state, int node, int host,
                         std::vector<Candidate> &kept, std::vector<PrunedCandidate> &pruned) const;

    GpuSpec m_gpu;
    SearchSpaceOptions m_options;
};

} // namespace beamscope
