// ScheduleApplier tests: the greedy schedule of every catalog app applies to a fresh instance
// and compiles for CUDA (compile only, no GPU needed); a hand-made stencil chain schedule lowers
// to the loop structure and storage it describes; producers are staged in registers exactly
// where the rule of paper 4.7 says (ProducerStaging); mismatches and bad input are Errors.
#include "codegen/ScheduleApplier.h"

#include "ConceptualStmt.h"
#include "ScheduleTestUtil.h"
#include "pipeline/apps/Apps.h"
#include "search/SearchEngine.h"
#include "util/Error.h"

#include <gtest/gtest.h>

#include <chrono>
#include <regex>
#include <sstream>

namespace beamscope {
namespace {

using namespace beamscope::testing;

const Halide::Target &cudaTarget() {
    static const Halide::Target target("host-cuda-cuda_capability_70");
    return target;
}

/// The conceptual statement (ConceptualStmt.h) of `state` applied to the short stencil chain.
std::string loweredStmt(const ScheduleState &state, const ScheduleCallOptions &options = {}) {
    PipelineInstance fresh = buildApp("stencil_chain", kShortChain);
    applySchedule(state, fresh, cudaTarget(), options);
    return conceptualStmtText(fresh.pipeline, cudaTarget());
}

/// The wrapper allocations ("stage_2_in_stage_3") of a lowered statement, in order.
std::vector<std::string> stagedAllocations(const std::string &stmt) {
    std::vector<std::string> found;
    const std::regex allocation("allocate (\\w+_in_\\w+)\\.0\\[");
    for (auto it = std::sregex_iterator(stmt.begin(), stmt.end(), allocation);
         it != std::sregex_iterator(); ++it) {
        found.push_back((*it)[1]);
    }
    return found;
}

/// The calls of `name`'s Func in `calls`.
const FuncCalls &callsOf(const std::vector<FuncCalls> &calls, const FunctionDAG &dag,
                         const std::string &name) {
    for (const FuncCalls &fc : calls) {
        if (fc.node == dag.find(name)) return fc;
    }
    throw Error("no calls for " + name);
}

int countCalls(const std::vector<FuncCalls> &calls, CallKind kind) {
    int n = 0;
    for (const FuncCalls &fc : calls) {
        for (const ScheduleCall &c : fc.calls)
            n += c.kind == kind;
    }
    return n;
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
    const StatePtr state = greedySchedule(dag, "v100");
    const auto searched = Clock::now();
    const int staged = countCalls(scheduleCalls(*state), CallKind::StageIn);
    PipelineInstance fresh = buildApp(app);
    ASSERT_NO_THROW(applySchedule(*state, fresh, cudaTarget())) << stateDump(*state);
    try {
        fresh.pipeline.compile_to_module(fresh.pipeline.infer_arguments(), "f", cudaTarget());
    } catch (const Halide::Error &e) {
        FAIL() << e.what() << "\nschedule:\n" << stateDump(*state);
    }
    const auto done = Clock::now();
    std::printf("  %s: greedy search %lld ms, apply + compile %lld ms, %d staged producers\n",
                app.c_str(), (long long)std::chrono::duration_cast<Ms>(searched - start).count(),
                (long long)std::chrono::duration_cast<Ms>(done - searched).count(), staged);
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
    const std::string stmt = conceptualStmtText(fresh.pipeline, cudaTarget());
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
    // Nothing is staged: output reads stage_3 once per point (no reuse), and block-level Funcs'
    // tiles are guarded (no constant size).
    EXPECT_EQ(stagedAllocations(stmt), std::vector<std::string>{});
}

TEST(ScheduleApplier, SmallThreadLevelFuncIsUnrolledIntoRegisters) {
    auto dag = stencilChainDag(3);
    PipelineInstance fresh = buildApp("stencil_chain", kShortChain);
    applySchedule(*threadFusedStencilChain(dag), fresh, cudaTarget());
    const std::string stmt = conceptualStmtText(fresh.pipeline, cudaTarget());
    const size_t threads = stmt.find("gpu_thread<CUDA>", stmt.find("produce output"));
    ASSERT_NE(threads, std::string::npos) << stmt;
    EXPECT_NE(stmt.find("allocate stage_3.0[float32 * 1] in Register", threads), std::string::npos)
        << stmt;
    EXPECT_EQ(stmt.find("for (stage_3.s0"), std::string::npos) << stmt;
    const size_t shared = stmt.find("allocate stage_2.0[float32 * ");
    ASSERT_NE(shared, std::string::npos) << stmt;
    EXPECT_NE(stmt.find("in GPUShared", shared), std::string::npos);
}

TEST(ScheduleApplier, StagesAStencilProducerInRegistersAtTheThreadLevel) {
    auto dag = stencilChainDag(3);
    const std::string stmt = loweredStmt(*stagedStencilChain(dag));
    // stage_3's 2x2 tile per thread reads stage_2 (global) through a 6x6 register copy made
    // inside the thread loops, its loops unrolled (Halide splits the kernel in a main and a
    // last-tile version, hence two). Nothing else is staged.
    const size_t kernel = stmt.find("gpu_block<CUDA> (stage_3.s0.y.y_b.block_id_y");
    ASSERT_NE(kernel, std::string::npos) << stmt;
    const size_t threads = stmt.find("gpu_thread<CUDA> (.thread_id_x, 0, 16)", kernel);
    ASSERT_NE(threads, std::string::npos) << stmt;
    const size_t copy =
        stmt.find("allocate stage_2_in_stage_3.0[float32 * 36] in Register", threads);
    ASSERT_NE(copy, std::string::npos) << stmt;
    EXPECT_LT(copy, stmt.find("consume stage_2_in_stage_3", copy));
    EXPECT_EQ(stmt.find("for (stage_2_in_stage_3"), std::string::npos) << stmt;
    EXPECT_EQ(stagedAllocations(stmt),
              (std::vector<std::string>{"stage_2_in_stage_3", "stage_2_in_stage_3"}));

    // The switch turns it off.
    ScheduleCallOptions off;
    off.stageProducers = false;
    EXPECT_EQ(stagedAllocations(loweredStmt(*stagedStencilChain(dag), off)),
              std::vector<std::string>{});
}

// Halide's Anderson2021 unrolls a thread's tile of up to 16 points, and so does Beamscope: a
// 2 x 8 tile of stage_3 lowers to straight-line code, which can read stage_2 through one 6 x 12
// register copy where the budget holds its 288 bytes. Lowered with the legacy limit (fewer
// than 16 points), as rows measured before were, the tile is a serial loop and nothing is
// staged (the copy needs constant indices).
TEST(ScheduleApplier, ASixteenPointTileIsUnrolled) {
    auto dag = stencilChainDag(3);
    auto chain = [&](int64_t maxUnrolledPoints) {
        StatePtr s = ScheduleState::initial(dag, maxUnrolledPoints);
        s = rootTiled(s, "output", {32, 8}, {1, 1});
        s = rootTiled(s, "stage_3", {16, 2}, {2, 8});
        return placeRest(s);
    };
    ScheduleCallOptions budget;
    budget.registerBytesPerThread = 6 * 12 * 4;
    const std::string unrolled = loweredStmt(*chain(kMaxUnrolledPoints), budget);
    EXPECT_EQ(unrolled.find("for (stage_3.s0"), std::string::npos) << unrolled;
    EXPECT_NE(unrolled.find("allocate stage_2_in_stage_3.0[float32 * 72] in Register"),
              std::string::npos)
        << unrolled;
    EXPECT_EQ(loweredStmt(*chain(kMaxUnrolledPoints)).find("for (stage_3.s0"), std::string::npos);

    const std::string rolled = loweredStmt(*chain(kLegacyMaxUnrolledPoints), budget);
    EXPECT_NE(rolled.find("for (stage_3.s0"), std::string::npos) << rolled;
    EXPECT_EQ(stagedAllocations(rolled), std::vector<std::string>{});
}

TEST(ScheduleApplier, StagesAnInlinedProducerByComputingItOncePerThread) {
    // Inlined, stage_2 is evaluated at each of stage_3's 100 loads per thread; staged, its copy
    // computes the 6x6 points once, reading stage_1.
    auto dag = stencilChainDag(3);
    const std::vector<FuncCalls> calls = scheduleCalls(*stagedStencilChain(dag, true));
    const FuncCalls &stage2 = callsOf(calls, *dag, "stage_2");
    ASSERT_EQ(stage2.calls.size(), 8u);
    EXPECT_EQ(stage2.calls[0].kind, CallKind::ComputeInline);
    EXPECT_EQ(stage2.calls[1].kind, CallKind::StageIn);
    EXPECT_EQ(stage2.calls[1].host, dag->find("stage_3"));
    EXPECT_EQ(stage2.calls[2].kind, CallKind::ComputeAt);
    EXPECT_EQ(stage2.calls[2].vars, (std::vector<CallVar>{{"x_t", false}}));
    EXPECT_EQ(stage2.calls[3].memory, MemoryType::Register);
    EXPECT_EQ(stage2.calls[4].kind, CallKind::BoundExtent);
    EXPECT_EQ(stage2.calls[4].factor, 6);
    EXPECT_EQ(stage2.decision, "inline; staged in registers of stage_3 (6x6 per thread)");

    const std::string stmt = loweredStmt(*stagedStencilChain(dag, true));
    const size_t copy = stmt.find("allocate stage_2_in_stage_3.0[float32 * 36] in Register");
    ASSERT_NE(copy, std::string::npos) << stmt;
    const size_t produce = stmt.find("produce stage_2_in_stage_3", copy);
    EXPECT_LT(stmt.find("stage_1[", produce), stmt.find("consume stage_2_in_stage_3", produce));
}

TEST(ScheduleApplier, StagesOnlyWithinTheRegisterBudget) {
    // The 6x6 float copy takes 144 bytes; the thread-level stage_3 of the thread-fused chain has
    // no serial tile, so nothing is staged there at any budget.
    auto dag = stencilChainDag(3);
    ScheduleCallOptions options;
    options.registerBytesPerThread = 144;
    EXPECT_EQ(countCalls(scheduleCalls(*stagedStencilChain(dag), options), CallKind::StageIn), 1);
    options.registerBytesPerThread = 143;
    EXPECT_EQ(countCalls(scheduleCalls(*stagedStencilChain(dag), options), CallKind::StageIn), 0);
    options.registerBytesPerThread = 1 << 20;
    EXPECT_EQ(countCalls(scheduleCalls(*threadFusedStencilChain(dag), options), CallKind::StageIn),
              0);
    // The default budget is the search's (GpuSpec::registersPerThreadMax bytes).
    EXPECT_EQ(ScheduleCallOptions().registerBytesPerThread,
              ScheduleCallOptions::forGpu(GpuSpec::defaultSpec()).registerBytesPerThread);
}

TEST(ScheduleApplier, StagesOnlyFootprintsOfOneSizeInEveryThread) {
    // output reads producer at x - 1, x + 1 and, with `slice`, at channel 0 instead of c: the
    // hull of c and 0 then has c + 1 channels, a size that depends on the thread's tile, which
    // a copy of constant extent cannot hold. Without it, the 6x2x1 footprint of a 4x2 tile is
    // staged (24 loads).
    for (bool slice : {false, true}) {
        SCOPED_TRACE(slice ? "slice" : "translated");
        using namespace Halide;
        ImageParam input = apps::estimatedInput(Float(32), "input", {64, 48, 3});
        Var x("x"), y("y"), c("c");
        Func producer("producer"), output("output");
        producer(x, y, c) = input(x, y, c) * 2.0f;
        output(x, y, c) = producer(x - 1, y, c) + producer(x + 1, y, c) + producer(x, y, slice ? Expr(0) : Expr(c));
        apps::setOutputEstimates(output, {64, 48, 3});
        auto dag = std::make_shared<const FunctionDAG>(apps::makeInstance("slice", {output}, {input}, {}));
        const StatePtr state = placeRest(rootTiled(ScheduleState::initial(dag), "output", {16, 2, 1}, {4, 2, 1}));
        EXPECT_EQ(countCalls(scheduleCalls(*state), CallKind::StageIn), slice ? 0 : 1) << stateDump(*state);
    }
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
