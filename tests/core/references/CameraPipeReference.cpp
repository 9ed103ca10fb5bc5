// camera_pipe (Halide's apps/camera_pipe, the Frankencamera pipeline): a 10-bit GRBG Bayer raw
// image to 8-bit RGB. Hot pixels are clamped to the max of their four same-colour neighbours
// (two pixels away); the demosaic is the edge-directed one of Halide's app (green where the
// gradient is smaller, red/blue at green sites corrected by green's difference, red at blue
// and blue at red along the diagonal of smaller change), with rounding 16-bit averages; the
// colour matrix is interpolated between 3200 K and 7000 K for 3700 K in Q8.8 fixed point
// (Halide's integer division rounds down); a gamma 2, contrast 50 curve maps [25, 1023] to
// 8 bits; a [1 2 1]^2 / 16 unsharp mask of strength 1 sharpens. The output is cropped by
// (16, 12) in the raw frame.
#include "AppReference.h"

#include <cmath>

namespace beamscope::references {

namespace {

int avg(int a, int b) {
    return (a + b + 1) >> 1;
}

/// The tone curve: black level 25, white level 1023, gamma 2, contrast 50, to [0, 255].
int curve(int v) {
    if (v <= 25) return 0;
    if (v > 1023) return 255;
    const float b = 2.0f - std::pow(2.0f, 50.0f / 100.0f), a = 2.0f - 2.0f * b;
    const float xf = std::clamp(float(v - 25) * (1.0f / (1023 - 25)), 0.0f, 1.0f);
    const float g = std::pow(xf, 1.0f / 2.0f);
    const float z =
        g > 0.5f ? 1.0f - (a * (1.0f - g) * (1.0f - g) + b * (1.0f - g)) : a * g * g + b * g;
    return int(uint8_t(std::clamp(z * 255.0f + 0.5f, 0.0f, 255.0f)));
}

} // namespace

AppReference cameraPipeReference() {
    AppReference reference;
    reference.app = "camera_pipe";
    reference.params = {{"width", 64}, {"height", 48}};
    reference.fill = [](size_t index, Halide::Buffer<> &buffer, Lcg &rng) {
        if (index == 0) { // the raw image: 10-bit
            buffer.as<uint16_t>().for_each_value(
                [&](uint16_t &v) { v = static_cast<uint16_t>(rng.upTo(1023)); });
            return;
        }
        // Colour matrices (4 columns: R, G, B weights and an offset; 3 rows): near identity.
        Halide::Buffer<float> m = buffer.as<float>();
        m.for_each_element([&](int x, int y) {
            const double jitter = rng.next() - 0.5;
            m(x, y) = float(x == 3 ? 40.0 * jitter : (x == y ? 1.2 : -0.1) + 0.4 * jitter);
        });
    };
    reference.prepare = [](const std::vector<Halide::Buffer<>> &inputs) -> Evaluate {
        const Halide::Buffer<uint16_t> raw = inputs.at(0).as<uint16_t>();
        const Halide::Buffer<float> m3200 = inputs.at(1).as<float>();
        const Halide::Buffer<float> m7000 = inputs.at(2).as<float>();
        // The raw pixel at output coordinates, after hot-pixel suppression.
        const auto sensor = [raw](int x, int y) { return int(raw(x + 16, y + 12)); };
        const auto denoised = [sensor](int x, int y) {
            const int around =
                std::max({sensor(x - 2, y), sensor(x + 2, y), sensor(x, y - 2), sensor(x, y + 2)});
            return std::clamp(sensor(x, y), 0, around);
        };
        // Plane p of the 2x2 Bayer cell at (cx, cy): 0 G (red row), 1 R, 2 B, 3 G (blue row).
        const auto plane = [denoised](int p, int cx, int cy) {
            return denoised(2 * cx + (p & 1), 2 * cy + (p >> 1));
        };
        const auto gr = [plane](int x, int y) { return plane(0, x, y); };
        const auto r = [plane](int x, int y) { return plane(1, x, y); };
        const auto b = [plane](int x, int y) { return plane(2, x, y); };
        const auto gb = [plane](int x, int y) { return plane(3, x, y); };
        // Green at the red site: horizontal neighbours are G(red row), vertical G(blue row).
        const auto gAtR = [=](int x, int y) {
            const int h = avg(gr(x, y), gr(x + 1, y)), v = avg(gb(x, y - 1), gb(x, y));
            return std::abs(gr(x + 1, y) - gr(x, y)) < std::abs(gb(x, y - 1) - gb(x, y)) ? h : v;
        };
        const auto gAtB = [=](int x, int y) {
            const int h = avg(gb(x - 1, y), gb(x, y)), v = avg(gr(x, y), gr(x, y + 1));
            return std::abs(gb(x - 1, y) - gb(x, y)) < std::abs(gr(x, y + 1) - gr(x, y)) ? h : v;
        };
        // Colour difference transfer: c at a site = green there + mean (c - green) nearby.
        const auto transfer = [](int green, int g1, int g2, int c1, int c2) {
            return green - avg(g1, g2) + avg(c1, c2);
        };
        // Full-resolution channel k at (x, y): which site of the Bayer cell decides the formula.
        const auto demosaic = [=](int k, int x, int y) -> int {
            const int cx = floorDiv(x, 2), cy = floorDiv(y, 2);
            const int site = (x & 1) + 2 * (y & 1); // 0 G(red row), 1 R, 2 B, 3 G(blue row)
            if (k == 1) {
                const int greens[4] = {gr(cx, cy), gAtR(cx, cy), gAtB(cx, cy), gb(cx, cy)};
                return greens[site];
            }
            const bool red = k == 0;
            switch (site) {
            case 0: // green in a red row: red left/right, blue above/below
                return red ? transfer(gr(cx, cy), gAtR(cx, cy), gAtR(cx - 1, cy), r(cx - 1, cy),
                                      r(cx, cy))
                           : transfer(gr(cx, cy), gAtB(cx, cy), gAtB(cx, cy - 1), b(cx, cy),
                                      b(cx, cy - 1));
            case 3: // green in a blue row: red above/below, blue left/right
                return red ? transfer(gb(cx, cy), gAtR(cx, cy), gAtR(cx, cy + 1), r(cx, cy),
                                      r(cx, cy + 1))
                           : transfer(gb(cx, cy), gAtB(cx, cy), gAtB(cx + 1, cy), b(cx, cy),
                                      b(cx + 1, cy));
            case 1: { // the red site: blue from the diagonal of smaller change
                if (red) return r(cx, cy);
                const int dPos = std::abs(b(cx, cy) - b(cx + 1, cy - 1));
                const int dNeg = std::abs(b(cx + 1, cy) - b(cx, cy - 1));
                return dPos < dNeg ? transfer(gAtR(cx, cy), gAtB(cx, cy), gAtB(cx + 1, cy - 1),
                                              b(cx, cy), b(cx + 1, cy - 1))
                                   : transfer(gAtR(cx, cy), gAtB(cx + 1, cy), gAtB(cx, cy - 1),
                                              b(cx + 1, cy), b(cx, cy - 1));
            }
            default: { // the blue site: red likewise
                if (!red) return b(cx, cy);
                const int dPos = std::abs(r(cx, cy) - r(cx - 1, cy + 1));
                const int dNeg = std::abs(r(cx - 1, cy) - r(cx, cy + 1));
                return dPos < dNeg ? transfer(gAtB(cx, cy), gAtR(cx, cy), gAtR(cx - 1, cy + 1),
                                              r(cx, cy), r(cx - 1, cy + 1))
                                   : transfer(gAtB(cx, cy), gAtR(cx - 1, cy), gAtR(cx, cy + 1),
                                              r(cx - 1, cy), r(cx, cy + 1));
            }
            }
        };
        // The Q8.8 colour matrix for 3700 K.
        const float kelvin = (1.0f / 3700.0f - 1.0f / 3200) / (1.0f / 7000 - 1.0f / 3200);
        int matrix[3][4];
        for (int row = 0; row < 3; ++row) {
            for (int col = 0; col < 4; ++col) {
                matrix[row][col] =
                    int16_t((m3200(col, row) * kelvin + m7000(col, row) * (1 - kelvin)) * 256.0f);
            }
        }
        auto curved = std::make_shared<LazyOf<int>>([=](int x, int y, int k, int, int) {
            const int rgb[3] = {demosaic(0, x, y), demosaic(1, x, y), demosaic(2, x, y)};
            int sum = matrix[k][3];
            for (int i = 0; i < 3; ++i)
                sum += matrix[k][i] * rgb[i];
            return curve(std::clamp(int(int16_t(floorDiv(sum, 256))), 0, 1023));
        });
        return [curved](const std::vector<int> &at) -> double {
            const int x = at[0], y = at[1], k = at[2];
            const auto blurY = [&](int bx) {
                return ((*curved)(bx, y - 1, k) + 2 * (*curved)(bx, y, k) +
                        (*curved)(bx, y + 1, k)) /
                       4;
            };
            const int blurred = (blurY(x - 1) + 2 * blurY(x) + blurY(x + 1)) / 4;
            const int centre = (*curved)(x, y, k);
            return std::clamp(centre + (centre - blurred), 0, 255);
        };
    };
    return reference;
}

} // namespace beamscope::references
