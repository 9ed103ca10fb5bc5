// ScheduleSource tests: the exported header names every Func with its decision and cost share,
// and, compiled by the system compiler into a driver library, schedules a fresh pipeline to
// exactly the lowered statement that ScheduleApplier produces in process.
#include "codegen/ScheduleSource.h"

#include "ExportRoundTrip.h"
#include "ScheduleTestUtil.h"
#include "codegen/ScheduleApplier.h"
#include "search/SearchEngine.h"
#include "util/Error.h"
#include "util/HalideInstall.h"

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

namespace beamscope {
namespace {

namespace fs = std::filesystem;
using namespace beamscope::testing;

StatePtr greedySchedule(const std::shared_ptr<const FunctionDAG> &dag, StateCost *cost = nullptr) {
    SearchOptions options = SearchOptions::greedy();
    options.gpu = GpuSpec::load("v100");
    SearchEngine engine(dag, options);
    engine.run();
    if (!engine.best()) throw Error("greedy search found no schedule");
    if (cost) *cost = engine.best()->cost;
    return engine.best()->state;
}

TEST(ScheduleSource, ExportNamesEveryFuncWithDecisionAndCostShare) {
    auto dag = stencilChainDag(3);
    const StatePtr state = handMadeStencilChain(dag);
    StateCost cost;
    cost.total = 8.0;
    StageCost outputCost;
    outputCost.node = dag->find("output");
    outputCost.stage = 0;
    outputCost.terms[size_t(CostTerm::Compute)] = 2.0;
    cost.stages.push_back(outputCost);

    const std::string src = scheduleSource(*state, &cost, "schedule_chain");
    EXPECT_NE(src.find("#ifndef BEAMSCOPE_SCHEDULE_SCHEDULE_CHAIN_H"), std::string::npos) << src;
    EXPECT_NE(src.find("#include \"Halide.h\""), std::string::npos);
    EXPECT_NE(src.find("inline void schedule_chain(Halide::Pipeline pipeline) {"),
              std::string::npos);
    for (const Node &n : dag->nodes()) {
        if (n.isInput) continue;
        EXPECT_NE(src.find("find_func(\"" + n.name + "\")"), std::string::npos) << n.name;
        EXPECT_NE(src.find("    // " + n.name + ": "), std::string::npos) << n.name;
    }
    EXPECT_NE(src.find("// output: root: blocks 48x160, threads 16x8, serial 2x2; 25.0% of the "
                       "predicted cost"),
              std::string::npos)
        << src;
    EXPECT_NE(src.find("// stage_3: block level of output, shared memory"), std::string::npos);
    EXPECT_NE(src.find("// stage_2: block level of output, shared memory"), std::string::npos)
        << src;
    EXPECT_NE(src.find("stage_3.compute_at(output, x_b)"), std::string::npos) << src;
    EXPECT_NE(src.find(".store_in(MemoryType::GPUShared)"), std::string::npos);
    // Without a cost there is no share.
    const std::string plain = scheduleSource(*state, nullptr, "schedule_chain");
    EXPECT_EQ(plain.find("predicted cost"), std::string::npos);
}

TEST(ScheduleSource, ExportStagesProducersWithTheirWrappers) {
    auto dag = stencilChainDag(3);
    const StatePtr state = stagedStencilChain(dag);
    const std::string src = scheduleSource(*state, nullptr, "schedule_chain");
    EXPECT_NE(src.find("// stage_2: root: blocks 49x321, threads 32x8, serial 1x1; staged in "
                       "registers of stage_3 (6x6 per thread)"),
              std::string::npos)
        << src;
    // The wrapper's statement follows stage_2's own and chains its calls.
    const size_t own = src.find("stage_2.compute_root()");
    const size_t wrapper = src.find("stage_2.in(stage_3)\n"
                                    "            .compute_at(stage_3, x_t)\n"
                                    "            .store_in(MemoryType::Register)\n"
                                    "            .bound_extent(x, 6)\n"
                                    "            .unroll(x)\n"
                                    "            .bound_extent(y, 6)\n"
                                    "            .unroll(y);");
    ASSERT_NE(own, std::string::npos) << src;
    EXPECT_NE(wrapper, std::string::npos) << src;
    EXPECT_LT(own, wrapper);
    // One wrapper only, and none with the switch off.
    EXPECT_EQ(src.find(".in(", wrapper + 8), std::string::npos) << src;
    ScheduleCallOptions off;
    off.stageProducers = false;
    const std::string plain = scheduleSource(*state, nullptr, "schedule_chain", off);
    EXPECT_EQ(plain.find(".in("), std::string::npos) << plain;
    EXPECT_EQ(plain.find("staged"), std::string::npos) << plain;
}

TEST(ScheduleSource, RejectsNamesThatAreNotIdentifiers) {
    auto dag = stencilChainDag(3);
    const StatePtr state = handMadeStencilChain(dag);
    EXPECT_THROW(scheduleSource(*state, nullptr, "2fast"), UsageError);
    EXPECT_THROW(scheduleSource(*state, nullptr, "my-schedule"), UsageError);
    EXPECT_THROW(scheduleSource(*state, nullptr, "int"), UsageError);
    EXPECT_THROW(scheduleSource(*ScheduleState::initial(dag), nullptr, "f"), Error);
}

/// One pipeline whose exported schedule is compiled and compared with the applier.
struct Case {
    std::string app;
    AppParams params;
    std::string function;
    /// A hand-made schedule of the short chain; the greedy schedule when empty.
    std::function<StatePtr(const std::shared_ptr<const FunctionDAG> &)> handMade;
    StatePtr state;
};

TEST(ScheduleSource, CompiledExportLowersLikeTheApplier) {
    using Clock = std::chrono::steady_clock;
    const auto stagedInline = [](const std::shared_ptr<const FunctionDAG> &dag) {
        return stagedStencilChain(dag, true);
    };
    std::vector<Case> cases = {
        {"stencil_chain", {}, "schedule_stencil_chain", nullptr, nullptr},
        {"unsharp_mask", {}, "schedule_unsharp_mask", nullptr, nullptr},
        {"matmul", {}, "schedule_matmul", nullptr, nullptr},
        // Greedy fuses block loops here (4-D) ...
        {"conv_layer", {}, "schedule_conv_layer", nullptr, nullptr},
        // ... and runs a scan (an RVar-only update) on one thread here.
        {"histogram_equalize", {}, "schedule_histogram", nullptr, nullptr},
        {"stencil_chain", kShortChain, "schedule_hand_made", handMadeStencilChain, nullptr},
        {"stencil_chain", kShortChain, "schedule_thread_fused", threadFusedStencilChain, nullptr},
        // Producers staged in registers (paper 4.7): one at root, one inlined.
        {"stencil_chain", kShortChain, "schedule_staged",
         [](const auto &dag) { return stagedStencilChain(dag); }, nullptr},
        {"stencil_chain", kShortChain, "schedule_staged_inline", stagedInline, nullptr}};
    ExportDir dir;
    std::string driver = "// Driver: the exported schedules, callable from the test.\n";
    for (Case &c : cases) {
        auto dag = std::make_shared<const FunctionDAG>(buildApp(c.app, c.params));
        StateCost cost;
        c.state = c.handMade ? c.handMade(dag) : greedySchedule(dag, &cost);
        const std::string header = c.function + ".h";
        std::ofstream(dir.path / header)
            << scheduleSource(*c.state, c.handMade ? nullptr : &cost, c.function);
        driver += "#include \"" + header + "\"\n";
    }
    for (const Case &c : cases) {
        driver += "extern \"C\" void call_" + c.function + "(Halide::Pipeline *p) { " + c.function +
                  "(*p); }\n";
    }
    std::ofstream(dir.path / "driver.cpp") << driver;

    const fs::path library = dir.path / "libdriver.so";
    const auto start = Clock::now();
    const std::string failure = compileDriver(dir.path / "driver.cpp", library);
    const auto compiled = Clock::now();
    ASSERT_EQ(failure, "");
    std::printf(
        "  compiling the exported schedules took %lld ms\n",
        (long long)std::chrono::duration_cast<std::chrono::milliseconds>(compiled - start).count());

    void *handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(handle, nullptr) << dlerror();
    for (const Case &c : cases) {
        SCOPED_TRACE(c.function);
        using Apply = void (*)(Halide::Pipeline *);
        auto apply = reinterpret_cast<Apply>(dlsym(handle, ("call_" + c.function).c_str()));
        ASSERT_NE(apply, nullptr) << dlerror();

        const fs::path viaApplier = dir.path / (c.function + ".applier.stmt");
        const fs::path viaSource = dir.path / (c.function + ".source.stmt");
        const fs::path error = dir.path / (c.function + ".error");
        ASSERT_EQ(runInChild(
                      [&] {
                          PipelineInstance fresh = buildApp(c.app, c.params);
                          applySchedule(*c.state, fresh, cudaTarget());
                          writeLoweredStmt(fresh.pipeline, viaApplier);
                      },
                      error),
                  0)
            << readFile(error);
        ASSERT_EQ(runInChild(
                      [&] {
                          PipelineInstance fresh = buildApp(c.app, c.params);
                          // The applier analyzes the fresh pipeline, which uses up unique
                          // names; do the same so that both sides name things alike.
                          const FunctionDAG same(fresh);
                          apply(&fresh.pipeline);
                          writeLoweredStmt(fresh.pipeline, viaSource);
                      },
                      error),
                  0)
            << readFile(error);
        const std::string expected = readFile(viaApplier);
        EXPECT_GT(expected.size(), 1000u);
        EXPECT_EQ(firstDifference(expected, readFile(viaSource)), "");
    }
    dlclose(handle);
}

} // namespace
} // namespace beamscope
