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
// When the naive schedule matches the CPU but the candidate does not, the schedule may still be
// right: a GPU fuses other a*b+c into FMAs than the host does (Halide's PTX fuses even with
// strict_float), and an algorithm that turns floats into indices then rounds a few values
// differently (local_laplacian on an H100: 9 of 11.8 M values). The CPU reference computed with
// strict_float (no contraction) tells: if it differs from the CPU reference, the algorithm is
// contraction-sensitive and up to kFloatSensitiveBudget times as many differences are accepted,
// with a note (on the H100 case the two CPU references differ in 9 values, max error 44).
#pragma once

#include "measure/BenchData.h"
#include "measure/BenchJob.h"

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

/// Removes the reference cache `path` and the caches kept beside it (device naive,
/// strict_float); "" does nothing.
void removeReferenceCaches(const std::string &path);

/// The CPU reference computed with strict_float (no floating-point contraction or
/// reassociation), cached next to job.referenceCache like the reference. Throws Error.
std::vector<Halide::Buffer<>>
cpuContractionFreeReference(const BenchJob &job, const std::vector<Halide::Buffer<>> &inputs);

/// The naive schedule's outputs on the job's device, from the cache next to job.referenceCache
/// when it holds them, else from `run` (which runs it) and then stored there.
std::vector<Halide::Buffer<>>
deviceNaiveReference(const BenchJob &job,
                     const std::function<std::vector<Halide::Buffer<>>()> &run);

/// Compares `outputs` with the CPU reference `cpu` (names: outputNames); when they differ,
/// `deviceNaive` (deviceNaiveReference) is asked for the naive schedule's device outputs, and
/// when that matches the CPU, `contractionFree` (cpuContractionFreeReference; may be empty) for
/// the CPU reference without contraction; they decide as the file comment says. Every mismatch
/// reported names its count, the max error and the first coordinates.
OutputCheck
checkOutputs(const BenchJob &job, const std::vector<Halide::Buffer<>> &outputs,
             const std::vector<Halide::Buffer<>> &cpu, const std::vector<std::string> &names,
             const std::function<std::vector<Halide::Buffer<>>()> &deviceNaive,
             const std::function<std::vector<Halide::Buffer<>>()> &contractionFree = {});

} // namespace beamscope
