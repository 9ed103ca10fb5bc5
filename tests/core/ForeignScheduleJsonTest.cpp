// The Compare dock's import route: a schedule imported in the worker's --import mode comes back
// as the same ForeignSchedule an import in this process gives (Funcs, representability,
// constructs, the state), a cancelled import stops, and failures are one line.
#include "bench/ForeignScheduleJson.h"

#include "BenchTestUtil.h"
#include "dag/FunctionDAG.h"
#include "util/Error.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

namespace beamscope {
namespace {

std::shared_ptr<const FunctionDAG> dagOf(const PipelineSource &source) {
    return std::make_shared<const FunctionDAG>(loadPipeline(source));
}

/// The JSON of an import without the plugin's wall time, which differs run to run.
nlohmann::json withoutTime(nlohmann::json j) {
    j.erase("autoscheduler_ms");
    return j;
}

ChildImportOptions childOptions(const std::atomic<bool> *cancel = nullptr) {
    ChildImportOptions options;
    options.workerPath = testing::testWorker().workerPath;
    options.cancel = cancel;
    options.timeoutS = 600;
    return options;
}

TEST(ForeignScheduleJson, AnImportInTheWorkerIsTheImportInProcess) {
    // Mullapudi2016 on bilateral_grid leaves Funcs outside Beamscope's space (docs/import.md):
    // their constructs must come back too, not only a complete state.
    const PipelineSource grid{"bilateral_grid", "", {"width=128", "height=96"}};
    const PipelineSource chain{"stencil_chain", "", {"length=3", "width=128", "height=96"}};
    const GpuSpec gpu = GpuSpec::load("h100");
    for (const auto &[with, source] :
         {std::pair{std::string("mullapudi2016"), grid}, std::pair{std::string("li2018"), chain}}) {
        const ForeignSchedule here = importForeign(with, source, gpu);
        const auto dag = dagOf(source);
        const ForeignSchedule there = importForeignInChild(with, source, gpu, dag, childOptions());
        EXPECT_EQ(withoutTime(foreignScheduleToJson(there)),
                  withoutTime(foreignScheduleToJson(here)))
            << with;
        ASSERT_EQ(there.imported.funcs.size(), here.imported.funcs.size()) << with;
        for (const ImportedFunc &f : there.imported.funcs) {
            EXPECT_EQ(f.node, dag->find(f.name)) << f.name;
            EXPECT_EQ(f.placement.has_value(), f.representable && there.imported.state != nullptr)
                << f.name;
        }
        EXPECT_GT(there.autoschedulerMs, 0.0) << with;
    }
}

TEST(ForeignScheduleJson, BilateralGridUnderMullapudiNamesItsConstructs) {
    const PipelineSource grid{"bilateral_grid", "", {"width=128", "height=96"}};
    const ForeignSchedule there = importForeignInChild("mullapudi2016", grid, GpuSpec::load("h100"),
                                                       dagOf(grid), childOptions());
    int unrepresentable = 0;
    for (const ImportedFunc &f : there.imported.funcs) {
        if (f.representable) continue;
        ++unrepresentable;
        EXPECT_FALSE(f.constructs.empty()) << f.name << " is not representable and names nothing";
    }
    EXPECT_GT(unrepresentable, 0);
    EXPECT_EQ(there.imported.state, nullptr); // incomplete: no state
}

TEST(ForeignScheduleJson, ACancelledImportStopsTheWorker) {
    // Anderson2021 on local_laplacian at its default size searches for minutes: cancelled after
    // a second, the call ends with ImportCancelled instead of a schedule.
    const PipelineSource app{"local_laplacian", "", {}};
    std::atomic<bool> cancel{false};
    std::thread canceller([&] {
        std::this_thread::sleep_for(std::chrono::seconds(1));
        cancel = true;
    });
    EXPECT_THROW(importForeignInChild("anderson2021", app, GpuSpec::load("h100"), dagOf(app),
                                      childOptions(&cancel)),
                 ImportCancelled);
    canceller.join();
}

TEST(ForeignScheduleJson, FailuresAreOneLine) {
    const PipelineSource chain{"stencil_chain", "", {"length=3"}};
    const auto dag = dagOf(chain);
    const GpuSpec gpu = GpuSpec::load("h100");
    try {
        importForeignInChild("/nonexistent/schedule.json", chain, gpu, dag, childOptions());
        ADD_FAILURE() << "a missing file was imported";
    } catch (const Error &e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("/nonexistent/schedule.json"), std::string::npos) << what;
        EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
    ChildImportOptions noWorker = childOptions();
    noWorker.workerPath = "/nonexistent/beamscope-worker";
    EXPECT_THROW(importForeignInChild("li2018", chain, gpu, dag, noWorker), Error);
    // JSON of another shape is an Error, not a crash.
    EXPECT_THROW(foreignScheduleFromJson(nlohmann::json{{"what", "x"}}, dag), Error);
    nlohmann::json unknownFunc = {{"what", "x"},
                                  {"autoscheduler_ms", 0},
                                  {"schedule", nullptr},
                                  {"funcs",
                                   {{{"name", "no_such_func"},
                                     {"representable", false},
                                     {"constructs", {"c"}},
                                     {"differences", nlohmann::json::array()},
                                     {"theirs", ""},
                                     {"loops", ""},
                                     {"tails", ""},
                                     {"staged_into", nlohmann::json::array()}}}}};
    EXPECT_THROW(foreignScheduleFromJson(unknownFunc, dag), Error);
}

} // namespace
} // namespace beamscope
