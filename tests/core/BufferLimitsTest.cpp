// BufferLimits: which pipelines run with Halide's LargeBuffers (64-bit buffer indexing).
// nl_means at its default size (1536x2560, 7x7 patches, 7x7 search window) materializes its
// patch difference d(x, y, dx, dy, c) at root over [-3, 1538] x [-3, 2562] x 7 x 7 x 3 floats:
// 2,326,581,936 bytes, the figure Halide's runtime refused without the feature ("Total
// allocation for buffer d$1 is 2326581936, which exceeds the maximum size of 2147483647").
#include "measure/BufferLimits.h"

#include "pipeline/AppCatalog.h"
#include "pipeline/PipelineSource.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace beamscope {
namespace {

TEST(BufferLimits, NlMeansAtItsDefaultSizeGetsLargeBuffers) {
    const PipelineSource source{"nl_means", "", {}};
    const FunctionDAG dag(loadPipeline(source));
    std::string name;
    EXPECT_EQ(largestRootBuffer(dag, &name), int64_t(1542) * 2566 * 7 * 7 * 3 * 4);
    EXPECT_EQ(name, "d");
    EXPECT_TRUE(needsLargeBuffers(dag));

    const Halide::Target device("x86-64-linux-opencl");
    const Halide::Target limited = withBufferLimits(device, source);
    EXPECT_TRUE(limited.has_feature(Halide::Target::LargeBuffers));
    EXPECT_TRUE(limited.has_feature(Halide::Target::OpenCL));
    EXPECT_EQ(limited.maximum_buffer_size(), INT64_MAX);
    EXPECT_EQ(withBufferLimits(Halide::get_host_target(), dag).maximum_buffer_size(), INT64_MAX);
    // Halide ignores the feature on 32-bit targets: nothing to add there.
    const Halide::Target narrow("x86-32-linux");
    EXPECT_EQ(withBufferLimits(narrow, dag), narrow);
}

TEST(BufferLimits, SmallPipelinesKeepThirtyTwoBitIndexing) {
    const PipelineSource source{"nl_means", "", {"width=64", "height=48"}};
    const FunctionDAG dag(loadPipeline(source));
    // d over [-3, 66] x [-3, 50] x 7 x 7 x 3 floats.
    EXPECT_EQ(largestRootBuffer(dag), int64_t(70) * 54 * 7 * 7 * 3 * 4);
    EXPECT_FALSE(needsLargeBuffers(dag));
    const Halide::Target device("x86-64-linux-opencl");
    EXPECT_EQ(withBufferLimits(device, source), device);
    EXPECT_EQ(withBufferLimits(device, source).maximum_buffer_size(), (int64_t(1) << 31) - 1);
}

TEST(BufferLimits, AtTheDefaultSizesThreeCatalogAppsGetLargeBuffers) {
    // nl_means (d, 2.17 GiB), bgu (upsampled_y, 1.58 GiB) and max_filter (vert, 1.27 GiB); the
    // next largest, lens_blur's cost_pyramid_push_0 (0.95 GiB), stays below the threshold.
    std::vector<std::string> large;
    for (const AppDefinition &app : appCatalog())
        if (needsLargeBuffers(FunctionDAG(buildApp(app.name)))) large.push_back(app.name);
    EXPECT_EQ(large, (std::vector<std::string>{"nl_means", "max_filter", "bgu"}));
}

} // namespace
} // namespace beamscope
