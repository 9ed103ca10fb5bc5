// Compiler: lowers a scheduled pipeline for CUDA (PTX from the module's
// `cuda_gpu_source_kernels` buffer, then `ptxas -v` for registers and spills per kernel) or
// for OpenCL, and the post-compile filter of paper section 6.1 over compiled candidates.
// Never compile a pipeline before a schedule is applied (an unscheduled pyramid takes
// exponential time to compile).
#pragma once

#include "measure/Measurement.h"
#include "pipeline/PipelineInstance.h"

#include <Halide.h>

#include <functional>
#include <string>
#include <vector>

namespace beamscope {

/// What compiling for CUDA produced.
struct PtxReport {
    std::string ptx;  ///< PTX text of every kernel
    std::string arch; ///< the --gpu-name ptxas was run with ("sm_75"); "" if not run
    std::string log;  ///< ptxas -v output
    std::vector<KernelResources> kernels; ///< parsed from the log (empty if ptxas did not run)
    double lowerMs = 0;                   ///< Halide lowering + PTX emission
    double ptxasMs = 0;

    bool ptxasRan() const { return !arch.empty(); }
    /// Max registers over kernels (-1 when ptxas did not run).
    int maxRegisters() const;
    /// Spill stores + loads over kernels, bytes (-1 when ptxas did not run).
    std::int64_t spillBytes() const;
};

/// ptxas to use: BEAMSCOPE_PTXAS (compile definition) when executable, else
/// /usr/local/cuda/bin/ptxas when executable, else "".
std::string ptxasPath();

/// The compute capability a ptxas register/spill report is made for: `requested` when >= 0 (0:
/// off), else the CUDA device's (`cudaDeviceCc`, 0 for another device) or else the GPU model's;
/// off, said once through `say`, when ptxas is not installed.
int resolvePtxCapability(int requested, int cudaDeviceCc, int gpuModelCc,
                         const std::function<void(const std::string &)> &say);

/// host-cuda-cuda_capability_NN for a device of capability `cc` (NN: see halideCudaCapability).
Halide::Target cudaTarget(int cc);

/// Parses `ptxas -v` output: one KernelResources per "Compiling entry function" block.
std::vector<KernelResources> parsePtxasLog(const std::string &log);

/// Lowers `scheduled` for cudaTarget(cc) and returns its PTX. Throws Error (Halide's message)
/// when it does not compile.
std::string compileToPtx(const PipelineInstance &scheduled, int cc, double *lowerMs = nullptr);

/// Runs `ptxas -v --gpu-name sm_<cc>` on `ptx`; when this ptxas no longer supports sm_<cc>
/// (CUDA 13 dropped sm_50..sm_72) it retries with the oldest one it supports (sm_75).
/// Throws Error when ptxas fails otherwise.
PtxReport runPtxas(const std::string &ptx, int cc, const std::string &ptxas = ptxasPath());

/// compileToPtx, then runPtxas when `ptxas` is not empty.
PtxReport compileForCuda(const PipelineInstance &scheduled, int cc,
                         const std::string &ptxas = ptxasPath());

/// Lowers `scheduled` for `target` (e.g. host-opencl) without running it; returns the
/// module's GPU source (OpenCL C for OpenCL), "" when it has none. Throws Error.
std::string compileForTarget(const PipelineInstance &scheduled, const Halide::Target &target,
                             double *lowerMs = nullptr);

/// The post-compile filter of paper section 6.1, over compiled (and possibly measured)
/// candidates: failed candidates are dropped, and so is every candidate that spills
/// registers; when every remaining candidate spills, only the best-predicted one among those
/// spilling at most 1.5x the least spilling one is kept. Unknown spills (no ptxas) count as
/// none. Returns indices into `candidates`, best predicted first (ties by index).
std::vector<size_t> postCompileFilter(const std::vector<Measurement> &candidates);

} // namespace beamscope
