// A Func read through an upsampling tap (lens_blur's x / 2 - 1 + 2 * (x % 2)) computed at its
// consumer's block level, as Anderson2021 computes lens_blur's pull pyramid: Beamscope's region
// per block (IndexBounds) against Halide's own lowering and a correct run on PoCL.
#include "BenchTestUtil.h"
#include "ScheduleTestUtil.h"
#include "SmallLensBlur.h"

#include "codegen/ScheduleApplier.h"
#include "codegen/ScheduleImport.h"

#include <gtest/gtest.h>

using namespace beamscope;
using namespace beamscope::testing;

namespace {

/// filtered_cost at root in 16 x 16 x 1 tiles; in its blocks, cost_pyramid_pull_0_upx (through
/// the inlined cost_pyramid_pull_0 and _0_upy) and, one level down through the inlined
/// cost_pyramid_pull_1, cost_pyramid_pull_1_upy; the rest at root or inline.
StatePtr pullChainInFilteredCost(const std::shared_ptr<const FunctionDAG> &dag) {
    StatePtr s = rootTiled(ScheduleState::initial(dag), "filtered_cost", {16, 16, 1}, {1, 1, 1});
    for (const char *f : {"cost_pyramid_pull_0", "cost_pyramid_pull_0_upy"})
        s = s->withInline(dag->find(f));
    const int host = dag->find("filtered_cost");
    s = s->withBlock(dag->find("cost_pyramid_pull_0_upx"), host, {1, 1, 1, 2});
    s = s->withInline(dag->find("cost_pyramid_pull_1"));
    s = s->withBlock(dag->find("cost_pyramid_pull_1_upy"), host, {1, 2, 1, 1});
    return placeRest(s);
}

} // namespace

TEST(BlockLevelTap, TheRegionPerBlockIsTheTapsBoundsNotTheWholeHeight) {
    auto dag = smallLensBlurDag();
    const StatePtr s = pullChainInFilteredCost(dag);
    // filtered_cost's first block: x [-2, 13], y [-2, 13], one slice. The tap over y [-2, 13]
    // reads [-2, 7] (10 rows), and over x the next level's tap reads [-2, 7] of x [-2, 13].
    EXPECT_EQ(s->placement(dag->find("cost_pyramid_pull_0_upx")).region,
              (Box{{-2, 13}, {-2, 7}, {0, 0}, {0, 1}}));
    EXPECT_EQ(s->placement(dag->find("cost_pyramid_pull_1_upy")).region,
              (Box{{-2, 7}, {-2, 7}, {0, 0}, {0, 1}}));
    // Halide's own bounds agree: the state comes back from the Funcs it was applied to.
    const ScheduleImport back =
        importApplied(*s, buildApp("lens_blur", kSmallLensBlur),
                      Halide::Target("host-cuda-cuda_capability_80"),
                      ScheduleCallOptions::forGpu(GpuSpec::load("h100")));
    ASSERT_TRUE(back.state) << back.unrepresentable() << " Funcs not read back";
    EXPECT_EQ(back.state->placement(dag->find("cost_pyramid_pull_0_upx")).tilings,
              s->placement(dag->find("cost_pyramid_pull_0_upx")).tilings);
    EXPECT_EQ(back.state->placement(dag->find("cost_pyramid_pull_1_upy")).tilings,
              s->placement(dag->find("cost_pyramid_pull_1_upy")).tilings);
}

TEST(BlockLevelTap, LensBlurRunsCorrectlyOnOpenCl) {
    ASSERT_TRUE(haveOpenCl()) << kNoOpenCl;
    auto dag = smallLensBlurDag();
    const Measurement m = runOnOpenCl("pull-chain-in-filtered-cost", smallLensBlurSource(),
                                      *pullChainInFilteredCost(dag));
    ASSERT_FALSE(m.failed()) << m.failure;
    EXPECT_TRUE(m.correct.value_or(false));
    EXPECT_LE(m.maxError, 1e-3);
}
