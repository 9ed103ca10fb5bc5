// BufferCompare: element access, tolerance comparison and the correctness verdict over plain
// halide_buffer_t (HalideRuntime.h only, no libHalide), so that the worker (JIT) and
// beamscope-aot-runner (shipped artifacts, on nodes without Halide) judge outputs with the same
// code. The verdict: outputs are compared with the CPU reference; where they differ, the naive
// schedule's output on the same device decides whether the schedule or the check is wrong (see
// ReferenceCheck.h for the reasoning and the float-sensitive budget).
#pragma once

#include <HalideRuntime.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace beamscope {

/// Differences from the device's naive output a float-sensitive pipeline's candidate may have,
/// per value in which that naive output differs from the CPU reference (or, for a
/// contraction-sensitive one, per value in which the CPU reference without contraction does).
constexpr std::int64_t kFloatSensitiveBudget = 4;

/// The element of `b` at coordinates `pos` (not offsets from min), as a double.
double loadElement(const halide_buffer_t *b, const int *pos);
/// Stores `value` (converted to b's type) at coordinates `pos`.
void storeElement(halide_buffer_t *b, const int *pos, double value);

/// How far outputs are from the reference.
struct Comparison {
    double maxAbsError = 0; ///< max |actual - expected| (inf for NaN mismatches)
    double maxRelError = 0; ///< max |actual - expected| / max(|expected|, 1)
    std::int64_t elements = 0;
    std::int64_t mismatches = 0; ///< elements beyond tolerance
    std::string firstMismatch;   ///< "output 0 at (3, 4): 17 vs 12" ("output 'mask' at ..." named)
    bool ok() const { return mismatches == 0; }
};

/// Compares element by element (dimension 0 innermost); a float element passes when
/// |a - e| <= atol + rtol |e|, an integer one when |a - e| <= 1 + rtol |e|. Shapes and types
/// must match (else std::runtime_error). `names`, when given, name the outputs.
Comparison compareBuffers(const std::vector<const halide_buffer_t *> &actual,
                          const std::vector<const halide_buffer_t *> &expected, double rtol,
                          double atol, const std::vector<std::string> &names = {});

/// The verdict on one candidate's outputs.
struct OutputCheck {
    bool correct = false;
    double maxAbsError = 0;
    double maxRelError = 0;
    std::string failure; ///< "wrong output: N of M values beyond tolerance, ..."; "" if correct
    std::string note;    ///< set when the device's naive output was the reference, and why
};

/// Compares `outputs` with the CPU reference `cpu`; when they differ, `deviceNaive` is asked for
/// the naive schedule's outputs on the device (buffers the caller keeps alive; it may throw a
/// std::exception, which becomes a note) and decides as ReferenceCheck.h says. When the naive
/// output matches the CPU and `contractionFree` is given, it is asked for the CPU reference
/// computed without floating-point contraction (strict_float): where that differs from `cpu`,
/// the algorithm's outputs depend on how a*b+c is rounded, and up to kFloatSensitiveBudget
/// times as many differences are accepted, with a note.
OutputCheck
judgeOutputs(double rtol, double atol, const std::vector<const halide_buffer_t *> &outputs,
             const std::vector<const halide_buffer_t *> &cpu, const std::vector<std::string> &names,
             const std::function<std::vector<const halide_buffer_t *>()> &deviceNaive,
             const std::function<std::vector<const halide_buffer_t *>()> &contractionFree = {});

} // namespace beamscope
