// A Func with updates at the block level of its consumer (Anderson et al. 2021's compute_at at
// the block level: a reduction into shared memory, matmul's prod in output's blocks): that the
// search and pins offer it, each stage's tiling over the region per block, Halide's lowering
// (shared memory, the update's RVar serial inside the block's threads), its shared-memory
// features, the exported C++ header (compiled, lowering as the applier's), the import of the
// state back from the Funcs, and a correct run on the OpenCL device (PoCL here).
#include "BenchTestUtil.h"
#include "ExportRoundTrip.h"
#include "ScheduleTestUtil.h"
#include "SmallMatmul.h"

#include "codegen/ScheduleApplier.h"
#include "codegen/ScheduleImport.h"
#include "cost/Featurizer.h"
#include "search/Pins.h"
#include "search/SearchSpace.h"
#include "util/Error.h"

#include <gtest/gtest.h>

#include <optional>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

using namespace beamscope;
using namespace beamscope::testing;

namespace {

/// output at root (16x4 threads, 4x4 serial per thread: 64x16 tiles, 1x4 blocks), prod in
/// shared memory at output's block level with 4x2 serial per thread, the input wrappers
/// inlined.
StatePtr sharedMemoryMatmul(const std::shared_ptr<const FunctionDAG> &dag,
                            const std::vector<int64_t> &prodSerial = {4, 2},
                            int64_t maxUnrolledPoints = kMaxUnrolledPoints) {
    StatePtr s =
        rootTiled(ScheduleState::initial(dag, maxUnrolledPoints), "output", {16, 4}, {4, 4});
    s = s->withBlock(dag->find("prod"), dag->find("output"), prodSerial);
    s = s->withInline(dag->find("A_im"));
    return s->withInline(dag->find("B_im"));
}

} // namespace

TEST(BlockLevelUpdate, EveryStageRunsOnTheBlocksThreadsOverTheRegionPerBlock) {
    auto dag = matmulDag();
    const StatePtr s = sharedMemoryMatmul(dag);
    const FuncPlacement &p = s->placement(dag->find("prod"));
    EXPECT_EQ(p.kind, ComputeKind::Block);
    // output(x, y) = prod(x, y): the region per block is output's 64x16 tile; 4x2 serial per
    // thread leaves 16x8 threads; the update (loops r$x, x, y) the same, its RVar (k = 64)
    // serial and whole.
    EXPECT_EQ(p.region, (Box{{0, 63}, {0, 15}}));
    ASSERT_EQ(p.tilings.size(), 2u);
    EXPECT_EQ(p.tilings[0].threads, (std::vector<int64_t>{16, 8}));
    EXPECT_EQ(p.tilings[0].serial, (std::vector<int64_t>{4, 2}));
    EXPECT_EQ(p.tilings[1].threads, (std::vector<int64_t>{1, 16, 8}));
    EXPECT_EQ(p.tilings[1].serial, (std::vector<int64_t>{64, 4, 2}));
    EXPECT_EQ(p.realizations, 4); // once per block of output
    std::ostringstream nest;
    s->printLoopNest(nest);
    EXPECT_NE(nest.str().find("allocate prod @shared\n"), std::string::npos) << nest.str();
    EXPECT_NE(nest.str().find("  for prod x:16, y:8 @thread\n"
                              "    for prod x:4, y:2 @serial, unrolled\n"),
              std::string::npos)
        << nest.str();
    EXPECT_NE(nest.str().find("  for prod.update(0) r$x:1, x:16, y:8 @thread\n"
                              "    for prod.update(0) r$x:64, x:4, y:2 @serial, pure loops "
                              "unrolled\n"),
              std::string::npos)
        << nest.str();
}

TEST(BlockLevelUpdate, TheSearchAndPinsOfferTheBlockLevelOfARootTiledConsumer) {
    auto dag = matmulDag();
    const int prod = dag->find("prod"), output = dag->find("output");
    const StatePtr parent = rootTiled(ScheduleState::initial(dag), "output", {16, 4}, {4, 4});
    EXPECT_TRUE(parent->canFuse(prod, output, LoopLevel::Block));
    const SearchSpace space(GpuSpec::load("v100"), SearchSpaceOptions{});
    const std::vector<std::string> labels = locationLabels(space, *parent, prod);
    EXPECT_NE(std::find(labels.begin(), labels.end(), "block of output serial 4x2"), labels.end());
    // 8x8 serial points per thread are more than the search unrolls.
    EXPECT_EQ(std::find(labels.begin(), labels.end(), "block of output serial 8x8"), labels.end());

    Pin pin;
    pin.func = "prod";
    pin.host = "output";
    pin.location = ComputeKind::Block;
    pin.serial = {4, 2};
    EXPECT_NO_THROW(resolvePins({pin}, *dag, GpuSpec::load("v100")));
    // iir_blur's scans read the row before the one they write: root only. (bilateral_grid's
    // histogram, which scatters: BlockLevelScatterTest.)
    auto iir = std::make_shared<const FunctionDAG>(buildApp("iir_blur", {}));
    pin.func = "blur_y_blur";
    pin.host = "blur_y_transpose";
    pin.serial = {};
    try {
        resolvePins({pin}, *iir, GpuSpec::load("v100"));
        ADD_FAILURE() << "a block-level pin of an IIR scan was accepted";
    } catch (const Error &e) {
        EXPECT_NE(std::string(e.what()).find("write other points than their own"),
                  std::string::npos)
            << e.what();
    }
}

TEST(BlockLevelUpdate, HalideRunsTheUpdateOnTheBlocksThreadsInSharedMemory) {
    const std::string stmt = matmulStmt(*sharedMemoryMatmul(matmulDag()));

    // prod's 64x16 floats per block in shared memory, inside output's block loops.
    const size_t blocks = stmt.find("gpu_block<CUDA>", stmt.find("produce output"));
    ASSERT_NE(blocks, std::string::npos) << stmt;
    const size_t alloc = stmt.find("allocate prod.0[float32 * 1024] in GPUShared", blocks);
    ASSERT_NE(alloc, std::string::npos) << stmt;
    // Both stages on the block's 16x8 threads (Halide merges the stages' thread loops, a
    // barrier between them), the initialisation's 4x2 points unrolled, then the update's RVar
    // a loop with its 4x2 points unrolled inside.
    const size_t threads = stmt.find("gpu_thread<CUDA> (.thread_id_y, 0, 8)", alloc);
    ASSERT_NE(threads, std::string::npos) << stmt;
    EXPECT_NE(stmt.find("gpu_thread<CUDA> (.thread_id_x, 0, 16)", threads), std::string::npos)
        << stmt;
    const size_t init = stmt.find("produce prod", threads);
    const size_t barrier = stmt.find("gpu_thread_barrier", init);
    const size_t rvar = stmt.find("for (prod.s1.r$x, 0, 64)", barrier);
    EXPECT_NE(init, std::string::npos) << stmt;
    EXPECT_NE(barrier, std::string::npos) << stmt;
    EXPECT_NE(rvar, std::string::npos) << stmt;
    EXPECT_EQ(stmt.find("for (prod.s0"), std::string::npos) << stmt;
    EXPECT_EQ(stmt.find("for (prod.s1.x"), std::string::npos) << stmt;
    EXPECT_EQ(stmt.find("for (prod.s1.y"), std::string::npos) << stmt;
}

namespace {

/// The features of prod's update computed in shared memory with `serial` points per thread,
/// lowered with the unroll limit `maxUnrolledPoints`.
StageFeatures sharedUpdateFeatures(const std::vector<int64_t> &serial,
                                   int64_t maxUnrolledPoints = kMaxUnrolledPoints) {
    auto dag = matmulDag();
    const StatePtr s = sharedMemoryMatmul(dag, serial, maxUnrolledPoints);
    Featurizer featurizer(GpuSpec::load("h100"), false);
    // A copy: the rows live only as long as featurize's result.
    std::optional<StageFeatures> update;
    for (const auto &kernel : featurizer.featurize(*s)) {
        for (const StageFeatureRow &row : *kernel) {
            if (row.node == dag->find("prod") && row.stage == 1) update = row.features;
        }
    }
    EXPECT_TRUE(update.has_value());
    return update.value_or(StageFeatures{});
}

} // namespace

// Unrolled serial points stay in registers across the RVar loop (one load before it, one store
// after it: LLVM promotes constant offsets; benchmarks/ptx_accumulators.py shows it in Halide's
// PTX); a rolled serial loop reads and writes its shared points at every RVar iteration.
TEST(BlockLevelUpdate, TheUpdateReadsAndWritesItsSharedPointsPerRVarIterationOnlyWhenRolled) {
    using F = Feature;
    const StageFeatures unrolled = sharedUpdateFeatures({4, 2});
    // Once per block (4 blocks), 64x16 floats in shared memory per block.
    EXPECT_EQ(unrolled[F::num_realizations], 4);
    EXPECT_EQ(unrolled[F::shared_bytes_at_task], 64 * 16 * 4);
    EXPECT_DOUBLE_EQ(unrolled[F::shared_mem_occupancy],
                     64.0 * 16 * 4 / GpuSpec::load("h100").sharedMemoryPerBlockBytes);
    // 16x8 threads are 4 warps; a warp's 16x2 lanes with 4x2 points each cover 64x4 floats:
    // 1024 bytes, 8 transactions of 32 banks x 4 bytes, times 4-way bank conflicts (lanes 4
    // floats apart); 8 unrolled points are stored once, and loaded once.
    EXPECT_EQ(unrolled[F::num_shared_mem_stores_per_block], 4 * 8 * 4);
    EXPECT_EQ(unrolled[F::num_shared_mem_loads_per_block], 4 * 8 * 4);
    // 4x4 = 16 points per thread are unrolled too (up to 16, as Anderson2021): 16x4 threads are
    // 2 warps, a warp's 16x2 lanes cover 64x8 floats (16 transactions, the same 4-way
    // conflicts), stored once and loaded once.
    const StageFeatures sixteen = sharedUpdateFeatures({4, 4});
    EXPECT_EQ(sixteen[F::num_shared_mem_stores_per_block], 2 * 16 * 4);
    EXPECT_EQ(sixteen[F::num_shared_mem_loads_per_block], 2 * 16 * 4);
    // Under the legacy limit (fewer than 16 points; rows measured before) the 16 points are a
    // rolled loop: the same transactions at every one of the 64 RVar iterations, and as many
    // loads.
    const StageFeatures rolled = sharedUpdateFeatures({4, 4}, kLegacyMaxUnrolledPoints);
    EXPECT_EQ(rolled[F::num_shared_mem_stores_per_block], 2 * 16 * 4 * 64);
    EXPECT_EQ(rolled[F::num_shared_mem_loads_per_block], 2 * 16 * 4 * 64);
}

TEST(BlockLevelUpdate, TheStateComesBackFromTheFuncsItWasAppliedTo) {
    auto dag = matmulDag();
    const StatePtr s = sharedMemoryMatmul(dag);
    const ScheduleImport imported =
        importApplied(*s, buildApp("matmul", kSmallMatmul), Halide::Target("host-cuda"),
                      ScheduleCallOptions::forGpu(GpuSpec::load("h100")));
    ASSERT_TRUE(imported.state);
    EXPECT_EQ(imported.unrepresentable(), 0);
    EXPECT_EQ(scheduleToJson(*imported.state).dump(1), scheduleToJson(*s).dump(1));
}

TEST(BlockLevelUpdate, TheExportedHeaderLowersLikeTheApplier) {
    expectExportsLowerLikeTheApplier({{"schedule_shared_matmul",
                                       [] { return buildApp("matmul", kSmallMatmul); },
                                       sharedMemoryMatmul(matmulDag()),
                                       {}}});
}

TEST(BlockLevelUpdate, SharedMemoryMatmulRunsCorrectlyOnOpenCl) {
    ASSERT_TRUE(haveOpenCl()) << kNoOpenCl;
    const Measurement m = runOnOpenCl("shared-memory", {"matmul", "", {"m=64", "n=64", "k=64"}},
                                      *sharedMemoryMatmul(matmulDag()));
    ASSERT_FALSE(m.failed()) << m.failure;
    EXPECT_TRUE(m.correct.value_or(false));
    EXPECT_LE(m.maxError, 1e-3);
}
