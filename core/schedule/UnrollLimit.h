// How many serial points a thread's loops may have and still be unrolled when a schedule is
// lowered (paper 4.7). A measurement records the limit it was lowered with, so that rows
// measured before the limit changed are featurized as they ran.
#pragma once

#include <cstdint>

namespace beamscope {

/// A thread's serial loops are unrolled when their pure points multiply to at most this. Paper
/// 4.7 says "less than 16"; Halide's Anderson2021 unrolls up to 16 (its total extent compared
/// with `<=` to a limit of 16), and on the H200 its 2x8 tiles of stencil_chain ran in 10-12 us
/// where the same tiles rolled, as Beamscope lowered them, ran in 25 us (docs/design-notes.md,
/// "Sixteen points unrolled").
constexpr std::int64_t kMaxUnrolledPoints = 16;

/// What Beamscope unrolled until then: fewer than 16 points. A measurement that does not say
/// which limit it was lowered with was lowered with this one.
constexpr std::int64_t kLegacyMaxUnrolledPoints = 15;

} // namespace beamscope
