// BufferLimits: Halide refuses, at run time, any buffer a pipeline allocates beyond 2^31 - 1
// bytes unless the target has the LargeBuffers feature (64-bit buffer indexing). Some catalog
// apps at their default sizes need more: nl_means materializes its 5-D patch difference `d`
// (2.3 GB at 1536x2560) when it is computed at root, as the CPU reference and the naive schedule
// do. A pipeline whose largest Func, computed at root over its estimated region, needs more
// than kLargeBufferThreshold bytes runs with LargeBuffers everywhere: the CPU reference, the
// naive schedule, every candidate and baseline on the device, the crash triage's host run and
// the AOT artifacts. The threshold is half Halide's limit, because a candidate's tiling rounds a
// region up to whole tiles (a 7-wide dimension split by 4 allocates 8) beyond the estimate.
#pragma once

#include "dag/FunctionDAG.h"
#include "pipeline/PipelineSource.h"

#include <Halide.h>

#include <cstdint>
#include <string>

namespace beamscope {

/// Half of Halide's 2^31 - 1 byte limit for targets without LargeBuffers.
inline constexpr int64_t kLargeBufferThreshold = int64_t(1) << 30;

/// The largest buffer, in bytes, that any node of `dag` (input, Func or output) occupies when
/// computed at root over its estimated region: the region's volume times its widest tuple
/// element (each element is a buffer of its own). `name` receives the node's name when given.
int64_t largestRootBuffer(const FunctionDAG &dag, std::string *name = nullptr);

/// True when largestRootBuffer(dag) exceeds kLargeBufferThreshold.
bool needsLargeBuffers(const FunctionDAG &dag);

/// `target` with LargeBuffers added when `dag` needs it (and `target` is 64-bit: Halide ignores
/// the feature elsewhere); otherwise `target` unchanged.
Halide::Target withBufferLimits(const Halide::Target &target, const FunctionDAG &dag);

/// The same for the pipeline `source` loads (built fresh and analyzed). Throws Error.
Halide::Target withBufferLimits(const Halide::Target &target, const PipelineSource &source);

} // namespace beamscope
