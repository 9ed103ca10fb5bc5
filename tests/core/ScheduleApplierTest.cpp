// ScheduleApplier tests: the greedy schedule of every catalog app applies to a fresh instance
// and compiles for CUDA (compile only, no GPU needed); a hand-made stencil chain schedule lowers
// to the loop structure and storage it describes; mismatches and bad input are Errors.
#include "codegen/ScheduleApplier.h"

#include "ScheduleTestUtil.h"
#include "search/SearchEngine.h"
#include "util/Error.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace beamscope {
namespace {

using namespace beamscope::testing;

const Halide::Target &cudaTarget() {
    static const Halide::Target target("host-cuda-cuda_capability_70");
    return target;
}

StatePtr greedySchedule(const std::shared_ptr<const FunctionDAG> &dag) {
    SearchOptions options = SearchOptions::greedy();
    options.gpu = GpuSpec::load("v100");
    SearchEngine engine(dag, options);
    engine.run();
    if (!engine.best()) throw Error("greedy search found no schedule");
    return engine.best()->state;
}

/// The lowered statement before GPU loops are offloaded into kernels (PTX), so that the
/// block and thread loops and the allocations inside kernels are still visible.
std::string conceptualStmt(Halide::Pipeline p) {
    const std::filesystem::path file =
        std::filesystem::temp_directory_path() /
        ("beamscope-applier-" + std::to_string(::getpid()) + ".stmt");
    p.compile_to_conceptual_stmt(file.string(), p.infer_arguments(), Halide::StmtOutputFormat::Text,
                                 cudaTarget());
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    std::filesystem::remove(file);
    return text.str();
}

std::string stateDump(const ScheduleState &state) {
    std::ostringstream os;
    state.dump(os);
    return os.str();
}

// One test per app, so that CTest runs them in parallel.
class ScheduleApplierCatalog : public ::testing::TestWithParam<std::string> {};

TEST_P(ScheduleApplierCatalog, GreedyScheduleCompilesForCuda) {
    using Clock = std::chrono::steady_clock;
    using Ms = std::chrono::milliseconds;
    const std::string app = GetParam();
    const auto start = Clock::now();
    auto dag = std::make_shared<const FunctionDAG>(buildApp(app));
    const StatePtr state = greedySchedule(dag);
    const auto searched = Clock::now();
    PipelineInstance fresh = buildApp(app);
    ASSERT_NO_THROW(applySchedule(*state, fresh, cudaTarget())) << stateDump(*state);
    try {
        fresh.pipeline.compile_to_module(fresh.pipeline.infer_arguments(), "f", cudaTarget());
    } catch (const Halide::Error &e) {
        FAIL() << e.what() << "\nschedule:\n" << stateDump(*state);
    }
    const auto done = Clock::now();
    std::printf("  %s: greedy search %lld ms, apply + compile %lld ms\n", app.c_str(),
                (long long)std::chrono::duration_cast<Ms>(searched - start).count(),
                (long long)std::chrono::duration_cast<Ms>(done - searched).count());
}

std::vector<std::string> catalogNames() {
    std::vector<std::string> names;
    for (const AppDefinition &app : appCatalog())
        names.push_back(app.name);
    return names;
}

INSTANTIATE_TEST_SUITE_P(ScheduleApplier, ScheduleApplierCatalog,
                         ::testing::ValuesIn(catalogNames()),
                         [](const ::testing::TestParamInfo<std::string> &info) {
                             return info.param;
                         });

TEST(ScheduleApplier, HandMadeStencilChainLowersToItsLoopNest) {
    auto dag = stencilChainDag(3);
    const StatePtr state = handMadeStencilChain(dag);
    PipelineInstance fresh = buildApp("stencil_chain", kShortChain);
    applySchedule(*state, fresh, cudaTarget());
    const std::string stmt =
        std::regex_replace(conceptualStmt(fresh.pipeline), std::regex("\\$[0-9]+"), "");
    const auto at = [&](const std::string &text, size_t from = 0) {
        const size_t pos = stmt.find(text, from);
        EXPECT_NE(pos, std::string::npos) << "missing: " << text << "\n" << stmt;
        return pos;
    };
    // Every root Func is a kernel over its block and thread loops.
    for (const std::string f : {"stage_0", "stage_1"}) {
        at("gpu_block<CUDA> (" + f + ".s0.y.y_b.block_id_y");
        at("gpu_block<CUDA> (" + f + ".s0.x.x_b.block_id_x");
    }
    const size_t outputBlock = at("gpu_block<CUDA> (output.s0.x.x_b.block_id_x");
    // stage_3 (a 32x16 tile, read pointwise by output) and its producer stage_2 ((32+4) x
    // (16+4) points) live in shared memory, allocated per block outside the thread loops; Halide
    // groups the two allocations into one of 512 + 720 floats.
    const size_t shared =
        at("allocgroup__stage_2.0__stage_3.1[float32 * 1232] in GPUShared", outputBlock);
    // The block's threads are shared by its Funcs: as many rows as the widest, stage_2's 20.
    // (With constant tile sizes Halide merges the block's thread loops into shared ones.)
    at("gpu_thread<CUDA> (.thread_id_y, 0, 20)", shared);
    EXPECT_LT(stmt.find("produce stage_2", shared), stmt.find("produce stage_3", shared));
    EXPECT_LT(stmt.find("produce stage_3", shared), stmt.find("consume stage_3", shared));
    // Fused Funcs get no kernel of their own; output's 2x2 serial loops are unrolled.
    EXPECT_EQ(stmt.find("gpu_block<CUDA> (stage_3"), std::string::npos);
    EXPECT_EQ(stmt.find("gpu_block<CUDA> (stage_2"), std::string::npos);
    EXPECT_EQ(stmt.find("for (output.s0"), std::string::npos);
}

TEST(ScheduleApplier, SmallThreadLevelFuncIsUnrolledIntoRegisters) {
    auto dag = stencilChainDag(3);
    PipelineInstance fresh = buildApp("stencil_chain", kShortChain);
    applySchedule(*threadFusedStencilChain(dag), fresh, cudaTarget());
    const std::string stmt =
        std::regex_replace(conceptualStmt(fresh.pipeline), std::regex("\\$[0-9]+"), "");
    const size_t threads = stmt.find("gpu_thread<CUDA>", stmt.find("produce output"));
    ASSERT_NE(threads, std::string::npos) << stmt;
    EXPECT_NE(stmt.find("allocate stage_3.0[float32 * 1] in Register", threads), std::string::npos)
        << stmt;
    EXPECT_EQ(stmt.find("for (stage_3.s0"), std::string::npos) << stmt;
    const size_t shared = stmt.find("allocate stage_2.0[float32 * ");
    ASSERT_NE(shared, std::string::npos) << stmt;
    EXPECT_NE(stmt.find("in GPUShared", shared), std::string::npos);
}

TEST(ScheduleApplier, RejectsAnotherPipeline) {
    auto dag = stencilChainDag(3);
    const StatePtr state = handMadeStencilChain(dag);
    PipelineInstance longer =
        buildApp("stencil_chain", {{"length", 4}, {"width", 1536}, {"height", 2560}});
    EXPECT_THROW(applySchedule(*state, longer, cudaTarget()), Error);
    PipelineInstance other = buildApp("unsharp_mask");
    EXPECT_THROW(applySchedule(*state, other, cudaTarget()), Error);
}

TEST(ScheduleApplier, RejectsIncompleteStatesAndTargetsWithoutGpu) {
    auto dag = stencilChainDag(3);
    PipelineInstance fresh = buildApp("stencil_chain", kShortChain);
    EXPECT_THROW(applySchedule(*ScheduleState::initial(dag), fresh, cudaTarget()), Error);
    EXPECT_THROW(applySchedule(*handMadeStencilChain(dag), fresh, Halide::Target("host")), Error);
}

TEST(ScheduleApplier, WrapsHalideErrors) {
    // Scheduling the same instance twice splits loops that no longer exist: Halide rejects it,
    // and the applier reports a beamscope::Error naming the Func.
    auto dag = stencilChainDag(3);
    const StatePtr state = handMadeStencilChain(dag);
    PipelineInstance fresh = buildApp("stencil_chain", kShortChain);
    applySchedule(*state, fresh, cudaTarget());
    try {
        applySchedule(*state, fresh, cudaTarget());
        FAIL() << "applying a schedule twice should fail";
    } catch (const Error &e) {
        EXPECT_NE(std::string(e.what()).find("scheduling '"), std::string::npos) << e.what();
    }
}

} // namespace
} // namespace beamscope
