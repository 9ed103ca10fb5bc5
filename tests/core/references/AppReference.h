// An independent reference of one catalog app: the app and a small size, and a plain C++
// evaluation of what the app computes, written from the published algorithm (Halide's apps,
// the papers), not from our Halide code; ReferencesTest compares it with the app realized by a
// trivial schedule at a few hundred sampled output points. One file per app in this folder.
#pragma once

#include "ReferenceHarness.h"

#include <functional>
#include <string>
#include <vector>

namespace beamscope::references {

/// The reference's value of the app's (single) output at coordinates `at`.
using Evaluate = std::function<double(const std::vector<int> &at)>;

struct AppReference {
    std::string app;
    std::string variant; ///< tells two references of one app apart in test names, or empty
    AppParams params;    ///< a small size, on top of the app's defaults
    /// Prepares the reference for the app's inputs (filled, in the app's input order) and
    /// returns its evaluator.
    std::function<Evaluate(const std::vector<Halide::Buffer<>> &inputs)> prepare;
    /// A value passes when |actual - expected| <= absTolerance + relTolerance * |expected|.
    double absTolerance = 0.0;
    double relTolerance = 0.0;
    /// Fills input `index` (shaped by the estimates); fillRandom(buffer, rng) when empty.
    std::function<void(size_t index, Halide::Buffer<> &buffer, Lcg &rng)> fill;
};

/// Halide's integer division and modulo (rounding to negative infinity, for positive b).
inline int floorDiv(int a, int b) {
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}
inline int floorMod(int a, int b) {
    return a - floorDiv(a, b) * b;
}

AppReference bilateralGridReference();
AppReference localLaplacianReference();
AppReference nlMeansReference();
AppReference lensBlurReference();
AppReference cameraPipeReference();
AppReference harrisReference();
AppReference histogramEqualizeReference();
/// Radii 2^k - 1 (1, 3, 7, ...) once read beyond the window (MaxFilter.cpp).
AppReference maxFilterReference(int radius);
AppReference interpolateReference();
AppReference convLayerReference();
AppReference iirBlurReference();
AppReference bguReference();
AppReference depthwiseSeparableConvReference();

} // namespace beamscope::references
