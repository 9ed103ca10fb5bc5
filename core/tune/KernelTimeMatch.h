// KernelTimeMatch: which of CUPTI's CUDA kernels (Measurement::kernelTimes) is which of
// Beamscope's kernels, so a kernel's own measured time can stand beside its features. Halide
// names a stage's kernel after the stage it launches from: "_kernel_<func>[_N|__N]_s<stage>_...".
#pragma once

#include "cost/Featurizer.h"
#include "measure/KernelActivity.h"

#include <memory>
#include <string>
#include <vector>

namespace beamscope {

/// The stage a kernel is named after: its root Func's (user) name and stage index.
struct KernelRootStage {
    std::string func;
    int stage = 0;
    /// False for a kernel with no stage to compute (an undefined pure stage, such as iir_blur's
    /// `blur(x, y, c) = undef`): Halide launches no CUDA kernel for it.
    bool launches = true;
};

class ScheduleState;

/// The stage each of `state`'s kernels launches from (the last stage of its root Func among the
/// kernel's rows), in the order of `kernels` (the featurizer's, launch order).
std::vector<KernelRootStage>
kernelRootStages(const ScheduleState &state,
                 const std::vector<std::shared_ptr<const KernelFeatures>> &kernels);

/// True when Halide's CUDA kernel `cudaName` is the one launched from `root`. Halide numbers
/// lambdas per process, so "lambda_3" matches any lambda's number; a unique-name suffix
/// ("depth$1" as "depth__1" or "depth_1") is allowed.
bool cudaKernelIsOf(const std::string &cudaName, const KernelRootStage &root);

/// Each kernel's measured milliseconds, in the order of `roots`, when every launching root
/// matches exactly one of `times` and every time one launching root; else empty (the pairing is
/// unsure). A kernel that launches nothing gets 0 ms (no time to learn from).
std::vector<double> matchKernelTimes(const std::vector<KernelRootStage> &roots,
                                     const std::vector<KernelTime> &times);

} // namespace beamscope
