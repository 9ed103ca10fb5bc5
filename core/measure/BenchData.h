// BenchData: the buffers a benchmark run uses — deterministic random inputs shaped by the
// input estimates, outputs shaped by the output estimates — comparison of outputs against a
// reference, and a small file cache of reference outputs.
#pragma once

#include "measure/BufferCompare.h"
#include "pipeline/PipelineInstance.h"

#include <Halide.h>

#include <cstdint>
#include <string>
#include <vector>

namespace beamscope {

/// One buffer per input of `instance`, shaped by its estimates (min and extent of every
/// dimension), filled from a fixed-seed generator: floats in [0, 1), 8-bit integers over
/// their whole range, wider integers in [0, intMax], bools 0/1. Same seed, same values.
std::vector<Halide::Buffer<>> makeInputs(const PipelineInstance &instance, std::uint64_t seed,
                                         std::int64_t intMax);

/// Binds `inputs` (from makeInputs) to the input parameters of `instance`.
void bindInputs(const PipelineInstance &instance, const std::vector<Halide::Buffer<>> &inputs);

/// One buffer per output value (tuple elements included), over the output estimates.
std::vector<Halide::Buffer<>> makeOutputs(const PipelineInstance &instance);

/// The name of each buffer makeOutputs returns, as the generator's author wrote it: "blur", and
/// "stats[0]", "stats[1]" for the elements of a Tuple-valued output.
std::vector<std::string> outputNames(const PipelineInstance &instance);

/// The raw halide_buffer_t of each buffer, for BufferCompare (the buffers must outlive them).
std::vector<const halide_buffer_t *> rawBuffers(const std::vector<Halide::Buffer<>> &buffers);

/// Compares element by element; a float element passes when |a - e| <= atol + rtol |e|, an
/// integer one when |a - e| <= 1 + rtol |e| (float-to-integer rounding on another device).
/// Shapes must match (else Error). Every buffer is compared; `names` (from outputNames), when
/// given, name the outputs in firstMismatch.
Comparison compareOutputs(const std::vector<Halide::Buffer<>> &actual,
                          const std::vector<Halide::Buffer<>> &expected, double rtol, double atol,
                          const std::vector<std::string> &names = {});

/// Adds `delta` to the first element of `buffer` (used to simulate a wrong result).
void perturbFirstElement(Halide::Buffer<> &buffer, double delta);
/// Adds `delta` to every element of the first row (dimension 0) of `buffer` (a wrong tile).
void perturbFirstRow(Halide::Buffer<> &buffer, double delta);

/// Writes `buffers` (dense host buffers) to `path` atomically, tagged with `key`.
void saveBuffers(const std::string &path, const std::string &key,
                 const std::vector<Halide::Buffer<>> &buffers);
/// Reads buffers written by saveBuffers when the file exists and its key equals `key`.
bool loadBuffers(const std::string &path, const std::string &key,
                 std::vector<Halide::Buffer<>> &buffers);

} // namespace beamscope
