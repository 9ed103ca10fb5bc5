// lens_blur (Halide's apps/lens_blur): synthetic defocus from a stereo pair. The cost of
// disparity slice z at a pixel is the squared RGB mismatch between the left pixel and the
// better of the right pixels at x + 2z and x + 2z + 1 (repeat_edge); its confidence is the
// variance of the cost over the slices. A confidence-weighted push-pull pyramid (8 levels,
// [1 3 3 1]/8 down, each level clamped to its size W >> i, H >> i; [1/4 3/4] up, averaged
// with the level) smooths the cost; depth is the first slice of least smoothed cost. The bokeh
// radius is |depth - 13| / 2; each pixel accumulates, besides itself, the left image at
// pseudo-random offsets within the largest radius around it (a separable max filter), where
// the sample's bokeh covers the pixel or the sample lies in front, and the pixel's own bokeh
// reaches the sample; divided by the accumulated alpha (255 per sample). Our app replaces
// Halide's random_float by a fixed integer hash of (x, y, sample), reproduced here.
#include "AppReference.h"

#include <cmath>
#include <limits>

namespace beamscope::references {

namespace {

constexpr int kLevels = 8;
// The small size: disparity slices, aperture samples, largest bokeh radius.
constexpr int kSlices = 4, kSamples = 6, kMaxRadius = 2;

/// Our app's hash of integer coordinates to [0, 1) (LensBlur.cpp, hashToUnit).
float hashToUnit(int a, int b, int seed) {
    uint32_t h =
        uint32_t(a) * 0x9E3779B1u + uint32_t(b) * 0x85EBCA77u + uint32_t(seed) * 0xC2B2AE3Du;
    h = (h ^ (h >> 15)) * 0x2C1B3C6Du;
    h = h ^ (h >> 12);
    return float(h & 0xFFFFFF) / float(1 << 24);
}

} // namespace

AppReference lensBlurReference() {
    AppReference reference;
    reference.app = "lens_blur";
    reference.params = {{"width", 32},
                        {"height", 24},
                        {"slices", kSlices},
                        {"aperture_samples", kSamples},
                        {"max_blur_radius", kMaxRadius}};
    reference.absTolerance = 1e-3; // 8-bit colour scale
    reference.relTolerance = 1e-5;
    reference.prepare = [](const std::vector<Halide::Buffer<>> &inputs) -> Evaluate {
        const Halide::Buffer<uint8_t> left = inputs.at(0).as<uint8_t>();
        const Halide::Buffer<uint8_t> right = inputs.at(1).as<uint8_t>();
        const int width = left.width(), height = left.height();
        auto funcs = std::make_shared<std::vector<Lazy>>(2 * kLevels + 4);
        Lazy *push = &(*funcs)[0], *pull = &(*funcs)[kLevels];
        Lazy &cost = (*funcs)[2 * kLevels], &confidence = (*funcs)[2 * kLevels + 1];
        Lazy &depth = (*funcs)[2 * kLevels + 2], &bokeh = (*funcs)[2 * kLevels + 3];
        cost = Lazy([=](int x, int y, int z, int, int) {
            float sum = 0.0f;
            for (int c = 0; c < 3; ++c) {
                const int l = clampedAt(left, {x, y, c});
                const int d = std::min(std::abs(l - clampedAt(right, {x + 2 * z, y, c})),
                                       std::abs(l - clampedAt(right, {x + 2 * z + 1, y, c})));
                sum += float(d * d);
            }
            return sum;
        });
        const Lazy *costOf = &cost;
        confidence = Lazy([=](int x, int y, int, int, int) {
            float sum = 0.0f, sumSq = 0.0f;
            for (int z = 0; z < kSlices; ++z) {
                const float v = (*costOf)(x, y, z);
                sum += v;
                sumSq += v * v;
            }
            const float mean = sum / float(kSlices);
            return sumSq / float(kSlices) - mean * mean;
        });
        const Lazy *confidenceOf = &confidence;
        // Push level 0: (cost * confidence, confidence) in the fourth coordinate.
        push[0] = Lazy([=](int x, int y, int z, int c, int) {
            const float w = (*confidenceOf)(x, y);
            return c == 0 ? (*costOf)(x, y, z) * w : w;
        });
        for (int i = 1; i < kLevels; ++i) {
            const Lazy *finer = &push[i - 1];
            const int levelWidth = std::max(width >> i, 1), levelHeight = std::max(height >> i, 1);
            push[i] = Lazy([=](int x, int y, int z, int c, int) {
                x = std::clamp(x, 0, levelWidth - 1);
                y = std::clamp(y, 0, levelHeight - 1);
                const double w[4] = {1, 3, 3, 1};
                double sum = 0.0;
                for (int j = 0; j < 4; ++j) {
                    for (int k = 0; k < 4; ++k)
                        sum += w[k] * w[j] * (*finer)(2 * x - 1 + k, 2 * y - 1 + j, z, c);
                }
                return float(sum / 64.0);
            });
        }
        pull[kLevels - 1] = push[kLevels - 1];
        for (int i = kLevels - 2; i >= 0; --i) {
            const Lazy *coarser = &pull[i + 1], *own = &push[i];
            pull[i] = Lazy([=](int x, int y, int z, int c, int) {
                const int cx = floorDiv(x, 2), cy = floorDiv(y, 2);
                const int nx = cx + (floorMod(x, 2) ? 1 : -1), ny = cy + (floorMod(y, 2) ? 1 : -1);
                const double up = 0.5625 * (*coarser)(cx, cy, z, c) +
                                  0.1875 * ((*coarser)(nx, cy, z, c) + (*coarser)(cx, ny, z, c)) +
                                  0.0625 * (*coarser)(nx, ny, z, c);
                return float(0.5 * up + 0.5 * (*own)(x, y, z, c));
            });
        }
        const Lazy *pulled = &pull[0];
        depth = Lazy([=](int x, int y, int, int, int) {
            int best = 0;
            float least = std::numeric_limits<float>::max();
            for (int z = 0; z < kSlices; ++z) {
                const float filtered = (*pulled)(x, y, z, 0) / (*pulled)(x, y, z, 1);
                if (filtered < least) {
                    least = filtered;
                    best = z;
                }
            }
            return float(best);
        });
        const Lazy *depthOf = &depth;
        bokeh = Lazy([=](int x, int y, int, int, int) {
            return std::fabs((*depthOf)(x, y) - 13.0f) * 0.5f;
        });
        const Lazy *bokehOf = &bokeh;
        return [=](const std::vector<int> &at) -> double {
            const int x = at[0], y = at[1], c = at[2];
            float worst = 0.0f;
            for (int dy = -kMaxRadius; dy <= kMaxRadius; ++dy) {
                for (int dx = -kMaxRadius; dx <= kMaxRadius; ++dx)
                    worst = std::max(worst, (*bokehOf)(x + dx, y + dy));
            }
            const auto colour = [&](int px, int py, int k) {
                return k < 3 ? float(clampedAt(left, {px, py, k})) : 255.0f;
            };
            const float own = (*bokehOf)(x, y);
            double sum = colour(x, y, c), alpha = colour(x, y, 3);
            (void)funcs; // keeps the pyramids alive
            for (int s = 0; s < kSamples; ++s) {
                const auto offset = [&](int seed) {
                    const float u = (hashToUnit(x, y, seed) - 0.5f) * 2.0f * worst;
                    return std::clamp(int(u), -kMaxRadius, kMaxRadius);
                };
                const int su = offset(2 * s), sv = offset(2 * s + 1);
                const float r = float(su * su + sv * sv);
                const float theirs = (*bokehOf)(x + su, y + sv);
                const bool covers = r < theirs * theirs;
                const bool inFront = (*depthOf)(x + su, y + sv) < (*depthOf)(x, y);
                if ((covers || inFront) && r < own * own) {
                    sum += colour(x + su, y + sv, c);
                    alpha += colour(x + su, y + sv, 3);
                }
            }
            return sum / alpha;
        };
    };
    return reference;
}

} // namespace beamscope::references
