// A Func with updates at the thread level of its consumer (paper 6.2: the unrolled block of
// accumulators of a fast matrix multiply): which updates qualify, that the search offers the
// placement, that Halide lowers it to registers accumulated inside the RVar loop, and that it
// runs correctly on the OpenCL device (PoCL here).
#include "BenchTestUtil.h"
#include "ScheduleTestUtil.h"
#include "SmallMatmul.h"

#include "codegen/ScheduleApplier.h"
#include "measure/WorkerRunner.h"
#include "pipeline/PipelineSource.h"
#include "search/Pins.h"
#include "search/SearchSpace.h"
#include "util/Error.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

using namespace beamscope;
using namespace beamscope::testing;

namespace {

/// output at root (16x4 threads, 4x4 serial per thread), prod at output's thread level, the
/// input wrappers inlined.
StatePtr registerBlockedMatmul(const std::shared_ptr<const FunctionDAG> &dag) {
    StatePtr s = ScheduleState::initial(dag);
    s = rootTiled(s, "output", {16, 4}, {4, 4});
    s = s->withThread(dag->find("prod"), dag->find("output"));
    s = s->withInline(dag->find("A_im"));
    return s->withInline(dag->find("B_im"));
}

/// The Funcs of `dag` whose updates write and read only their own point.
std::set<std::string> pointwiseUpdateFuncs(const FunctionDAG &dag) {
    std::set<std::string> names;
    for (const Node &n : dag.nodes()) {
        if (n.pointwiseUpdates) names.insert(n.name);
    }
    return names;
}

/// The same for catalog `app` at its default sizes.
std::set<std::string> pointwiseUpdateFuncs(const std::string &app) {
    return pointwiseUpdateFuncs(FunctionDAG(buildApp(app, {})));
}

} // namespace

TEST(ThreadLevelUpdate, OnlyUpdatesThatWriteAndReadTheirOwnPointQualify) {
    // prod(x, y) += A(k, y) * B(x, k) and conv(c, x, y, n) += ...: each update writes the
    // point of its pure Vars and reads the Func only there.
    EXPECT_EQ(pointwiseUpdateFuncs("matmul"), std::set<std::string>{"prod"});
    EXPECT_EQ(pointwiseUpdateFuncs("conv_layer"), std::set<std::string>{"conv"});
    // histogram(x, y, clamp(...), c) += ...: a data-dependent point; hist_rows(bin(r), y)
    // += 1 likewise; cdf(r) = cdf(r - 1) + ...: an RVar names the point; IIR scans write
    // along an RVar too. hist(x) += hist_rows(x, r) sums at its own point.
    EXPECT_EQ(pointwiseUpdateFuncs("bilateral_grid"), std::set<std::string>{});
    EXPECT_EQ(pointwiseUpdateFuncs("histogram_equalize"), std::set<std::string>{"hist"});
    EXPECT_EQ(pointwiseUpdateFuncs("iir_blur"), std::set<std::string>{});
    // Funcs without updates never qualify.
    EXPECT_EQ(pointwiseUpdateFuncs("stencil_chain"), std::set<std::string>{});
}

TEST(ThreadLevelUpdate, TheSearchOffersTheThreadLevelOfARootTiledConsumer) {
    auto dag = matmulDag();
    const int prod = dag->find("prod"), output = dag->find("output");
    const StatePtr parent = rootTiled(ScheduleState::initial(dag), "output", {16, 4}, {4, 4});
    EXPECT_TRUE(parent->canFuse(prod, output, LoopLevel::Thread));
    const SearchSpace space(GpuSpec::load("v100"), SearchSpaceOptions{});
    const std::vector<std::string> labels = locationLabels(space, *parent, prod);
    // (The block level's options: BlockLevelUpdateTest.)
    EXPECT_EQ(labels.front(), "root");
    EXPECT_EQ(labels.back(), "thread of output");

    // Each stage runs over the thread's 4x4 tile; the update's RVar (k = 64) whole.
    const StatePtr blocked = registerBlockedMatmul(dag);
    const FuncPlacement &p = blocked->placement(prod);
    ASSERT_EQ(p.tilings.size(), 2u);
    EXPECT_EQ(p.tilings[0].serial, (std::vector<int64_t>{4, 4}));
    EXPECT_EQ(p.tilings[1].serial, (std::vector<int64_t>{64, 4, 4})); // r$x, x, y
    EXPECT_EQ(p.realizations, 64 * 64 / 16);
}

TEST(ThreadLevelUpdate, PinsAcceptTheThreadLevel) {
    auto dag = matmulDag();
    Pin pin;
    pin.func = "prod";
    pin.host = "output";
    pin.location = ComputeKind::Thread;
    EXPECT_NO_THROW(resolvePins({pin}, *dag, GpuSpec::load("v100")));
}

TEST(ThreadLevelUpdate, HalideAccumulatesTheTileInRegistersInsideTheRVarLoop) {
    const std::string stmt = matmulStmt(*registerBlockedMatmul(matmulDag()));

    const size_t threads = stmt.find("gpu_thread<CUDA>", stmt.find("produce output"));
    ASSERT_NE(threads, std::string::npos) << stmt;
    const size_t alloc = stmt.find("allocate prod.0[float32 * 16] in Register", threads);
    EXPECT_NE(alloc, std::string::npos) << stmt;
    // The update's one loop is its RVar; the 4x4 points inside it are unrolled (so that every
    // index into the registers is a constant), and so is the initialisation. The inputs are
    // read in place (A_im, B_im inlined).
    const size_t rvar = stmt.find("for (prod.s1.r$x", threads);
    EXPECT_NE(rvar, std::string::npos) << stmt;
    EXPECT_EQ(stmt.find("for (prod.s1.x"), std::string::npos) << stmt;
    EXPECT_EQ(stmt.find("for (prod.s1.y"), std::string::npos) << stmt;
    EXPECT_EQ(stmt.find("for (prod.s0"), std::string::npos) << stmt;
    EXPECT_EQ(stmt.find("allocate A_im"), std::string::npos) << stmt;
}

namespace {

/// The printed loop nest's line for `stage`'s serial loops ("for prod.update(0) ... @serial...").
std::string serialLine(const ScheduleState &state, const std::string &stage) {
    std::ostringstream text;
    for (const LoopNestPtr &k : state.kernels())
        k->print(text, state.dag());
    std::istringstream lines(text.str());
    for (std::string line; std::getline(lines, line);) {
        if (line.find("for " + stage + " ") != std::string::npos &&
            line.find("@serial") != std::string::npos)
            return line.substr(line.find_first_not_of(' '));
    }
    return "no serial line for " + stage + " in:\n" + text.str();
}

} // namespace

TEST(ThreadLevelUpdate, TheLoopNestSaysAnUpdatesRVarLoopsStaySerial) {
    auto dag = matmulDag();
    // At the thread level: the initialisation's 4x4 unrolled; the update's 4x4 pure points
    // unrolled inside its RVar, which stays a loop (the Halide lowering above).
    const StatePtr blocked = registerBlockedMatmul(dag);
    EXPECT_EQ(serialLine(*blocked, "prod"), "for prod x:4, y:4 @serial, unrolled");
    EXPECT_EQ(serialLine(*blocked, "prod.update(0)"),
              "for prod.update(0) r$x:64, x:4, y:4 @serial, pure loops unrolled");
    // At root with one point per thread nothing is unrolled but loops of one iteration: the
    // update's RVar loop is not called unrolled.
    StatePtr root = rootTiled(ScheduleState::initial(dag), "prod", {16, 4}, {1, 1});
    root = rootTiled(root, "output", {16, 4}, {1, 1});
    root = root->withInline(dag->find("A_im"))->withInline(dag->find("B_im"));
    EXPECT_EQ(serialLine(*root, "prod.update(0)"), "for prod.update(0) r$x:64, x:1, y:1 @serial");
    EXPECT_EQ(serialLine(*root, "output"), "for output x:1, y:1 @serial, unrolled");
}

TEST(ThreadLevelUpdate, RegisterBlockedMatmulRunsCorrectlyOnOpenCl) {
    ASSERT_TRUE(haveOpenCl()) << kNoOpenCl;
    const Measurement m = runOnOpenCl("register-blocked", {"matmul", "", {"m=64", "n=64", "k=64"}},
                                      *registerBlockedMatmul(matmulDag()));
    ASSERT_FALSE(m.failed()) << m.failure;
    EXPECT_TRUE(m.correct.value_or(false));
    EXPECT_LE(m.maxError, 1e-3);
}

TEST(ThreadLevelUpdate, UserAccumulatorsWithTwoUpdatesOrAPredicateRunCorrectlyOnOpenCl) {
    ASSERT_TRUE(haveOpenCl()) << kNoOpenCl;
    // acc's second update rescales its own point; tri's RDom predicate reads x. Both qualify,
    // and both at the thread level of a root-tiled output give the CPU reference's values.
    const PipelineSource source{"user_accumulators", BEAMSCOPE_TEST_USER_GENERATOR_LIB, {}};
    auto dag = std::make_shared<const FunctionDAG>(loadPipeline(source));
    EXPECT_EQ(pointwiseUpdateFuncs(*dag), (std::set<std::string>{"acc", "tri"}));

    StatePtr s = rootTiled(ScheduleState::initial(dag), "output", {16, 4}, {2, 2});
    s = s->withThread(dag->find("acc"), dag->find("output"));
    s = placeRest(s->withThread(dag->find("tri"), dag->find("output")));
    ASSERT_EQ(s->placement(dag->find("acc")).tilings.size(), 3u);
    EXPECT_EQ(serialLine(*s, "acc.update(1)"), "for acc.update(1) x:2, y:2 @serial, unrolled");

    const Measurement m = runOnOpenCl("user-accumulators", source, *s);
    ASSERT_FALSE(m.failed()) << m.failure;
    EXPECT_TRUE(m.correct.value_or(false));
    EXPECT_LE(m.maxError, 1e-3);
}
