// ScheduleSource tests: the exported header names every Func with its decision and cost share,
// and, compiled by the system compiler into a driver library, schedules a fresh pipeline to
// exactly the lowered statement that ScheduleApplier produces in process, for every catalog app.
#include "codegen/ScheduleSource.h"

#include "ExportRoundTrip.h"
#include "MeasurementStoreTestUtil.h"
#include "ScheduleTestUtil.h"
#include "pipeline/AppCatalog.h"
#include "schedule/ScheduleIO.h"
#include "search/SearchEngine.h"
#include "util/Error.h"

#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace beamscope {
namespace {

using namespace beamscope::testing;

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

TEST(ScheduleSource, AMeasuredScheduleIsExportedWithTheUnrollLimitItRanWith) {
    // Until the forty-ninth session a thread's loops were unrolled up to 15 points: the 2x8 tiles
    // of a bench report of then (no max_unrolled_points in its candidates) ran rolled, and an
    // export of that candidate must write them rolled; the same schedule measured now, or given
    // bare (the database's schedule column), is lowered with this build's limit, 16: unrolled.
    auto dag = stencilChainDag(1);
    const StatePtr state =
        placeRest(rootTiled(ScheduleState::initial(dag), "output", {16, 8}, {2, 8}));
    const nlohmann::json schedule = scheduleToJson(*state);
    TempDir dir;
    auto write = [&](const std::string &name, const nlohmann::json &json) {
        std::ofstream(dir.file(name)) << json.dump();
        return loadScheduleFile(dir.file(name));
    };
    const ScheduleFile legacy =
        write("legacy.json", {{"label", "beam 1"}, {"measured_ms", 0.5}, {"schedule", schedule}});
    const ScheduleFile current = write(
        "record.json", {{"schedule", schedule}, {"measurement", {{"max_unrolled_points", 16}}}});
    const ScheduleFile bare = write("bare.json", schedule);
    EXPECT_EQ(legacy.maxUnrolledPoints, 15);
    EXPECT_EQ(current.maxUnrolledPoints, 16);
    EXPECT_EQ(bare.maxUnrolledPoints, 16);
    EXPECT_EQ(legacy.schedule, schedule);
    auto outputUnrolls = [&](const ScheduleFile &file) {
        const std::string src =
            scheduleSource(*scheduleFromJson(dag, file.schedule, file.maxUnrolledPoints), nullptr,
                           "schedule_chain");
        const size_t output = src.find("    // output: ");
        const size_t next = src.find("    // ", output + 1);
        return src.substr(output, next - output).find(".unroll(") != std::string::npos;
    };
    EXPECT_FALSE(outputUnrolls(legacy));
    EXPECT_TRUE(outputUnrolls(current));
    EXPECT_TRUE(outputUnrolls(bare));
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

TEST(ScheduleSource, CompiledExportLowersLikeTheApplier) {
    // The greedy schedule of every catalog app at its default size (greedy fuses block loops
    // of conv_layer's 4-D output, runs histogram_equalize's scan on one thread, ...), with its
    // cost shares, and hand-made schedules of the short chain.
    std::vector<RoundTripCase> cases;
    for (const AppDefinition &app : appCatalog()) {
        const std::string name = app.name;
        auto dag = std::make_shared<const FunctionDAG>(buildApp(name));
        StateCost cost;
        const StatePtr state = greedySchedule(dag, "v100", &cost);
        cases.push_back({"schedule_" + name, [name] { return buildApp(name); }, state, cost});
    }
    const auto shortChain = [] { return buildApp("stencil_chain", kShortChain); };
    auto chain = std::make_shared<const FunctionDAG>(shortChain());
    cases.push_back({"schedule_hand_made", shortChain, handMadeStencilChain(chain), {}});
    cases.push_back({"schedule_thread_fused", shortChain, threadFusedStencilChain(chain), {}});
    // Producers staged in registers (paper 4.7): one at root, one inlined.
    cases.push_back({"schedule_staged", shortChain, stagedStencilChain(chain), {}});
    cases.push_back({"schedule_staged_inline", shortChain, stagedStencilChain(chain, true), {}});
    ASSERT_EQ(cases.size(), appCatalog().size() + 4);
    expectExportsLowerLikeTheApplier(cases);
}

/// Two inputs each behind BoundaryConditions::repeat_edge: two Funcs named "repeat_edge", as
/// in most user pipelines with more than one input.
PipelineInstance twoEdgeRepeats() {
    Halide::ImageParam a(Halide::Float(32), 2, "a"), b(Halide::Float(32), 2, "b");
    Halide::Var x("x"), y("y");
    Halide::Func edgeA = Halide::BoundaryConditions::repeat_edge(a);
    Halide::Func edgeB = Halide::BoundaryConditions::repeat_edge(b);
    Halide::Func out("shifted_sum");
    out(x, y) = edgeA(x - 1, y) + edgeB(x + 1, y + 1) * 2.0f;
    a.set_estimates({{0, 256}, {0, 128}});
    b.set_estimates({{0, 256}, {0, 128}});
    out.set_estimates({{0, 256}, {0, 128}});
    PipelineInstance instance;
    instance.name = "two_edge_repeats";
    instance.pipeline = Halide::Pipeline(out);
    instance.inputs = {a.parameter(), b.parameter()};
    return instance;
}

TEST(ScheduleSource, FuncsOfOneNameAreNumberedAndFoundByTheExport) {
    auto dag = std::make_shared<const FunctionDAG>(twoEdgeRepeats());
    EXPECT_GE(dag->find("repeat_edge"), 0);
    EXPECT_GE(dag->find("repeat_edge#2"), 0);
    EXPECT_NE(dag->find("repeat_edge"), dag->find("repeat_edge#2"));
    StateCost cost;
    const StatePtr state = greedySchedule(dag, "v100", &cost);
    EXPECT_NE(scheduleSource(*state, &cost, "schedule_two_edge_repeats").find("\"repeat_edge#2\""),
              std::string::npos);
    expectExportsLowerLikeTheApplier({{"schedule_two_edge_repeats", twoEdgeRepeats, state, cost}});
}

} // namespace
} // namespace beamscope
