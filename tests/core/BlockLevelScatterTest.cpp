// A Func whose update scatters into a data-dependent coordinate (bilateral_grid's histogram:
// histogram(x, y, zi, c) += ...) computed at the block level of its consumer, as Halide's
// Anderson2021 computes it in blurz's blocks at the default size: which updates qualify, the
// region per block (whole in the scattered dimension), Halide's lowering (shared memory, the
// update's RVars serial inside the block's threads), the shared-memory features, the state
// read back from the Funcs, the exported header, a correct run on PoCL, and the L2 requests of
// the same update at the root.
#include "BenchTestUtil.h"
#include "ExportRoundTrip.h"
#include "ScheduleTestUtil.h"

#include "codegen/ScheduleApplier.h"
#include "codegen/ScheduleImport.h"
#include "cost/Featurizer.h"
#include "schedule/ScheduleIO.h"
#include "search/Pins.h"
#include "search/SearchSpace.h"
#include "util/Error.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>

using namespace beamscope;
using namespace beamscope::testing;

namespace {

const AppParams kSmallGrid = {{"width", 128}, {"height", 96}};

std::shared_ptr<const FunctionDAG> gridDag() {
    return std::make_shared<const FunctionDAG>(buildApp("bilateral_grid", kSmallGrid));
}

/// bilateral_grid at 128x96 as Anderson2021 schedules it at 1536x2560: blurz at root, per block
/// 16 x 1 x 12 x 2 points (threads 16x1x2x1, serial 1x1x`zSerial`x2), histogram in its blocks
/// with 16 serial z points per thread (its whole z range: one thread per x and c), the
/// pointwise Funcs inlined, blury and the output at root.
StatePtr histogramInBlurz(const std::shared_ptr<const FunctionDAG> &dag, int64_t zThreads = 2,
                          int64_t zSerial = 6) {
    StatePtr s = rootTiled(ScheduleState::initial(dag), "bilateral_grid", {16, 16}, {1, 1});
    for (const char *f : {"interpolated", "blurx", "repeat_edge", "lambda_0", "input_im"})
        s = s->withInline(dag->find(f));
    s = rootTiled(s, "blury", {16, 2, 1, 1}, {1, 1, 1, 1});
    s = rootTiled(s, "blurz", {16, 1, zThreads, 1}, {1, 1, zSerial, 2});
    return s->withBlock(dag->find("histogram"), dag->find("blurz"), {1, 1, 16, 1});
}

std::string gridStmt(const ScheduleState &schedule) {
    PipelineInstance fresh = buildApp("bilateral_grid", kSmallGrid);
    applySchedule(schedule, fresh, cudaTarget());
    const std::filesystem::path file =
        std::filesystem::temp_directory_path() /
        ("beamscope-grid-" + std::to_string(::getpid()) + ".stmt");
    fresh.pipeline.compile_to_conceptual_stmt(file.string(), fresh.pipeline.infer_arguments(),
                                              Halide::StmtOutputFormat::Text, cudaTarget());
    std::stringstream text;
    text << std::ifstream(file).rdbuf();
    std::filesystem::remove(file);
    return std::regex_replace(text.str(), std::regex("\\$[0-9]+"), "");
}

} // namespace

TEST(BlockLevelScatter, UpdatesThatScatterIntoADataDependentCoordinateQualify) {
    // histogram(x, y, zi, c) += ...: z from the data, x, y, c its own; hist_rows(bin, y) += 1
    // likewise in its first dimension; prod's update writes its own point (pointwiseUpdates);
    // an IIR scan reads another point than it writes (neither).
    const auto scattered = [](const std::string &app, const std::string &func) {
        const FunctionDAG dag(buildApp(app, {}));
        return dag.node(dag.find(func)).scatteredDims;
    };
    EXPECT_EQ(scattered("bilateral_grid", "histogram"), (std::vector<int>{2}));
    EXPECT_EQ(scattered("histogram_equalize", "hist_rows"), (std::vector<int>{0}));
    EXPECT_EQ(scattered("matmul", "prod"), (std::vector<int>{}));
    EXPECT_EQ(scattered("iir_blur", "blur_y_blur"), (std::vector<int>{}));
}

TEST(BlockLevelScatter, TheRegionPerBlockIsWholeInTheScatteredDimension) {
    auto dag = gridDag();
    const int histogram = dag->find("histogram"), blurz = dag->find("blurz");
    // Only at the block level: registers need constant indices.
    const StatePtr s = histogramInBlurz(dag, 1, 4); // blurz: 4 of its 12 z per block
    EXPECT_FALSE(s->canFuse(histogram, blurz, LoopLevel::Thread));
    const FuncPlacement &p = s->placement(histogram);
    ASSERT_EQ(p.kind, ComputeKind::Block);
    // blurz's 16 x 1 x 4 x 2 tile reads histogram at z - 2 ... z + 2 (8 z), but the update may
    // write any bin of the grid's z range, [-2, 13] (zi in [0, 10], blurz's reads of it).
    EXPECT_EQ(p.region[2], (Interval{-2, 13}));
    EXPECT_EQ(p.region[0].extent(), 16);
    EXPECT_EQ(p.region[1].extent(), 1);
    EXPECT_EQ(p.region[3].extent(), 2);
    // Pure stage: 16 serial z per thread, so threads 16 x 1 x 1 x 2; the update (loops r$x,
    // r$y, x, y, c) on the same x and c threads, its 8x8 RVars serial and whole.
    ASSERT_EQ(p.tilings.size(), 2u);
    EXPECT_EQ(p.tilings[0].threads, (std::vector<int64_t>{16, 1, 1, 2}));
    EXPECT_EQ(p.tilings[0].serial, (std::vector<int64_t>{1, 1, 16, 1}));
    EXPECT_EQ(p.tilings[1].threads, (std::vector<int64_t>{1, 1, 16, 1, 2}));
    EXPECT_EQ(p.tilings[1].serial, (std::vector<int64_t>{8, 8, 1, 1, 1}));

    Pin pin;
    pin.func = "histogram";
    pin.host = "blurz";
    pin.location = ComputeKind::Block;
    EXPECT_NO_THROW(resolvePins({pin}, *dag, GpuSpec::load("h100")));
    pin.location = ComputeKind::Thread;
    try {
        resolvePins({pin}, *dag, GpuSpec::load("h100"));
        ADD_FAILURE() << "a thread-level pin of histogram was accepted";
    } catch (const Error &e) {
        EXPECT_NE(std::string(e.what()).find("root or at a consumer's block level"),
                  std::string::npos)
            << e.what();
    }
}

TEST(BlockLevelScatter, TheSearchOffersTheWholeZRangeToOneThread) {
    // Anderson2021's decision (16 serial z per thread, its whole range) is in the search's menu
    // of histogram's block-level tiles; before, the menu stopped at 8 (the paper's 1, 2, 4, 8).
    // The innermost loop (x, 16 points per block) is not taken whole: its threads are the warp's.
    auto dag = gridDag();
    StatePtr s = rootTiled(ScheduleState::initial(dag), "bilateral_grid", {16, 16}, {1, 1});
    for (const char *f : {"interpolated", "blurx", "repeat_edge", "lambda_0", "input_im"})
        s = s->withInline(dag->find(f));
    s = rootTiled(s, "blury", {16, 2, 1, 1}, {1, 1, 1, 1});
    s = rootTiled(s, "blurz", {16, 1, 2, 1}, {1, 1, 6, 2});
    const SearchSpace space(GpuSpec::load("h100"), SearchSpaceOptions{});
    const std::vector<std::string> labels = locationLabels(space, *s, dag->find("histogram"));
    const auto offered = [&](const std::string &label) {
        return std::find(labels.begin(), labels.end(), label) != labels.end();
    };
    EXPECT_TRUE(offered("block of blurz serial 1x1x16x1"));
    EXPECT_TRUE(offered("block of blurz serial 1x1x8x2"));
    EXPECT_FALSE(offered("block of blurz serial 1x1x16x2")) << "32 points: more than is unrolled";
    EXPECT_FALSE(offered("block of blurz serial 16x1x1x1"));
}

TEST(BlockLevelScatter, HalideScattersIntoSharedMemoryOnTheBlocksThreads) {
    const std::string stmt = gridStmt(*histogramInBlurz(gridDag()));
    // 16 x 1 x 16 x 2 floats per block of blurz in shared memory.
    const size_t blocks = stmt.find("gpu_block<CUDA>", stmt.find("produce blurz"));
    ASSERT_NE(blocks, std::string::npos) << stmt;
    const size_t alloc = stmt.find("allocate histogram.0[float32 * 512] in GPUShared", blocks);
    ASSERT_NE(alloc, std::string::npos) << stmt;
    // The initialisation's 16 z unrolled (up to 16 points, as Anderson2021 does: no loop), a
    // barrier, then the update's 8x8 RVars serial inside the threads, no loop over z.
    EXPECT_EQ(stmt.find("for (histogram.s0.z", alloc), std::string::npos) << stmt;
    const size_t init = stmt.find("produce histogram", alloc);
    const size_t barrier = stmt.find("gpu_thread_barrier", init);
    // (Halide partitions the RVar loops where repeat_edge clamps the input's rows and columns.)
    const size_t ry = stmt.find("for (histogram.s1.r$y", barrier);
    const size_t rx = stmt.find("for (histogram.s1.r$x", ry);
    EXPECT_NE(init, std::string::npos) << stmt;
    EXPECT_NE(barrier, std::string::npos) << stmt;
    EXPECT_NE(ry, std::string::npos) << stmt;
    EXPECT_NE(rx, std::string::npos) << stmt;
    EXPECT_EQ(stmt.find("for (histogram.s1.x"), std::string::npos) << stmt;
    EXPECT_EQ(stmt.find("for (histogram.s1.c"), std::string::npos) << stmt;
}

TEST(BlockLevelScatter, EveryRVarIterationLoadsAndStoresASharedPoint) {
    auto dag = gridDag();
    const StatePtr s = histogramInBlurz(dag);
    Featurizer featurizer(GpuSpec::load("h100"), false);
    std::optional<StageFeatures> pure, update;
    for (const auto &kernel : featurizer.featurize(*s)) {
        for (const StageFeatureRow &row : *kernel) {
            if (row.node != dag->find("histogram")) continue;
            (row.stage == 0 ? pure : update) = row.features;
        }
    }
    ASSERT_TRUE(pure.has_value());
    ASSERT_TRUE(update.has_value());
    using F = Feature;
    // The initialisation writes the block's 16 x 1 x 16 x 2 floats, the update scatters into
    // them from its 16 x 1 x 2 threads.
    EXPECT_EQ((*pure)[F::shared_bytes_at_task], 16 * 1 * 16 * 2 * 4);
    EXPECT_DOUBLE_EQ((*update)[F::shared_mem_occupancy],
                     16.0 * 16 * 2 * 4 / GpuSpec::load("h100").sharedMemoryPerBlockBytes);
    // One warp: 16 x lanes and 2 c lanes. Words x + 16 z + 256 c: with one bin per warp the
    // two c lanes of each x meet in one bank (256 words apart): 2 transactions per access,
    // at each of the 64 RVar iterations (the bin moves with the data: no register holds it),
    // and as many loads of the same points. 32 of 64 lanes' words useful: efficiency 1/2.
    EXPECT_EQ((*update)[F::num_shared_mem_stores_per_block], 2 * 64);
    EXPECT_EQ((*update)[F::num_shared_mem_loads_per_block], 2 * 64);
    EXPECT_DOUBLE_EQ((*update)[F::shared_mem_store_efficiency], 0.5);
}

TEST(BlockLevelScatter, AtTheRootEveryLanesBinIsAnL2RequestAtEveryIteration) {
    // The histogram at the root instead: its update on threads of 16 x and 2 c, 2 points of y
    // a thread (serial), the 8 x 8 RVars serial inside. Each point loads and stores the bin its
    // pixel picks at every iteration: 2 x 32 threads x 2 points x 64 iterations = 8,192 L2
    // requests a block. The initialisation scatters nothing, nor does the histogram in blurz's
    // blocks (shared memory) or any stage on a CPU's OpenCL device (its caches write back).
    auto dag = gridDag();
    const int histogram = dag->find("histogram");
    const Node &node = dag->node(histogram);
    ASSERT_EQ(node.stages.size(), 2u);
    std::vector<int64_t> threads, serial;
    for (const LoopVar &loop : node.stages[1].loops) {
        const bool x = loop.funcDim == 0, y = loop.funcDim == 1, c = loop.funcDim == 3;
        threads.push_back(x ? 16 : c ? 2 : 1);
        serial.push_back(y ? 2 : 1);
    }
    ASSERT_EQ(threads, (std::vector<int64_t>{1, 1, 16, 1, 2})); // r.x, r.y, x, y, c
    StatePtr s = histogramInBlurz(dag);
    s = s->withRootTiling(histogram,
                          {ScheduleState::makeTiling(node.stages[0], {16, 1, 1, 2}, {1, 1, 1, 1}),
                           ScheduleState::makeTiling(node.stages[1], threads, serial)});
    const auto requests = [&](const ScheduleState &state, const std::string &gpu, int stage) {
        Featurizer featurizer(GpuSpec::load(gpu), false);
        for (const auto &kernel : featurizer.featurize(state))
            for (const StageFeatureRow &row : *kernel)
                if (row.node == histogram && row.stage == stage)
                    return row.features[Feature::num_global_mem_scattered_requests_per_block];
        ADD_FAILURE() << "no histogram stage " << stage;
        return -1.0;
    };
    EXPECT_EQ(requests(*s, "h100", 1), 2.0 * 32 * 2 * 64);
    EXPECT_EQ(requests(*s, "h100", 0), 0.0);
    EXPECT_EQ(requests(*s, "pocl-cpu", 1), 0.0);
    EXPECT_EQ(requests(*histogramInBlurz(dag), "h100", 1), 0.0);
}

TEST(BlockLevelScatter, TheStateComesBackFromTheFuncsItWasAppliedTo) {
    auto dag = gridDag();
    for (const StatePtr &s : {histogramInBlurz(dag), histogramInBlurz(dag, 1, 4)}) {
        const ScheduleImport imported =
            importApplied(*s, buildApp("bilateral_grid", kSmallGrid), cudaTarget(),
                          ScheduleCallOptions::forGpu(GpuSpec::load("h100")));
        ASSERT_TRUE(imported.state);
        EXPECT_EQ(imported.unrepresentable(), 0);
        EXPECT_EQ(scheduleToJson(*imported.state).dump(1), scheduleToJson(*s).dump(1));
    }
}

TEST(BlockLevelScatter, TheExportedHeaderLowersLikeTheApplier) {
    expectExportsLowerLikeTheApplier({{"schedule_scatter_grid",
                                       [] { return buildApp("bilateral_grid", kSmallGrid); },
                                       histogramInBlurz(gridDag()),
                                       {}}});
}

TEST(BlockLevelScatter, BilateralGridRunsCorrectlyOnOpenCl) {
    ASSERT_TRUE(haveOpenCl()) << kNoOpenCl;
    // Both blurz tilings: its blocks covering all of z, and a third of it (the other two thirds'
    // blocks compute the whole histogram column again).
    for (const StatePtr &s : {histogramInBlurz(gridDag()), histogramInBlurz(gridDag(), 1, 4)}) {
        const Measurement m =
            runOnOpenCl("shared-histogram",
                        {"bilateral_grid", "", {"width=128", "height=96"}}, *s);
        ASSERT_FALSE(m.failed()) << m.failure;
        EXPECT_TRUE(m.correct.value_or(false));
        EXPECT_LE(m.maxError, 1e-3);
    }
}
