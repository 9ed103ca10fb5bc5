// Estimates: missing output and input estimates are named; complete pipelines pass.
#include "pipeline/Estimates.h"
#include "pipeline/GeneratorLibrary.h"
#include "pipeline/PipelineSource.h"
#include "util/Error.h"

#include <gtest/gtest.h>

namespace beamscope {
namespace {

TEST(Estimates, GeneratorWithEstimatesHasNoneMissing) {
    const GeneratorLibrary library = GeneratorLibrary::open(BEAMSCOPE_TEST_GENERATOR_LIB);
    const PipelineInstance instance = library.build("test_blur", {});
    EXPECT_TRUE(missingEstimates(instance).empty());
    EXPECT_NO_THROW(requireEstimates(instance));
}

TEST(Estimates, NamesMissingOutputDimensions) {
    const GeneratorLibrary library = GeneratorLibrary::open(BEAMSCOPE_TEST_GENERATOR_LIB);
    const PipelineInstance instance = library.build("test_no_estimates", {});
    const std::vector<std::string> expected = {"output 'blur' dimension 0 (x)",
                                               "output 'blur' dimension 1 (y)"};
    EXPECT_EQ(missingEstimates(instance), expected);
    try {
        requireEstimates(instance);
        FAIL() << "did not throw";
    } catch (const Error &e) {
        EXPECT_EQ(std::string(e.what()),
                  "missing estimates: output 'blur' dimension 0 (x), output 'blur' dimension 1 "
                  "(y)");
    }
}

TEST(Estimates, LoadPipelineRejectsMissingEstimates) {
    PipelineSource source{"test_no_estimates", BEAMSCOPE_TEST_GENERATOR_LIB, {}};
    EXPECT_THROW(loadPipeline(source), Error);
}

TEST(Estimates, NamesMissingInputDimensions) {
    Halide::ImageParam input(Halide::UInt(8), 2, "input");
    input.dim(0).set_estimate(0, 64);
    Halide::Var x("x"), y("y");
    Halide::Func output("output");
    output(x, y) = input(x, y) + 1;
    output.set_estimate(x, 0, 64).set_estimate(y, 0, 64);
    PipelineInstance instance;
    instance.pipeline = Halide::Pipeline(output);
    instance.inputs = {input.parameter()};
    const std::vector<std::string> expected = {"input 'input' dimension 1"};
    EXPECT_EQ(missingEstimates(instance), expected);
}

TEST(Estimates, CatalogStencilChainHasNoneMissing) {
    PipelineSource source{"stencil_chain", "", {}};
    const PipelineInstance instance = loadPipeline(source);
    EXPECT_TRUE(missingEstimates(instance).empty());
    EXPECT_FALSE(instance.inputs.empty());
}

} // namespace
} // namespace beamscope
