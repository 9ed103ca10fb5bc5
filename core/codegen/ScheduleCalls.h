// ScheduleCalls: the one description of the Halide scheduling calls that a complete
// ScheduleState implies. ScheduleApplier executes these records on Halide Funcs and
// ScheduleSource prints them as C++, so the two cannot drift apart.
#pragma once

#include "schedule/GpuSpec.h"
#include "schedule/ScheduleState.h"

#include <Halide.h>

#include <cstdint>
#include <string>
#include <vector>

namespace beamscope {

/// The CallVar name of Halide's Var::outermost().
inline constexpr const char *kOutermostVar = "__outermost";

/// A loop variable named by a call: a pure Var (or one made by a split or fuse) or an RVar.
struct CallVar {
    std::string name;
    bool rvar = false;
    bool operator==(const CallVar &) const = default;
};

/// The Halide scheduling directives the applier uses.
enum class CallKind : uint8_t {
    ComputeInline, ///< Func::compute_inline()
    ComputeRoot,   ///< Func::compute_root()
    ComputeAt,     ///< Func::compute_at(host, var): var names a loop of the host's last stage
    StoreIn,       ///< Func::store_in(memory)
    Split,         ///< Stage::split(old, outer, inner, factor, tail)
    Fuse,          ///< Stage::fuse(inner, outer, fused)
    Reorder,       ///< Stage::reorder(vars), innermost first
    GpuBlocks,     ///< Stage::gpu_blocks(vars), innermost first, at most 3
    GpuThreads,    ///< Stage::gpu_threads(vars), innermost first, at most 3
    Unroll,        ///< Stage::unroll(var)
    StageIn,       ///< Func::in(host): the calls after it schedule the wrapper through which
                   ///< host reads this Func (paper 4.7 staging), up to the next StageIn
    BoundExtent,   ///< Func::bound_extent(var, factor)
};

/// One scheduling call on one Func (Func-level kinds) or on one of its stages.
struct ScheduleCall {
    CallKind kind = CallKind::ComputeRoot;
    int stage = 0;             ///< stage of stage-level calls: 0 pure, k = update(k - 1)
    std::vector<CallVar> vars; ///< Split: old, outer, inner; Fuse: inner, outer, fused;
                               ///< Reorder, Gpu*: innermost first; Unroll: the loop;
                               ///< ComputeAt: the host's loop; BoundExtent: the dimension
    int64_t factor = 0;        ///< Split; BoundExtent: the extent
    bool shiftInwards = false; ///< Split: TailStrategy::ShiftInwards instead of GuardWithIf
    int host = -1;             ///< ComputeAt, StageIn: the host Func (node index)
    MemoryType memory = MemoryType::Global; ///< StoreIn: Shared or Register
};

/// Switches and limits of the lowering optimizations (paper 4.7).
struct ScheduleCallOptions {
    /// Stage producers at the thread level of their consumers in registers (rule in
    /// ProducerStaging.cpp). Off: consumers load producers from where they are stored.
    bool stageProducers = true;
    /// Register bytes per thread that staged copies and thread-level Funcs may take together:
    /// SearchSpace's budget for a thread-level Func, GpuSpec::registersPerThreadMax bytes.
    int64_t registerBytesPerThread = 255;
    /// The defaults with `gpu`'s register budget.
    static ScheduleCallOptions forGpu(const GpuSpec &gpu) {
        ScheduleCallOptions options;
        options.registerBytesPerThread = gpu.registersPerThreadMax;
        return options;
    }
};

/// Every call for one Func, in order, and a one-line summary of its decision.
struct FuncCalls {
    int node = -1;
    std::string decision; ///< e.g. "block level of output, shared memory, serial 2x2"
    std::vector<ScheduleCall> calls;
};

/// Tail strategy of a split (see the .cpp): ShiftInwards for the tile split of a pure stage at
/// least one tile long, which keeps every tile the same size (constant register and shared
/// allocations for the Funcs fused into it); GuardWithIf everywhere else.
inline Halide::TailStrategy tailStrategy(const ScheduleCall &c) {
    return c.shiftInwards ? Halide::TailStrategy::ShiftInwards : Halide::TailStrategy::GuardWithIf;
}

/// One Func's decision in words ("root: blocks 4x8, threads 32x8, serial 1x2", "inline", ...),
/// as FuncCalls::decision starts (without the staging it adds).
std::string describePlacement(const FunctionDAG &dag, int node, const FuncPlacement &placement);

/// The calls for every Func of `state`, outputs first. Throws Error if `state` is incomplete.
std::vector<FuncCalls> scheduleCalls(const ScheduleState &state,
                                     const ScheduleCallOptions &options = {});

} // namespace beamscope
