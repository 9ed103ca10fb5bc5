// ReferenceCheck: the correctness verdict of a candidate's outputs. The reference is the
// pipeline on the CPU with a simple schedule (computed once per pipeline, parameters, scalar
// inputs and input data, and cached for the other workers). Where a candidate differs from it,
// the naive schedule on the same device decides whether the schedule or the check is wrong: if
// the naive schedule differs from the CPU too, the algorithm is float-sensitive on this device
// (a float turned into an index or an integer rounds differently there), and the candidate is
// compared with the device's naive output instead; the CPU difference is reported in a note,
// never silently accepted. Even then another schedule may round a few float-sensitive values
// differently from the naive one: up to kFloatSensitiveBudget times as many values as the naive
// schedule differs from the CPU in are accepted, and reported in the note with their count,
// max error and first coordinates (a wrong schedule differs in whole tiles, far beyond it).
#pragma once

#include "bench/BenchData.h"
#include "bench/BenchJob.h"

#include <Halide.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace beamscope {

/// Identifies the reference outputs: same pipeline, parameters, scalar inputs and input data.
std::string referenceKey(const BenchJob &job);

/// The CPU reference outputs for `inputs`, from job.referenceCache when it holds them (else
/// computed and stored there). Throws Error.
std::vector<Halide::Buffer<>> cpuReference(const BenchJob &job,
                                           const std::vector<Halide::Buffer<>> &inputs);

/// The naive schedule's outputs on the job's device, from the cache next to job.referenceCache
/// when it holds them, else from `run` (which runs it) and then stored there.
std::vector<Halide::Buffer<>>
deviceNaiveReference(const BenchJob &job,
                     const std::function<std::vector<Halide::Buffer<>>()> &run);

/// Compares `outputs` with the CPU reference `cpu` (names: outputNames); when they differ,
/// `deviceNaive` (deviceNaiveReference) is asked for the naive schedule's device outputs and
/// decides as the file comment says. Every mismatch reported names its count, the max error and
/// the first coordinates.
OutputCheck checkOutputs(const BenchJob &job, const std::vector<Halide::Buffer<>> &outputs,
                         const std::vector<Halide::Buffer<>> &cpu,
                         const std::vector<std::string> &names,
                         const std::function<std::vector<Halide::Buffer<>>()> &deviceNaive);

} // namespace beamscope
