// AffineForm: an index expression as floor((sum_i coeff_i * loop_i + constant) / denominator),
// the "load Jacobian" row of one argument of a call site, and its analysis from a Halide Expr.
#pragma once

#include "dag/Interval.h"

#include <Halide.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace beamscope {

/// floor((sum coeffs[i] * loop[i] + constant) / denominator), denominator > 0, optionally
/// clamped to [clampMin, clampMax] (boundary conditions clamp their index).
struct AffineForm {
    std::vector<int64_t> coeffs; ///< one per loop variable of the consumer stage
    int64_t constant = 0;
    int64_t denominator = 1;
    std::optional<int64_t> clampMin, clampMax;

    /// The range of values over a box of loop variables (same order as coeffs).
    Interval over(const Box &loops) const;
    /// Coefficient of loop i as a rational value.
    double coefficient(size_t i) const { return double(coeffs[i]) / double(denominator); }
    /// True if the form is exactly loop `i` (coefficient 1, no offset).
    bool isIdentity(size_t i) const;
    /// True if no loop variable appears.
    bool isConstant() const;
    bool isClamped() const { return clampMin.has_value() || clampMax.has_value(); }
};

/// Resolves a free Variable (a loop variable of the consumer stage) to its index, or -1.
using LoopIndexOf = std::function<int(const std::string &)>;

/// Resolves a symbolic non-loop variable (buffer extents, params) to a constant, if known.
using ConstantOf = std::function<std::optional<int64_t>(const std::string &)>;

/// Expresses `e` as an AffineForm over `loopCount` loops, or nullopt when it is not affine
/// (data-dependent, min/max, unknown variables, non-constant multiplications).
std::optional<AffineForm> analyzeAffine(const Halide::Expr &e, size_t loopCount,
                                        const LoopIndexOf &loopIndexOf,
                                        const ConstantOf &constantOf);

/// Constant value of `e` after substituting known symbols, or nullopt.
std::optional<int64_t> evaluateConstant(const Halide::Expr &e, const ConstantOf &constantOf);

} // namespace beamscope
