// CUPTI's CUDA kernel names paired with Beamscope's kernels (tune/KernelTimeMatch.h): the names
// are Halide's, as the H200's rows recorded them ("_kernel_histogram_1_s1_c_c_b1_block_id_z__1"),
// and a pairing that is not one to one gives nothing rather than a wrong kernel's time.
#include "tune/KernelTimeMatch.h"

#include <gtest/gtest.h>

using namespace beamscope;

TEST(KernelTimeMatch, AKernelIsNamedAfterItsRootFuncAndStage) {
    EXPECT_TRUE(cudaKernelIsOf("_kernel_histogram_1_s1_c_c_b1_block_id_z__1", {"histogram", 1}));
    EXPECT_FALSE(cudaKernelIsOf("_kernel_histogram_1_s1_c_c_b1_block_id_z__1", {"histogram", 0}));
    EXPECT_TRUE(cudaKernelIsOf("_kernel_blury_1_s0_z_z_b_fused_b_block_id_z__1", {"blury", 0}));
    // A Func whose name is another's prefix is not that one.
    EXPECT_FALSE(cudaKernelIsOf("_kernel_blur_x_s0_y_block_id_y", {"blur", 0}));
    EXPECT_TRUE(cudaKernelIsOf("_kernel_blur_x_s0_y_block_id_y", {"blur_x", 0}));
    // Halide's unique names ("depth$1") and lambdas numbered by another process.
    EXPECT_TRUE(cudaKernelIsOf("_kernel_depth__1_s0_x_block_id_x", {"depth", 0}));
    EXPECT_TRUE(cudaKernelIsOf("_kernel_lambda_17_s0_x_block_id_x", {"lambda_3", 0}));
    EXPECT_FALSE(cudaKernelIsOf("_kernel_lambda_17_s0_x_block_id_x", {"lambda_3", 1}));
}

TEST(KernelTimeMatch, TimesComeInTheKernelsOrderOnlyWhenPairedOneToOne) {
    const std::vector<KernelTime> times = {{"_kernel_output_s0_y_block_id_y", 0.5, 1},
                                           {"_kernel_blur_x_s0_y_block_id_y", 0.25, 1}};
    EXPECT_EQ(matchKernelTimes({{"blur_x", 0}, {"output", 0}}, times),
              (std::vector<double>{0.25, 0.5}));
    // A kernel Beamscope does not have, or one it has twice: no times at all.
    EXPECT_TRUE(matchKernelTimes({{"blur_x", 0}}, times).empty());
    EXPECT_TRUE(matchKernelTimes({{"blur_x", 0}, {"blur_x", 0}}, times).empty());
    EXPECT_TRUE(matchKernelTimes({{"blur_y", 0}, {"output", 0}}, times).empty());
    // Two CUDA kernels that both fit one root: unsure, so nothing.
    const std::vector<KernelTime> twice = {{"_kernel_f_s0_x_block_id_x", 0.5, 1},
                                           {"_kernel_f__1_s0_x_block_id_x", 0.25, 1}};
    EXPECT_TRUE(matchKernelTimes({{"f", 0}, {"g", 0}}, twice).empty());
}

// iir_blur's undefined pure stage is a kernel of Beamscope's that Halide never launches: the
// other kernels pair with CUDA's, and it gets no time (0) instead of spoiling the row.
TEST(KernelTimeMatch, AKernelThatLaunchesNothingTakesNoTime) {
    const std::vector<KernelTime> times = {{"_kernel_blur_1_s1_c_c_b1_block_id_y__1", 0.5, 1},
                                           {"_kernel_output_1_s0_c_c_b_block_id_z__1", 0.25, 1}};
    KernelRootStage undefined{"blur", -1};
    undefined.launches = false;
    EXPECT_EQ(matchKernelTimes({undefined, {"blur", 1}, {"output", 0}}, times),
              (std::vector<double>{0.0, 0.5, 0.25}));
    // A launching kernel whose stage is unknown still refuses the row.
    EXPECT_TRUE(matchKernelTimes({{"blur", -1}, {"blur", 1}, {"output", 0}}, times).empty());
    // Nothing that launches: nothing to pair.
    EXPECT_TRUE(matchKernelTimes({undefined}, {}).empty());
}
