// IndexBounds: an index expression over the consumer's loops that is not affine but depends on
// no data, such as an upsampling's tap x / 2 - 1 + 2 * (x % 2), bounded over a box of loops by
// interval arithmetic, as Halide's bounds inference bounds it.
#pragma once

#include "dag/Affine.h"
#include "dag/Interval.h"

#include <Halide.h>

#include <cstdint>
#include <optional>
#include <vector>

namespace beamscope {

/// A loop-only integer expression of +, -, multiplication and floor division or remainder by
/// positive constants, kept as a postfix program.
struct IndexBounds {
    enum class Op : uint8_t { Constant, Loop, Add, Sub, Mul, Div, Mod };
    struct Step {
        Op op;
        int64_t value; ///< the constant, the loop's index, or the constant operand (Mul/Div/Mod)
        bool operator==(const Step &) const = default;
    };
    std::vector<Step> program;

    /// The range over a box of loops (same order as the consumer stage's loops). A remainder of
    /// a range wider than one point is its whole period [0, divisor - 1]: Halide's tiles start
    /// at symbolic positions, so their parity is unknown to its bounds inference too. With
    /// `loopPointsAreSymbolic`, so is a remainder of one point that a loop gives, as Halide
    /// bounds a loop of one iteration inside a block by its symbols (bgu's `c % 4` over a
    /// block's single channel spans all 4 rows in Halide); the search refuses such block-level
    /// placements (SearchSpace's unboundedBlockRegion) rather than pricing the region wrong.
    Interval over(const Box &loops, bool loopPointsAreSymbolic = false) const;
};

/// `e` as IndexBounds, or nullopt when it reads data, clamps (min/max, select) or uses anything
/// but loops, known constants and the operations above.
std::optional<IndexBounds> analyzeIndexBounds(const Halide::Expr &e, const LoopIndexOf &loopIndexOf,
                                              const ConstantOf &constantOf);

} // namespace beamscope
