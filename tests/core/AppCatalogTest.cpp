// AppCatalog: the 16 apps of the paper in order, parameter validation, fresh builds, estimates,
// a small CPU realization of every app, and plain C++ references for three of them (the other
// 13 are in references/, ReferencesTest).
#include "pipeline/AppCatalog.h"

#include "pipeline/Estimates.h"
#include "references/ReferenceHarness.h"
#include "util/Error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace beamscope {
namespace {

const std::vector<std::string> kPaperApps = {
    "bilateral_grid", "local_laplacian", "nl_means",    "lens_blur",
    "camera_pipe",    "stencil_chain",   "harris",      "histogram_equalize",
    "max_filter",     "unsharp_mask",    "interpolate", "conv_layer",
    "matmul",         "iir_blur",        "bgu",         "depthwise_separable_conv",
};

/// A small instance of one app: sizes shrunk so that JIT compilation, not compute, dominates.
struct SmallCase {
    std::string app;
    AppParams overrides;
    int64_t uint16Max = 65535; ///< upper bound of random uint16 inputs (raw sensors are 10-bit)
};

const std::vector<SmallCase> &smallCases() {
    static const std::vector<SmallCase> cases = {
        {"bilateral_grid", {{"width", 64}, {"height", 48}, {"s_sigma", 8}}},
        {"local_laplacian",
         {{"width", 64}, {"height", 48}, {"levels", 3}, {"intensity_levels", 4}}},
        {"nl_means", {{"width", 32}, {"height", 24}, {"patch_size", 3}, {"search_area", 3}}},
        {"lens_blur",
         {{"width", 32},
          {"height", 24},
          {"slices", 4},
          {"aperture_samples", 4},
          {"max_blur_radius", 2}}},
        {"camera_pipe", {{"width", 64}, {"height", 48}}, 1023},
        {"stencil_chain", {{"length", 3}, {"width", 40}, {"height", 30}}},
        {"harris", {{"width", 32}, {"height", 24}}},
        {"histogram_equalize", {{"width", 32}, {"height", 24}}},
        {"max_filter", {{"width", 32}, {"height", 24}, {"radius", 3}}},
        {"unsharp_mask", {{"width", 32}, {"height", 24}, {"radius", 2}}},
        {"interpolate", {{"width", 64}, {"height", 48}, {"levels", 3}}},
        {"conv_layer",
         {{"batch", 1}, {"in_channels", 4}, {"out_channels", 4}, {"width", 8}, {"height", 6}}},
        {"matmul", {{"m", 8}, {"n", 12}, {"k", 10}}},
        {"iir_blur", {{"width", 32}, {"height", 24}, {"channels", 2}}},
        {"bgu",
         {{"width", 64}, {"height", 48}, {"low_width", 16}, {"low_height", 12}, {"s_sigma", 4}}},
        {"depthwise_separable_conv",
         {{"batch", 1}, {"in_channels", 4}, {"out_channels", 3}, {"width", 8}, {"height", 6}}},
    };
    return cases;
}

// Deterministic inputs, output buffers from the estimates and the trivial CPU realization are
// shared with the catalog references (references/ReferenceHarness.h).
using references::bufferForInput;
using references::fillRandom;
using references::Lcg;
using references::outputBuffers;

/// Schedules `instance` trivially (every Func at root) and realizes it into `outputs` for the
/// host, with IEEE float semantics when `strictFloat` (Halide otherwise reassociates and
/// contracts float arithmetic). Halide errors become test failures.
void realizeOnCpu(PipelineInstance &instance, std::vector<Halide::Buffer<>> &outputs,
                  bool strictFloat = false) {
    const std::string error = references::realizeOnCpu(instance, outputs, strictFloat);
    if (!error.empty()) FAIL() << error;
}

/// Mixed tolerance: relative 1e-4 for magnitudes above 1, absolute 1e-4 below (where
/// cancellation, e.g. 2 gray - blur, makes relative error meaningless).
bool closeEnough(float actual, float expected) {
    return std::fabs(actual - expected) <= 1e-4f * std::max(1.0f, std::fabs(expected));
}

// ---------------------------------------------------------------------------------------------
// The catalog itself.

TEST(AppCatalog, HasThePaperAppsInOrder) {
    std::vector<std::string> names;
    for (const AppDefinition &app : appCatalog())
        names.push_back(app.name);
    EXPECT_EQ(names, kPaperApps);
    for (const std::string &name : kPaperApps) {
        const AppDefinition *app = findApp(name);
        ASSERT_NE(app, nullptr) << name;
        EXPECT_EQ(app->name, name);
        EXPECT_FALSE(app->description.empty()) << name;
        EXPECT_TRUE(static_cast<bool>(app->build)) << name;
    }
    EXPECT_EQ(findApp("no_such_app"), nullptr);
}

TEST(AppCatalog, ParameterDefaultsLieInRange) {
    for (const AppDefinition &app : appCatalog()) {
        EXPECT_FALSE(app.parameters.empty()) << app.name;
        for (const AppParameter &p : app.parameters) {
            EXPECT_LE(p.minValue, p.defaultValue) << app.name << "." << p.name;
            EXPECT_LE(p.defaultValue, p.maxValue) << app.name << "." << p.name;
            EXPECT_FALSE(p.description.empty()) << app.name << "." << p.name;
        }
    }
}

TEST(AppCatalog, BuildAppRejectsUnknownAppAndParameter) {
    EXPECT_THROW(buildApp("no_such_app"), UsageError);
    try {
        buildApp("stencil_chain", {{"lenght", 3}});
        FAIL() << "a misspelt parameter was accepted";
    } catch (const UsageError &e) {
        // The message must name the bad key so the user can fix it.
        EXPECT_NE(std::string(e.what()).find("lenght"), std::string::npos) << e.what();
    }
}

TEST(AppCatalog, BuildAppRejectsValuesOutOfRange) {
    // Validation happens before building, so even huge values are cheap to reject.
    for (const AppDefinition &app : appCatalog()) {
        for (const AppParameter &p : app.parameters) {
            EXPECT_THROW(buildApp(app.name, {{p.name, p.minValue - 1}}), UsageError)
                << app.name << "." << p.name;
            EXPECT_THROW(buildApp(app.name, {{p.name, p.maxValue + 1}}), UsageError)
                << app.name << "." << p.name;
        }
    }
}

TEST(AppCatalog, EachBuildIsAFreshPipeline) {
    // Schedules are applied to Funcs in place, so two builds must never share one.
    const PipelineInstance first = buildApp("stencil_chain", {{"length", 2}});
    const PipelineInstance second = buildApp("stencil_chain", {{"length", 2}});
    ASSERT_EQ(first.pipeline.outputs().size(), second.pipeline.outputs().size());
    ASSERT_EQ(first.inputs.size(), second.inputs.size());
    EXPECT_FALSE(
        first.pipeline.outputs()[0].function().same_as(second.pipeline.outputs()[0].function()));
    EXPECT_FALSE(first.inputs[0].same_as(second.inputs[0]));
    const auto envOf = [](const PipelineInstance &instance) {
        std::vector<Halide::Internal::Function> outputs;
        for (const Halide::Func &output : instance.pipeline.outputs())
            outputs.push_back(output.function());
        return Halide::Internal::build_environment(outputs);
    };
    const auto firstEnv = envOf(first), secondEnv = envOf(second);
    EXPECT_EQ(firstEnv.size(), secondEnv.size());
    for (const auto &[name, function] : firstEnv) {
        for (const auto &[otherName, other] : secondEnv) {
            EXPECT_FALSE(function.same_as(other)) << name << " is shared with " << otherName;
        }
    }
}

TEST(AppCatalog, EveryAppBuildsWithDefaultsAndFullEstimates) {
    for (const AppDefinition &app : appCatalog()) {
        const PipelineInstance instance = buildApp(app.name);
        EXPECT_EQ(instance.name, app.name);
        EXPECT_TRUE(instance.pipeline.defined()) << app.name;
        EXPECT_FALSE(instance.pipeline.outputs().empty()) << app.name;
        EXPECT_FALSE(instance.inputs.empty()) << app.name;
        EXPECT_EQ(instance.params.size(), app.parameters.size()) << app.name;
        for (const AppParameter &p : app.parameters) {
            ASSERT_EQ(instance.params.count(p.name), 1u) << app.name << "." << p.name;
            EXPECT_EQ(instance.params.at(p.name), std::to_string(p.defaultValue));
        }
        std::string missing;
        for (const std::string &name : missingEstimates(instance))
            missing += (missing.empty() ? "" : ", ") + name;
        EXPECT_EQ(missing, "") << app.name;
    }
}

TEST(AppCatalog, SmallCasesCoverTheCatalog) {
    std::vector<std::string> names;
    for (const SmallCase &c : smallCases())
        names.push_back(c.app);
    EXPECT_EQ(names, kPaperApps);
}

// ---------------------------------------------------------------------------------------------
// Every app realizes a small instance on the CPU with finite outputs.

class AppCatalogRealize : public testing::TestWithParam<SmallCase> {};

TEST_P(AppCatalogRealize, SmallInstanceIsFinite) {
    const SmallCase &small = GetParam();
    PipelineInstance instance = buildApp(small.app, small.overrides);
    Lcg rng(0x5EEDu);
    for (Halide::Parameter &input : instance.inputs) {
        Halide::Buffer<> buffer = bufferForInput(input);
        fillRandom(buffer, rng, small.uint16Max);
        input.set_buffer(buffer);
    }
    std::vector<Halide::Buffer<>> outputs = outputBuffers(instance.pipeline);
    ASSERT_FALSE(outputs.empty());
    realizeOnCpu(instance, outputs);
    for (Halide::Buffer<> &output : outputs) {
        ASSERT_GT(output.number_of_elements(), 0u);
        if (output.type() != Halide::Float(32)) {
            // Integer outputs are finite by construction; they only have to be produced.
            EXPECT_TRUE(output.type().is_int() || output.type().is_uint()) << output.type();
            continue;
        }
        int64_t bad = 0;
        output.as<float>().for_each_value([&](float v) { bad += std::isfinite(v) ? 0 : 1; });
        EXPECT_EQ(bad, 0) << small.app << " produced non-finite values";
    }
}

INSTANTIATE_TEST_SUITE_P(AppCatalog, AppCatalogRealize, testing::ValuesIn(smallCases()),
                         [](const testing::TestParamInfo<SmallCase> &info) {
                             return info.param.app;
                         });

// ---------------------------------------------------------------------------------------------
// Plain C++ references.

TEST(AppCatalog, StencilChainMatchesReference) {
    const int length = 3, width = 40, height = 30;
    PipelineInstance instance =
        buildApp("stencil_chain", {{"length", length}, {"width", width}, {"height", height}});
    Halide::Buffer<uint16_t> input(width, height);
    Lcg rng(7);
    input.for_each_value([&](uint16_t &v) { v = static_cast<uint16_t>(rng.upTo(65535)); });
    instance.inputs.at(0).set_buffer(input);
    std::vector<Halide::Buffer<>> outputs = outputBuffers(instance.pipeline);
    ASSERT_EQ(outputs.size(), 1u);
    // Bit-exact comparison: the final truncation to uint16 turns a one-ulp difference from a
    // reassociated 25-term sum into an off-by-one pixel.
    realizeOnCpu(instance, outputs, /*strictFloat=*/true);

    // Only the input has a boundary condition: stage s is evaluated on a margin of
    // 2 (length - s) around the image, as Halide's bounds inference does.
    const int margin = 2 * length;
    const int pw = width + 2 * margin, ph = height + 2 * margin;
    std::vector<float> prev(pw * ph), next(pw * ph);
    for (int y = 0; y < ph; ++y) {
        for (int x = 0; x < pw; ++x) {
            const int ix = std::clamp(x - margin, 0, width - 1);
            const int iy = std::clamp(y - margin, 0, height - 1);
            prev[y * pw + x] = static_cast<float>(input(ix, iy));
        }
    }
    for (int s = 1; s <= length; ++s) {
        for (int y = 2 * s; y < ph - 2 * s; ++y) {
            for (int x = 2 * s; x < pw - 2 * s; ++x) {
                float sum = 0.0f;
                for (int dy = -2; dy <= 2; ++dy) {
                    for (int dx = -2; dx <= 2; ++dx)
                        sum += prev[(y + dy) * pw + (x + dx)];
                }
                next[y * pw + x] = sum * (1.0f / 25.0f);
            }
        }
        std::swap(prev, next);
    }
    const Halide::Buffer<uint16_t> result = outputs[0].as<uint16_t>();
    int mismatches = 0;
    std::ostringstream first;
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            const float v = prev[(y + margin) * pw + (x + margin)];
            const auto expected = static_cast<uint16_t>(std::clamp(v, 0.0f, 65535.0f));
            if (result(x, y) != expected && mismatches++ == 0) {
                first << "(" << x << ", " << y << "): " << result(x, y) << " vs " << expected
                      << " (float " << v << ")";
            }
        }
    }
    EXPECT_EQ(mismatches, 0) << "first: " << first.str();
}

TEST(AppCatalog, UnsharpMaskMatchesReference) {
    const int width = 24, height = 20, radius = 3;
    PipelineInstance instance =
        buildApp("unsharp_mask", {{"width", width}, {"height", height}, {"radius", radius}});
    Halide::Buffer<float> input(width, height, 3);
    Lcg rng(11);
    input.for_each_value([&](float &v) { v = static_cast<float>(rng.next()); });
    instance.inputs.at(0).set_buffer(input);
    std::vector<Halide::Buffer<>> outputs = outputBuffers(instance.pipeline);
    ASSERT_EQ(outputs.size(), 1u);
    realizeOnCpu(instance, outputs);

    const float sigma = 1.5f;
    const float twoSigmaSq = 2.0f * sigma * sigma;
    const float norm = 1.0f / (std::sqrt(2.0f * 3.14159265f) * sigma);
    std::vector<float> kernel(radius + 1);
    for (int i = 0; i <= radius; ++i)
        kernel[i] = std::exp(-static_cast<float>(i * i) / twoSigmaSq) * norm;
    // Gray reads the input through repeat_edge; blur_y depends on x only through gray, so
    // blur_y outside the image equals blur_y at the clamped column.
    const auto gray = [&](int x, int y) {
        x = std::clamp(x, 0, width - 1);
        y = std::clamp(y, 0, height - 1);
        return 0.299f * input(x, y, 0) + 0.587f * input(x, y, 1) + 0.114f * input(x, y, 2);
    };
    const auto blurY = [&](int x, int y) {
        float sum = kernel[0] * gray(x, y);
        for (int i = 1; i <= radius; ++i)
            sum += kernel[i] * (gray(x, y - i) + gray(x, y + i));
        return sum;
    };
    const Halide::Buffer<float> result = outputs[0].as<float>();
    int mismatches = 0;
    std::ostringstream first;
    for (int c = 0; c < 3; ++c) {
        for (int y = 0; y < height; ++y) {
            for (int x = 0; x < width; ++x) {
                float blurX = kernel[0] * blurY(x, y);
                for (int i = 1; i <= radius; ++i)
                    blurX += kernel[i] * (blurY(x - i, y) + blurY(x + i, y));
                const float sharpen = 2.0f * gray(x, y) - blurX;
                const float expected = sharpen / gray(x, y) * input(x, y, c);
                if (!closeEnough(result(x, y, c), expected) && mismatches++ == 0) {
                    first << "(" << x << ", " << y << ", " << c << "): " << result(x, y, c)
                          << " vs " << expected;
                }
            }
        }
    }
    EXPECT_EQ(mismatches, 0) << "first: " << first.str();
}

TEST(AppCatalog, MatmulMatchesReference) {
    const int m = 7, n = 9, k = 13;
    PipelineInstance instance = buildApp("matmul", {{"m", m}, {"n", n}, {"k", k}});
    // A is m x k and B is k x n, row-major with the column index innermost.
    Halide::Buffer<float> a(k, m), b(n, k);
    Lcg rng(13);
    a.for_each_value([&](float &v) { v = static_cast<float>(rng.next()) * 2.0f - 1.0f; });
    b.for_each_value([&](float &v) { v = static_cast<float>(rng.next()) * 2.0f - 1.0f; });
    ASSERT_EQ(instance.inputs.size(), 2u);
    instance.inputs[0].set_buffer(a);
    instance.inputs[1].set_buffer(b);
    std::vector<Halide::Buffer<>> outputs = outputBuffers(instance.pipeline);
    ASSERT_EQ(outputs.size(), 1u);
    ASSERT_EQ(outputs[0].dim(0).extent(), n);
    ASSERT_EQ(outputs[0].dim(1).extent(), m);
    realizeOnCpu(instance, outputs);

    const Halide::Buffer<float> result = outputs[0].as<float>();
    int mismatches = 0;
    std::ostringstream first;
    for (int row = 0; row < m; ++row) {
        for (int col = 0; col < n; ++col) {
            float expected = 0.0f;
            for (int r = 0; r < k; ++r)
                expected += a(r, row) * b(col, r);
            if (!closeEnough(result(col, row), expected) && mismatches++ == 0) {
                first << "C(" << row << ", " << col << "): " << result(col, row) << " vs "
                      << expected;
            }
        }
    }
    EXPECT_EQ(mismatches, 0) << "first: " << first.str();
}

} // namespace
} // namespace beamscope
