// bgu, bilateral guided upsampling (Chen et al. 2016; Halide's apps/bgu): a low-resolution
// input/output pair (splat_loc, values) fits, per cell of a bilateral grid (s x s low-res
// pixels, 1/r_sigma + 1 = 9 luminance bins of luma (R + 2G + B)/4), an affine colour model
// out = M^T (r, g, b, 1): each pixel adds its outer products s s^T and s v^T to its cell and
// bin, the grid is blurred by [1 4 6 4 1] in z, x and y, and every cell solves
// (S + w I) M = V + w g P, with w = 1e-3 (count + 1), g the cell's output-to-input luminance
// ratio and P the pure-gain model (the regulariser of Halide's app). The full-resolution
// output applies to each guide pixel the models interpolated bilinearly in x, y (cell
// coordinate (x + 1/2) lowW / (W s)) and linearly in the guide's luminance bin. Here the 4x4
// systems are solved in double precision by Gaussian elimination with partial pivoting (the
// app: Gauss-Jordan in float without pivoting), hence the tolerance.
#include "AppReference.h"

#include <cmath>

namespace beamscope::references {

namespace {

/// Solves a x = b in place for a 4x4 `a` and a 4x3 right-hand side `b` (partial pivoting).
void solve(double a[4][4], double b[4][3]) {
    for (int col = 0; col < 4; ++col) {
        int pivot = col;
        for (int row = col + 1; row < 4; ++row)
            if (std::fabs(a[row][col]) > std::fabs(a[pivot][col])) pivot = row;
        std::swap(a[col], a[pivot]);
        std::swap(b[col], b[pivot]);
        for (int row = col + 1; row < 4; ++row) {
            const double f = a[row][col] / a[col][col];
            for (int k = col; k < 4; ++k)
                a[row][k] -= f * a[col][k];
            for (int k = 0; k < 3; ++k)
                b[row][k] -= f * b[col][k];
        }
    }
    for (int row = 3; row >= 0; --row) {
        for (int k = 0; k < 3; ++k) {
            double v = b[row][k];
            for (int j = row + 1; j < 4; ++j)
                v -= a[row][j] * b[j][k];
            b[row][k] = v / a[row][row];
        }
    }
}

} // namespace

AppReference bguReference() {
    AppReference reference;
    reference.app = "bgu";
    const int width = 64, height = 48, lowWidth = 16, lowHeight = 12, s = 4;
    reference.params = {{"width", width},
                        {"height", height},
                        {"low_width", lowWidth},
                        {"low_height", lowHeight},
                        {"s_sigma", s}};
    reference.absTolerance = 2e-3;
    reference.relTolerance = 1e-3;
    reference.prepare = [](const std::vector<Halide::Buffer<>> &inputs) -> Evaluate {
        const Halide::Buffer<float> splat = inputs.at(0).as<float>();
        const Halide::Buffer<float> values = inputs.at(1).as<float>();
        const Halide::Buffer<float> guide = inputs.at(2).as<float>();
        // Channel ch of cell (gx, gy, z): 0..15 S(a, b) = sum s_a s_b (a * 4 + b),
        // 16..27 V(a, o) = sum v_o s_a (16 + o * 4 + a).
        auto grid = std::make_shared<std::vector<Lazy>>(3);
        Lazy &histogram = (*grid)[0], &blurred = (*grid)[1], &model = (*grid)[2];
        histogram = Lazy([=](int gx, int gy, int z, int ch, int) {
            double sum = 0.0;
            for (int j = 0; j < s; ++j) {
                for (int i = 0; i < s; ++i) {
                    const int x = gx * s + i - s / 2, y = gy * s + j - s / 2;
                    const float in[4] = {clampedAt(splat, {x, y, 0}), clampedAt(splat, {x, y, 1}),
                                         clampedAt(splat, {x, y, 2}), 1.0f};
                    const float luma = 0.25f * in[0] + 0.5f * in[1] + 0.25f * in[2];
                    const int bin = int(std::nearbyint(std::clamp(luma, 0.0f, 1.0f) * 8.0f));
                    if (bin != z) continue;
                    if (ch < 16) {
                        sum += double(in[ch / 4]) * in[ch % 4];
                    } else {
                        const int o = (ch - 16) / 4, a = (ch - 16) % 4;
                        sum += double(clampedAt(values, {x, y, o})) * in[a];
                    }
                }
            }
            return float(sum);
        });
        const Lazy *histogramOf = &histogram;
        blurred = Lazy([=](int gx, int gy, int z, int ch, int) {
            const double w[5] = {1, 4, 6, 4, 1};
            double sum = 0.0;
            for (int k = 0; k < 5; ++k)
                for (int j = 0; j < 5; ++j)
                    for (int i = 0; i < 5; ++i)
                        sum += w[i] * w[j] * w[k] *
                               (*histogramOf)(gx + i - 2, gy + j - 2, z + k - 2, ch);
            return float(sum);
        });
        const Lazy *blurredOf = &blurred;
        // model(gx, gy, z, o * 4 + t): coefficient of term t (r, g, b, 1) for output o.
        model = Lazy([=](int gx, int gy, int z, int coefficient, int) {
            const auto at = [&](int ch) { return double((*blurredOf)(gx, gy, z, ch)); };
            double a[4][4], b[4][3];
            const double w = 1e-3 * (at(15) + 1.0); // at(15): S(3, 3) = sum 1 * 1, the count
            const double inLuma = at(3) + 2.0 * at(7) + at(11);
            const double outLuma = at(16 + 3) + 2.0 * at(16 + 4 + 3) + at(16 + 8 + 3);
            const double gain = (outLuma + 1e-4) / (inLuma + 1e-4);
            for (int r = 0; r < 4; ++r) {
                for (int c = 0; c < 4; ++c)
                    a[r][c] = at(r * 4 + c) + (r == c ? w : 0.0);
                for (int o = 0; o < 3; ++o)
                    b[r][o] = at(16 + o * 4 + r) + (r == o ? w * gain : 0.0);
            }
            solve(a, b);
            return float(b[coefficient % 4][coefficient / 4]);
        });
        const Lazy *modelOf = &model;
        return [=](const std::vector<int> &at) -> double {
            const int x = at[0], y = at[1], o = at[2];
            (void)grid; // keeps the grid alive
            const double cx = (x + 0.5) * double(lowWidth) / (double(width) * s);
            const double cy = (y + 0.5) * double(lowHeight) / (double(height) * s);
            const int x0 = int(std::floor(cx)), y0 = int(std::floor(cy));
            const double fx = cx - x0, fy = cy - y0;
            const float guideLuma =
                0.25f * guide(x, y, 0) + 0.5f * guide(x, y, 1) + 0.25f * guide(x, y, 2);
            const double zv = std::clamp(guideLuma, 0.0f, 1.0f) * 8.0;
            const int z0 = std::clamp(int(zv), 0, 7);
            const double fz = zv - z0;
            double result = 0.0;
            for (int t = 0; t < 4; ++t) {
                double coefficient = 0.0;
                for (int corner = 0; corner < 8; ++corner) {
                    const int i = corner & 1, j = (corner >> 1) & 1, k = corner >> 2;
                    const double weight = (i ? fx : 1 - fx) * (j ? fy : 1 - fy) * (k ? fz : 1 - fz);
                    coefficient += weight * (*modelOf)(x0 + i, y0 + j, z0 + k, o * 4 + t);
                }
                result += coefficient * (t < 3 ? double(guide(x, y, t)) : 1.0);
            }
            return result;
        };
    };
    return reference;
}

} // namespace beamscope::references
