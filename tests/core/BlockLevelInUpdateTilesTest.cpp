// A Func computed at the block level of a host whose last stage is an update, as Anderson et al.
// 2021's schedules compute lens_blur's worst_case_bokeh_radius in blurred's update tiles (and
// min_cost and filtered_cost in depth's): the update's tiles are guarded, so a thread's points
// vary in the last tile, but Halide bounds the Func per block by the whole tile, a constant
// amount of shared memory. Representable at the block level only (frozen pins place it; the
// search does not offer it); Beamscope's region per block against Halide's lowering and its
// import; a correct run on PoCL with a partial last tile.
#include "BenchTestUtil.h"
#include "ConceptualStmt.h"
#include "ScheduleTestUtil.h"
#include "SmallLensBlur.h"

#include "codegen/ScheduleApplier.h"
#include "codegen/ScheduleImport.h"
#include "schedule/ScheduleIO.h"
#include "search/Pins.h"
#include "search/SearchSpace.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <regex>

using namespace beamscope;
using namespace beamscope::testing;

namespace {

/// blurred at root in 16 x 10 x 1 tiles, both stages (its update's RVar, 4 samples, serial in
/// each thread): 48 rows make 5 tiles, the last one 8 rows, guarded in the update. The sample
/// Funcs inlined, so blurred's update reads worst_case_bokeh_radius directly.
StatePtr blurredTiled(const std::shared_ptr<const FunctionDAG> &dag) {
    const int blurred = dag->find("blurred");
    const auto &stages = dag->node(blurred).stages;
    StatePtr s = ScheduleState::initial(dag)->withRootTiling(
        blurred, {ScheduleState::makeTiling(stages[0], {16, 10, 1}, {1, 1, 1}),
                  ScheduleState::makeTiling(stages[1], {1, 16, 10, 1}, {4, 1, 1, 1})});
    for (const char *f : {"sample_weight", "sample_u", "sample_v"})
        s = s->withInline(dag->find(f));
    return s;
}

/// worst_case_bokeh_radius (both its stages) in blurred's blocks, one point per thread.
StatePtr worstInBlurredsBlocks(const std::shared_ptr<const FunctionDAG> &dag) {
    const StatePtr s = blurredTiled(dag)->withBlock(dag->find("worst_case_bokeh_radius"),
                                                    dag->find("blurred"), {1, 1});
    return placeRest(s);
}

} // namespace

TEST(BlockLevelInUpdateTiles, TheBlockLevelIsRepresentableAndFrozenPinsPlaceItButTheSearchDoesNot) {
    auto dag = smallLensBlurDag();
    const StatePtr parent = blurredTiled(dag);
    const int worst = dag->find("worst_case_bokeh_radius"), blurred = dag->find("blurred");
    EXPECT_TRUE(parent->canFuse(worst, blurred, LoopLevel::Block));
    EXPECT_EQ(parent->fuseRefusal(worst, blurred, LoopLevel::Thread), FuseRefusal::HostHasUpdates);
    EXPECT_NE(parent->describeFuseRefusal(worst, blurred, LoopLevel::Thread).find("block level"),
              std::string::npos);

    // The search does not offer it (its picks ran slower on PoCL; docs/import.md), at neither
    // level; root and inline stay.
    const SearchSpace space(GpuSpec::load("h100"), SearchSpaceOptions{});
    const std::vector<std::string> labels =
        locationLabels(space, *parent, worst, /*withPruned=*/true);
    EXPECT_NE(std::find(labels.begin(), labels.end(), "root"), labels.end());
    EXPECT_EQ(std::find_if(labels.begin(), labels.end(),
                           [](const std::string &l) { return l.find(" of blurred") != l.npos; }),
              labels.end());

    // A frozen pin (the GUI's Freeze, an imported decision kept) places it there.
    Pin pin;
    pin.func = "worst_case_bokeh_radius";
    pin.host = "blurred";
    pin.location = ComputeKind::Block;
    pin.serial = {1, 1};
    pin.frozen = true;
    const std::vector<ResolvedPin> resolved = resolvePins({pin}, *dag, GpuSpec::load("h100"));
    ASSERT_EQ(resolved.size(), 1u);
    const std::optional<Derivation> child = applyFrozenPin(resolved[0], *parent);
    ASSERT_TRUE(child.has_value());
    EXPECT_EQ(child->placement->kind, ComputeKind::Block);
    EXPECT_EQ(child->placement->host, blurred);
}

TEST(BlockLevelInUpdateTiles, TheRegionPerBlockIsTheWholeUpdateTileAsHalideBoundsIt) {
    auto dag = smallLensBlurDag();
    const StatePtr s = worstInBlurredsBlocks(dag);
    const FuncPlacement &p = s->placement(dag->find("worst_case_bokeh_radius"));
    // blurred's update reads worst_case_bokeh_radius(x, y) over its 16 x 10 tile; the first
    // block's is x [0, 15], y [0, 9]; 80 blocks (4 x 5 x 4 channels), one realization each.
    EXPECT_EQ(p.region, (Box{{0, 15}, {0, 9}}));
    ASSERT_EQ(p.tilings.size(), 2u);
    EXPECT_EQ(p.tilings[0].threads, (std::vector<int64_t>{16, 10}));
    EXPECT_EQ(p.realizations, 80);

    // Halide: worst_case_bokeh_radius in shared memory inside blurred's update's block loops
    // (not its initialization's), on the block's 16 x 10 threads. It computes the clipped region
    // in the last tile (8 rows: the threads past it are guarded) and sizes the allocation on the
    // host as the largest block's, min(16, ...) * min(10, ...) over the blocks: the whole tile,
    // Beamscope's region per block.
    const std::string stmt = conceptualCudaStmt(*s, "lens_blur", kSmallLensBlur);
    const size_t blocks = stmt.find("gpu_block<CUDA> (blurred.s1.");
    ASSERT_NE(blocks, std::string::npos) << stmt;
    const size_t alloc = stmt.find("allocate worst_case_bokeh_radius.0[float32 * ");
    ASSERT_NE(alloc, std::string::npos) << stmt;
    EXPECT_GT(alloc, blocks) << stmt;
    EXPECT_EQ(stmt.compare(stmt.find(']', alloc), 15, "] in GPUShared\n"), 0) << stmt;
    EXPECT_NE(stmt.find("gpu_thread<CUDA> (.thread_id_y, 0, 10)", alloc), std::string::npos);
    EXPECT_NE(stmt.find("gpu_thread<CUDA> (.thread_id_x, 0, 16)", alloc), std::string::npos);
    const size_t sizing = stmt.find("worst_case_bokeh_radius.0.shared_size[0] = 0");
    const size_t sized = stmt.find("let worst_case_bokeh_radius.0.shared_size_var", sizing);
    ASSERT_NE(sized, std::string::npos) << stmt;
    EXPECT_TRUE(std::regex_search(
        stmt.substr(sizing, sized - sizing),
        std::regex("let (t[0-9]+) = min\\([^\\n]*, 10\\)\\n[^]*shared_size\\[0\\] = "
                   "max\\(worst_case_bokeh_radius\\.0\\.shared_size\\[0\\], min\\([^\\n]*, "
                   "16\\)\\*\\1\\)")))
        << stmt.substr(sizing, sized - sizing);

    // Halide's schedule reads back as the same state.
    const ScheduleImport back = importApplied(*s, buildApp("lens_blur", kSmallLensBlur),
                                              Halide::Target("host-cuda-cuda_capability_80"),
                                              ScheduleCallOptions::forGpu(GpuSpec::load("h100")));
    ASSERT_TRUE(back.state) << back.unrepresentable() << " Funcs not read back";
    EXPECT_EQ(back.unrepresentable(), 0);
    EXPECT_EQ(scheduleToJson(*back.state).dump(1), scheduleToJson(*s).dump(1));
}

TEST(BlockLevelInUpdateTiles, LensBlurRunsCorrectlyOnOpenClWithAPartialLastTile) {
    ASSERT_TRUE(haveOpenCl()) << kNoOpenCl;
    const Measurement m = runOnOpenCl("worst-case-radius-in-blurred", smallLensBlurSource(),
                                      *worstInBlurredsBlocks(smallLensBlurDag()));
    ASSERT_FALSE(m.failed()) << m.failure;
    EXPECT_TRUE(m.correct.value_or(false));
    EXPECT_LE(m.maxError, 1e-3);
}
