// Every catalog app without a reference in AppCatalogTest against its independent plain C++
// reference (this folder): the app is built at a small size, fed deterministic inputs,
// realized on the CPU with a trivial schedule (every Func at root, IEEE float), and compared
// with the reference at a few hundred sampled output points: the corners of the output box
// (where the boundary conditions act) and pseudo-random points from a fixed seed.
#include "AppReference.h"

#include "pipeline/AppCatalog.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>

namespace beamscope::references {

/// Failure messages show the app, not the bytes of the parameter (found by argument lookup).
void PrintTo(const AppReference &reference, std::ostream *os) {
    *os << reference.app << (reference.variant.empty() ? "" : " " + reference.variant);
}

namespace {

const std::vector<AppReference> &appReferences() {
    static const std::vector<AppReference> references = {
        bilateralGridReference(),
        localLaplacianReference(),
        nlMeansReference(),
        lensBlurReference(),
        cameraPipeReference(),
        harrisReference(),
        histogramEqualizeReference(),
        maxFilterReference(1),
        maxFilterReference(3),
        interpolateReference(),
        convLayerReference(),
        iirBlurReference(),
        bguReference(),
        depthwiseSeparableConvReference(),
    };
    return references;
}

constexpr int kSamples = 300;

/// The sampled points of `buffer`: all 2^d corners, then pseudo-random points, kSamples in
/// all (every point when the buffer has fewer).
std::vector<std::vector<int>> samplePoints(const Halide::Buffer<> &buffer, Lcg &rng) {
    const int dims = buffer.dimensions();
    std::vector<std::vector<int>> points;
    if (buffer.number_of_elements() <= size_t(kSamples)) {
        buffer.for_each_element([&](const int *at) { points.emplace_back(at, at + dims); });
        return points;
    }
    for (int corner = 0; corner < (1 << dims); ++corner) {
        std::vector<int> at(dims);
        for (int d = 0; d < dims; ++d)
            at[d] = (corner >> d) & 1 ? buffer.dim(d).max() : buffer.dim(d).min();
        points.push_back(at);
    }
    while (points.size() < size_t(kSamples)) {
        std::vector<int> at(dims);
        for (int d = 0; d < dims; ++d)
            at[d] = buffer.dim(d).min() + int(rng.upTo(buffer.dim(d).extent() - 1));
        points.push_back(at);
    }
    return points;
}

double valueAt(const Halide::Buffer<> &buffer, const std::vector<int> &at) {
    const Halide::Type type = buffer.type();
    if (type == Halide::Float(32)) return buffer.as<float>()(at.data());
    if (type == Halide::UInt(8)) return buffer.as<uint8_t>()(at.data());
    if (type == Halide::UInt(16)) return buffer.as<uint16_t>()(at.data());
    ADD_FAILURE() << "no reader for output type " << type;
    return std::nan("");
}

std::string format(const std::vector<int> &at) {
    std::string text = "(";
    for (size_t d = 0; d < at.size(); ++d)
        text += (d ? ", " : "") + std::to_string(at[d]);
    return text + ")";
}

class AppMatchesReference : public ::testing::TestWithParam<AppReference> {};

TEST_P(AppMatchesReference, AtSampledPoints) {
    using Clock = std::chrono::steady_clock;
    const AppReference &reference = GetParam();
    const auto start = Clock::now();
    PipelineInstance instance = buildApp(reference.app, reference.params);
    uint64_t seed = 1469598103934665603ULL; // FNV-1a of the app's name: a seed per app
    for (const char ch : reference.app)
        seed = (seed ^ uint8_t(ch)) * 1099511628211ULL;
    Lcg rng(seed);
    std::vector<Halide::Buffer<>> inputs;
    for (size_t i = 0; i < instance.inputs.size(); ++i) {
        Halide::Buffer<> buffer = bufferForInput(instance.inputs[i]);
        if (reference.fill) {
            reference.fill(i, buffer, rng);
        } else {
            fillRandom(buffer, rng);
        }
        instance.inputs[i].set_buffer(buffer);
        inputs.push_back(buffer);
    }
    std::vector<Halide::Buffer<>> outputs = outputBuffers(instance.pipeline);
    ASSERT_EQ(outputs.size(), 1u) << "every catalog app has one output";
    ASSERT_EQ(realizeOnCpu(instance, outputs, /*strictFloat=*/true), "");
    const auto realized = Clock::now();

    const Evaluate expectedAt = reference.prepare(inputs);
    int compared = 0, mismatches = 0;
    double maxError = 0.0;
    std::ostringstream first;
    for (const std::vector<int> &at : samplePoints(outputs[0], rng)) {
        const double actual = valueAt(outputs[0], at);
        const double expected = expectedAt(at);
        const double error = std::fabs(actual - expected);
        ++compared;
        if (!(error <= reference.absTolerance + reference.relTolerance * std::fabs(expected))) {
            if (mismatches++ == 0)
                first << format(at) << ": app " << actual << ", reference " << expected;
            maxError = std::isnan(error) ? error : std::max(maxError, error);
        }
    }
    EXPECT_GE(compared, std::min<int>(kSamples, int(outputs[0].number_of_elements())));
    EXPECT_EQ(mismatches, 0) << mismatches << " of " << compared << " sampled values differ, max "
                             << "error " << maxError << "; first at " << first.str();
    const auto ms = [](Clock::duration d) {
        return (long long)std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
    };
    std::printf("  %s: realized in %lld ms, %d points checked in %lld ms\n", reference.app.c_str(),
                ms(realized - start), compared, ms(Clock::now() - realized));
}

INSTANTIATE_TEST_SUITE_P(CatalogReferences, AppMatchesReference,
                         ::testing::ValuesIn(appReferences()),
                         [](const ::testing::TestParamInfo<AppReference> &info) {
                             const AppReference &r = info.param;
                             return r.app + (r.variant.empty() ? "" : "_" + r.variant);
                         });

TEST(CatalogReferences, CoverEveryAppBesidesTheThreeInAppCatalogTest) {
    std::vector<std::string> covered = {"stencil_chain", "unsharp_mask", "matmul"};
    for (const AppReference &reference : appReferences())
        covered.push_back(reference.app);
    std::sort(covered.begin(), covered.end());
    covered.erase(std::unique(covered.begin(), covered.end()), covered.end());
    for (const AppDefinition &app : appCatalog()) {
        EXPECT_EQ(std::count(covered.begin(), covered.end(), app.name), 1) << app.name;
    }
    EXPECT_EQ(covered.size(), appCatalog().size());
}

} // namespace
} // namespace beamscope::references
