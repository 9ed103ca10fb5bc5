// TrainingData: the held-out split is stable and near 1 in 8; the model comparison scores each
// model within each pipeline against hand-computed Kendall tau values, leaves out pipelines with
// fewer than two rows and averages per-pipeline tau for "overall"; its predictions CSV lists each
// ranked row with every model's prediction and rank. On a real SQLite file, a
// baseline's measured schedule becomes a training row only when asked, imported from the plugin,
// and one outside Beamscope's space is skipped with its reason; the features CSV marks such rows.
#include "tune/TrainingData.h"

#include "LearnedModelTestUtil.h"
#include "MeasurementStoreTestUtil.h"
#include "ScheduleTestUtil.h"
#include "bench/BaselineImport.h"
#include "cost/CostOf.h"
#include "pipeline/PipelineSource.h"
#include "schedule/ScheduleIO.h"
#include "store/Identity.h"
#include "tune/FeaturesCsv.h"
#include "tune/PredictionsCsv.h"
#include "util/Error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <tuple>

namespace beamscope {
namespace {

LabelledSchedule row(const std::string &pipeline, double analytic, double polymage,
                     double measured) {
    LabelledSchedule s;
    s.pipeline = pipeline;
    s.app = pipeline;
    s.row.group = pipeline;
    s.row.analyticMs = analytic;
    s.row.measuredMs = measured;
    s.polymageScore = polymage;
    return s;
}

TEST(TrainingData, HeldOutSplitIsStableAndAboutOneInEight) {
    int held = 0;
    const int n = 8000;
    for (int i = 0; i < n; ++i) {
        char hash[17];
        std::snprintf(hash, sizeof hash, "%016x", i * 2654435761u);
        held += isHeldOut(hash);
        EXPECT_EQ(isHeldOut(hash), isHeldOut(std::string(hash))) << hash;
    }
    EXPECT_NEAR(double(held) / n, 1.0 / 8, 0.015);
}

TEST(TrainingData, MeasurementNoiseIsTheLowerHalfSpread) {
    Measurement m;
    m.measuredMs = RunTimes{2.0, 1.5, 9.0};
    EXPECT_DOUBLE_EQ(measurementNoise(m), 0.25); // (2 - 1.5) / 2; the slow outlier is ignored
    EXPECT_EQ(measurementNoise(Measurement()), 0);
}

TEST(TrainingData, ARowsTimeIsTheMinimumOfItsRepeatsUnlessTheMedianIsAsked) {
    Measurement m;
    m.measuredMs = RunTimes{2.0, 1.5, 9.0};
    EXPECT_EQ(measuredTime(m, MeasuredStatistic::Min), 1.5);
    EXPECT_EQ(measuredTime(m, MeasuredStatistic::Median), 2.0);
    EXPECT_EQ(measuredTime(Measurement(), MeasuredStatistic::Min), 0);
    EXPECT_EQ(parseMeasuredStatistic("min"), MeasuredStatistic::Min);
    EXPECT_EQ(parseMeasuredStatistic("median"), MeasuredStatistic::Median);
    EXPECT_STREQ(measuredStatisticName(MeasuredStatistic::Median), "median");
    EXPECT_THROW(parseMeasuredStatistic("mean"), Error);
}

TEST(TrainingData, ComparesModelsWithinEachPipeline) {
    // Pipeline a: analytic orders all 3 rows right (tau 1), polymage exactly backwards (tau -1).
    // Pipeline b: analytic gets 2 of 3 pairs right: tau (2 - 1) / 3. Pipeline c has one row.
    std::vector<LabelledSchedule> rows{
        row("a", 1, 30, 10), row("a", 2, 20, 20), row("a", 3, 10, 30), row("b", 1, 1, 10),
        row("b", 3, 2, 20),  row("b", 2, 3, 30),  row("c", 1, 1, 1),
    };
    const ModelComparison c = compareModels(rows, standardModels(nullptr));
    ASSERT_EQ(c.pipelines.size(), 2u);
    EXPECT_EQ(c.pipelines[0].pipeline, "a");
    ASSERT_EQ(c.pipelines[0].scores.size(), 2u);
    EXPECT_EQ(c.pipelines[0].scores[0].model, "analytic");
    EXPECT_NEAR(c.pipelines[0].scores[0].tau, 1.0, 1e-12);
    EXPECT_NEAR(c.pipelines[0].scores[1].tau, -1.0, 1e-12);
    EXPECT_NEAR(c.pipelines[1].scores[0].tau, 1.0 / 3, 1e-12);
    EXPECT_NEAR(c.pipelines[1].scores[0].accuracy, 2.0 / 3, 1e-12);
    EXPECT_NEAR(c.pipelines[1].scores[1].tau, 1.0, 1e-12);
    EXPECT_NEAR(c.overall[0].tau, (1.0 + 1.0 / 3) / 2, 1e-12);
    EXPECT_NEAR(c.overall[1].tau, 0.0, 1e-12);
    EXPECT_EQ(c.testRows, 7);
    const nlohmann::json j = c.toJson();
    EXPECT_EQ(j["pipelines"][1]["models"]["analytic"]["pairwise_accuracy"].get<double>(), 2.0 / 3);
}

TEST(TrainingData, AScheduleMeasuredAgainIsRankedOnceByItsFastestMeasurement) {
    // Schedule s1 measured twice (30 ms, then 10 ms) beside s2 (20 ms). Both copies of s1 tie in
    // every prediction (analytic 1); ranked apart, the first copy (30 ms) was the one-shot pick,
    // regret 30 / 10 = 3. As one schedule at 10 ms the pick is right: regret 1, tau 1 (s1 10 ms
    // predicted 1, s2 20 ms predicted 2).
    std::vector<LabelledSchedule> rows{row("a", 1, 1, 30), row("a", 2, 2, 20), row("a", 1, 1, 10)};
    rows[0].scheduleHash = rows[2].scheduleHash = "s1";
    rows[1].scheduleHash = "s2";
    for (size_t i = 0; i < rows.size(); ++i)
        rows[i].recordId = int64_t(100 + i);
    const ModelComparison c = compareModels(rows, standardModels(nullptr));
    ASSERT_EQ(c.pipelines.size(), 1u);
    const PipelineComparison &p = c.pipelines[0];
    EXPECT_EQ(p.rows, 2);
    EXPECT_EQ(p.measurements, 3);
    EXPECT_EQ(p.records, (std::vector<int64_t>{102, 101})); // s1 by its 10 ms record, first seen
    EXPECT_EQ(p.measured, (std::vector<double>{10, 20}));
    EXPECT_DOUBLE_EQ(p.scores[0].regret, 1.0);
    EXPECT_NEAR(p.scores[0].tau, 1.0, 1e-12);
    EXPECT_EQ(c.testRows, 3);
    EXPECT_EQ(c.toJson()["pipelines"][0]["measurements"], 3);
    std::ostringstream table;
    c.print(table);
    EXPECT_NE(table.str().find("(1 repeated measurements of a schedule merged"), std::string::npos)
        << table.str();
}

TEST(TrainingData, PredictionsCsvListsEachRankedRowWithEveryModelsPredictionAndRank) {
    std::vector<LabelledSchedule> rows{row("a", 1, 30, 10), row("a", 3, 10, 20),
                                       row("a", 2, 20, 30), row("c", 1, 1, 1)};
    for (size_t i = 0; i < rows.size(); ++i)
        rows[i].recordId = int64_t(100 + i);
    const ModelComparison c = compareModels(rows, standardModels(nullptr));
    const testing::TempDir dir;
    writePredictionsCsv(dir.file("p.csv"), c);
    std::ifstream csv(dir.file("p.csv"));
    std::vector<std::string> lines;
    for (std::string line; std::getline(csv, line);)
        lines.push_back(line);
    // Pipeline c has one row: not ranked, not listed. Ranks by hand: analytic 1, 3, 2 ranks
    // the rows 1, 3, 2; polymage 30, 10, 20 ranks them 3, 1, 2.
    EXPECT_EQ(lines, (std::vector<std::string>{
                         "app,gpu,record,measured_ms,analytic,polymage,analytic_rank,polymage_rank",
                         "a,,100,10,1,30,1,3",
                         "a,,101,20,3,10,3,1",
                         "a,,102,30,2,20,2,2",
                     }));
}

TEST(TrainingData, PairsWithinTheNoiseAreIgnored) {
    // Measured 10 and 10.1 differ by 1%: below the 2% floor, so only the pairs with 20 count.
    std::vector<LabelledSchedule> rows{row("a", 2, 1, 10), row("a", 1, 1, 10.1),
                                       row("a", 3, 1, 20)};
    const ModelComparison c = compareModels(rows, standardModels(nullptr));
    ASSERT_EQ(c.pipelines.size(), 1u);
    EXPECT_NEAR(c.pipelines[0].scores[0].accuracy, 1.0, 1e-12);
}

/// A correct measurement of `schedule` (null: the baseline `baseline`'s) of `source` on an H100.
MeasurementRecord measured(const PipelineSource &source, const nlohmann::json &schedule,
                           const std::string &baseline, double medianMs) {
    MeasurementRecord r;
    r.pipeline = PipelineIdentity::of(source, FunctionDAG(loadPipeline(source)));
    r.device = {"cuda", "NVIDIA H100 80GB HBM3", "CUDA", "", "21.0.0"};
    r.schedule = schedule;
    r.baseline = baseline;
    r.scheduleHash = baseline.empty() ? scheduleHash(schedule) : "baseline:" + baseline;
    r.gpu = GpuSpec::load("h100").toJson();
    r.costModel = "analytic";
    r.measurement.label = baseline.empty() ? "beam#0" : "baseline:" + baseline;
    r.measurement.measuredMs = RunTimes{medianMs, medianMs * 0.98, medianMs * 1.05};
    r.measurement.correct = true;
    r.repeats = 10;
    r.origin = "bench";
    return r;
}

// Rows of two GPUs (an H100 and an H200) read from one file: each is featurized for its own GPU
// model and ranked only among its own device's rows of the pipeline (the times of two GPUs are
// not one order).
TEST(TrainingData, ThePipelinesRowsOfEachDeviceAreRankedApart) {
    const testing::TempDir dir;
    const PipelineSource chain{"stencil_chain", "", {"length=2", "width=128", "height=96"}};
    auto dag = std::make_shared<const FunctionDAG>(loadPipeline(chain));
    const nlohmann::json greedy = scheduleToJson(*testing::greedySchedule(dag, "h100"));
    const nlohmann::json other = scheduleToJson(*testing::greedySchedule(dag, "v100"));
    ASSERT_NE(scheduleHash(greedy), scheduleHash(other));
    {
        MeasurementStore store(dir.file("m.sqlite"));
        for (const auto &[name, preset, scale] :
             {std::tuple{"NVIDIA H100 80GB HBM3", "h100", 1.0}, {"NVIDIA H200", "h200", 0.7}}) {
            for (const auto &[schedule, ms] : {std::pair{greedy, 0.2}, {other, 0.3}}) {
                MeasurementRecord r = measured(chain, schedule, "", ms * scale);
                r.device.name = name;
                r.gpu = GpuSpec::load(preset).toJson();
                store.add(r);
            }
        }
    }
    MeasurementStore store(dir.file("m.sqlite"), MeasurementStore::Access::ReadOnly);
    DatasetBuilder builder(store);
    const std::vector<LabelledSchedule> rows = builder.build({});
    ASSERT_EQ(rows.size(), 4u);
    std::set<std::string> groups;
    for (const LabelledSchedule &s : rows)
        groups.insert(s.row.group);
    EXPECT_EQ(groups.size(), 2u);
    // The same schedule costs less on the H200's 4.8 TB/s than on the H100's 3.35.
    EXPECT_EQ(rows[0].gpu, "H100-SXM5-80GB");
    EXPECT_EQ(rows[2].gpu, "H200-SXM5-141GB");
    EXPECT_LT(rows[2].row.analyticMs, rows[0].row.analyticMs);
    const ModelComparison c = compareModels(rows, standardModels(nullptr));
    ASSERT_EQ(c.pipelines.size(), 2u);
    EXPECT_EQ(c.pipelines[0].rows, 2);
    EXPECT_EQ(c.pipelines[1].rows, 2);
    EXPECT_NE(c.pipelines[0].gpu, c.pipelines[1].gpu);
    std::ostringstream text;
    c.print(text);
    EXPECT_NE(text.str().find("stencil_chain @ H200-SXM5-141GB"), std::string::npos) << text.str();
}

TEST(TrainingData, ABaselinesMeasuredScheduleIsATrainingRowOnlyWhenAskedAndNeverRanked) {
    const testing::TempDir dir;
    const PipelineSource chain{"stencil_chain", "", {"length=2", "width=128", "height=96"}};
    const PipelineSource grid{"bilateral_grid", "", {"width=128", "height=96"}};
    const GpuSpec gpu = GpuSpec::load("h100");
    auto dag = std::make_shared<const FunctionDAG>(loadPipeline(chain));
    {
        MeasurementStore store(dir.file("m.sqlite"));
        store.add(measured(chain, scheduleToJson(*testing::greedySchedule(dag, "h100")), "", 0.2));
        store.add(measured(chain, nullptr, "naive", 0.5));
        // The first GPU checks stored no GPU model for a baseline: the preset the device fits.
        MeasurementRecord noGpu = measured(chain, nullptr, "naive", 0.55);
        noGpu.gpu = nullptr;
        store.add(noGpu);
        // Mullapudi2016 inlines bilateral_grid's blurs by rewriting their consumers: outside
        // Beamscope's space (docs/import.md).
        store.add(measured(grid, nullptr, "mullapudi2016", 0.3));
    }
    MeasurementStore store(dir.file("m.sqlite"), MeasurementStore::Access::ReadOnly);
    DatasetBuilder searchedOnly(store);
    const std::vector<LabelledSchedule> searched = searchedOnly.build({});
    ASSERT_EQ(searched.size(), 1u);
    EXPECT_EQ(searched[0].baseline, "");

    // A row's time is the minimum of its repeats (0.98 x the median here) unless asked.
    EXPECT_DOUBLE_EQ(searched[0].row.measuredMs, 0.2 * 0.98);
    EXPECT_NEAR(searched[0].noise, 0.02, 1e-12); // the repeats' spread, either way
    DatasetBuilder byMedian(store);
    byMedian.setMeasuredStatistic(MeasuredStatistic::Median);
    const std::vector<LabelledSchedule> medians = byMedian.build({});
    ASSERT_EQ(medians.size(), 1u);
    EXPECT_DOUBLE_EQ(medians[0].row.measuredMs, 0.2);
    EXPECT_NEAR(medians[0].noise, 0.02, 1e-12);

    DatasetBuilder withBaselines(store);
    withBaselines.setImportBaselines(true);
    const std::vector<LabelledSchedule> rows = withBaselines.build({});
    ASSERT_EQ(rows.size(), 3u) << ::testing::PrintToString(withBaselines.skipped());
    const LabelledSchedule &naive = rows[1];
    EXPECT_EQ(naive.baseline, "naive");
    EXPECT_EQ(naive.app, "stencil_chain");
    EXPECT_FALSE(naive.heldOut);
    EXPECT_DOUBLE_EQ(naive.row.measuredMs, 0.5 * 0.98);
    // Costed as the naive schedule imported by hand is.
    const ForeignSchedule byHand = importBaseline(Baseline::Naive, chain, gpu);
    ASSERT_TRUE(byHand.imported.state);
    EXPECT_DOUBLE_EQ(naive.row.analyticMs,
                     costOf(*byHand.imported.state, "analytic", gpu).cost.total);
    EXPECT_NE(naive.row.analyticMs, rows[0].row.analyticMs);
    EXPECT_EQ(rows[2].baseline, "naive");
    EXPECT_EQ(rows[2].gpu, "H100-SXM5-80GB");
    EXPECT_DOUBLE_EQ(rows[2].row.analyticMs, naive.row.analyticMs);
    ASSERT_EQ(withBaselines.skipped().size(), 1u);
    EXPECT_NE(withBaselines.skipped()[0].find("bilateral_grid"), std::string::npos);
    EXPECT_NE(withBaselines.skipped()[0].find("outside Beamscope's space"), std::string::npos)
        << withBaselines.skipped()[0];
    // Trained on, never ranked.
    const std::vector<LabelledSchedule> ranked = searchedRows(rows);
    ASSERT_EQ(ranked.size(), 1u);
    EXPECT_EQ(ranked[0].recordId, rows[0].recordId);
    // `--features-csv` says which rows are a baseline's: its last column.
    writeFeaturesCsv(dir.file("rows.csv"), rows);
    std::ifstream csv(dir.file("rows.csv"));
    std::vector<std::string> lastColumn;
    for (std::string line; std::getline(csv, line);)
        lastColumn.push_back(line.substr(line.rfind(',') + 1));
    EXPECT_EQ(lastColumn, (std::vector<std::string>{"baseline", "", "naive", "naive"}));
}

// CUPTI's per-kernel times of a CUDA row (as the worker records them, longest first, named
// after each kernel's root stage) become the row's kernel times in the kernels' launch order;
// a row whose CUDA kernels do not pair one to one with Beamscope's gets none.
TEST(TrainingData, ARowsKernelTimesArePairedWithItsKernelsByName) {
    const testing::TempDir dir;
    const PipelineSource chain{"stencil_chain", "", {"length=2", "width=128", "height=96"}};
    auto dag = std::make_shared<const FunctionDAG>(loadPipeline(chain));
    const StatePtr state = testing::greedySchedule(dag, "h200");
    const nlohmann::json schedule = scheduleToJson(*state);
    std::vector<std::string> roots; // the kernels' root Funcs, in launch order
    for (const LoopNestPtr &k : state->kernels())
        roots.push_back(dag->node(k->node).name);
    ASSERT_GE(roots.size(), 2u);
    std::vector<KernelTime> times;
    for (size_t k = 0; k < roots.size(); ++k) // shortest first: the pairing is by name
        times.push_back({"_kernel_" + roots[k] + "_s0_y_y_block_id_y", 0.01 * double(k + 1), 1});
    std::reverse(times.begin(), times.end());
    {
        MeasurementStore store(dir.file("m.sqlite"));
        MeasurementRecord r = measured(chain, schedule, "", 0.2);
        r.device.name = "NVIDIA H200";
        r.gpu = GpuSpec::load("h200").toJson();
        r.measurement.kernelTimes = times;
        store.add(r);
        times.front().name = "_kernel_not_a_func_s0_x_block_id_x";
        r.measurement.kernelTimes = times;
        r.measurement.measuredMs = RunTimes{0.3, 0.29, 0.31};
        r.scheduleHash += "-other"; // the same schedule measured again, unpairable
        store.add(r);
    }
    MeasurementStore store(dir.file("m.sqlite"), MeasurementStore::Access::ReadOnly);
    DatasetBuilder builder(store);
    const std::vector<LabelledSchedule> rows = builder.build({});
    ASSERT_EQ(rows.size(), 2u);
    std::vector<double> expected;
    for (size_t k = 0; k < roots.size(); ++k)
        expected.push_back(0.01 * double(k + 1));
    EXPECT_EQ(rows[0].row.kernelMeasuredMs, expected);
    EXPECT_EQ(rows[0].row.kernelMeasuredMs.size(), rows[0].row.kernels.size());
    EXPECT_TRUE(rows[1].row.kernelMeasuredMs.empty());
}

// A measurement records the unroll limit its schedule was lowered with. Rows recorded before
// the limit rose to 16 points say none: they ran a 2 x 8 tile rolled (on the H200, 25 us where
// Halide's unrolled 2 x 8 ran 11), and the training data featurizes each row as it ran.
TEST(TrainingData, ARowIsFeaturizedWithTheUnrollLimitItWasLoweredWith) {
    EXPECT_EQ(Measurement{}.maxUnrolledPoints, 16);
    EXPECT_EQ(Measurement{}.toJson().at("max_unrolled_points"), 16);
    nlohmann::json old = Measurement{}.toJson();
    old.erase("max_unrolled_points"); // what rows of earlier builds hold
    EXPECT_EQ(Measurement::fromJson(old).maxUnrolledPoints, 15);

    const testing::TempDir dir;
    const PipelineSource chain{"stencil_chain", "", {"length=2", "width=128", "height=96"}};
    auto dag = std::make_shared<const FunctionDAG>(loadPipeline(chain));
    nlohmann::json schedule = scheduleToJson(*testing::greedySchedule(dag, "h200"));
    for (auto &f : schedule) { // the output tiled 2 x 8 per thread, 16 x 2 threads
        if (f.at("name") == "output") f["stages"] = {{{"thread", {16, 2}}, {"serial", {2, 8}}}};
    }
    const StatePtr rolled = scheduleFromJson(dag, schedule, kLegacyMaxUnrolledPoints);
    const StatePtr unrolled = scheduleFromJson(dag, schedule);
    const int output = dag->find("output");
    auto outputLeafUnrolled = [&](const ScheduleState &state) {
        for (const LoopNestPtr &k : state.kernels()) {
            if (k->node != output) continue;
            for (const LoopNestPtr &leaf : k->children.at(0)->children) {
                if (leaf->node == output) return leaf->unrolled;
            }
        }
        ADD_FAILURE() << "no kernel of output";
        return false;
    };
    EXPECT_FALSE(outputLeafUnrolled(*rolled));
    EXPECT_TRUE(outputLeafUnrolled(*unrolled));
    const GpuSpec gpu = GpuSpec::load("h200");
    const double rolledMs = costOf(*rolled, "analytic", gpu).cost.total;
    const double unrolledMs = costOf(*unrolled, "analytic", gpu).cost.total;
    EXPECT_GT(rolledMs, unrolledMs); // rolled, each point loads its own 5 x 5 window
    {
        MeasurementStore store(dir.file("m.sqlite"));
        MeasurementRecord r = measured(chain, schedule, "", 0.2);
        r.gpu = gpu.toJson();
        r.measurement.maxUnrolledPoints = kLegacyMaxUnrolledPoints;
        store.add(r);
        r.measurement = Measurement::fromJson(r.measurement.toJson());
        EXPECT_EQ(r.measurement.maxUnrolledPoints, kLegacyMaxUnrolledPoints);
        r.measurement.maxUnrolledPoints = kMaxUnrolledPoints; // measured by this build
        r.scheduleHash += "-again";
        store.add(r);
    }
    MeasurementStore store(dir.file("m.sqlite"), MeasurementStore::Access::ReadOnly);
    DatasetBuilder builder(store);
    const std::vector<LabelledSchedule> rows = builder.build({});
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_DOUBLE_EQ(rows[0].row.analyticMs, rolledMs);
    EXPECT_DOUBLE_EQ(rows[1].row.analyticMs, unrolledMs);

    // bench, tune and collect --resume take a stored row for the schedule only when this build
    // would lower it the same way: the rolled 2 x 8 is measured again, a 1 x 8 is not.
    MeasurementRecord legacy = measured(chain, schedule, "", 0.2);
    legacy.measurement.maxUnrolledPoints = kLegacyMaxUnrolledPoints;
    EXPECT_FALSE(legacy.loweredAsThisBuildWould());
    for (auto &f : legacy.schedule) {
        if (f.at("name") == "output") f["stages"][0]["serial"] = {1, 8};
    }
    EXPECT_TRUE(legacy.loweredAsThisBuildWould());
    legacy.schedule = schedule;
    legacy.measurement.maxUnrolledPoints = kMaxUnrolledPoints;
    EXPECT_TRUE(legacy.loweredAsThisBuildWould());
}

// iir_blur's undefined pure stages are kernels of Beamscope's with no rows, which Halide never
// launches (the H200's rows hold 7 CUDA kernels for its 9): its rows pair all the same, the
// empty kernels with no time.
TEST(TrainingData, AnUndefinedStagesKernelDoesNotKeepARowFromPairing) {
    const testing::TempDir dir;
    const PipelineSource iir{"iir_blur", "", {"width=64", "height=48"}};
    auto dag = std::make_shared<const FunctionDAG>(loadPipeline(iir));
    const StatePtr state = testing::greedySchedule(dag, "h200");
    std::vector<double> expected;
    std::vector<KernelTime> times;
    size_t undefined = 0;
    for (const LoopNestPtr &k : state->kernels()) {
        const Stage &stage = dag->node(k->node).stages[size_t(k->stage)];
        if (stage.undefined) {
            ++undefined;
            expected.push_back(0.0);
            continue;
        }
        const double ms = 0.01 * double(times.size() + 1);
        // Halide's own spelling: the unique name's "_1", the stage, the block loop.
        times.push_back({"_kernel_" + dag->node(k->node).name + "_1_s" + std::to_string(k->stage) +
                             "_c_c_b_block_id_y__1",
                         ms, 1});
        expected.push_back(ms);
    }
    ASSERT_EQ(undefined, 2u); // blur_x_blur's and blur_y_blur's `= undef`
    ASSERT_GE(times.size(), 3u);
    std::reverse(times.begin(), times.end()); // CUPTI's order is not the launch order
    {
        MeasurementStore store(dir.file("m.sqlite"));
        MeasurementRecord r = measured(iir, scheduleToJson(*state), "", 0.2);
        r.device.name = "NVIDIA H200";
        r.gpu = GpuSpec::load("h200").toJson();
        r.measurement.kernelTimes = times;
        store.add(r);
    }
    MeasurementStore store(dir.file("m.sqlite"), MeasurementStore::Access::ReadOnly);
    DatasetBuilder builder(store);
    const std::vector<LabelledSchedule> rows = builder.build({});
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].row.kernelMeasuredMs, expected);
    EXPECT_EQ(rows[0].row.kernels.size(), expected.size());
}

/// Schedules of one or two synthetic kernels (features in [0, 1), a kernel's time its analytic
/// time x exp(feature 0)), with each kernel's own time when `timed`.
std::vector<LabelledSchedule> kernelSchedules(int count, bool timed) {
    std::vector<LabelledSchedule> rows;
    const size_t width = kernelFeatureNames().size();
    for (int i = 0; i < count; ++i) {
        LabelledSchedule s = row(i % 2 ? "p" : "q", 0, 0, 0);
        s.scheduleHash = "h" + std::to_string(i);
        for (int k = 0; k < 1 + i % 2; ++k) {
            KernelFeatureRow kernel;
            kernel.features.assign(width, float((i * 7 + k * 3) % 10) / 10.0f);
            kernel.analyticMs = 0.1 * (1 + k);
            const double ms = kernel.analyticMs * std::exp(kernel.features[0]);
            s.row.analyticMs += kernel.analyticMs;
            s.row.measuredMs += ms;
            if (timed) s.row.kernelMeasuredMs.push_back(ms);
            s.row.kernels.push_back(kernel);
        }
        s.row.features.assign(scheduleFeatureNames().size(), 0.0f);
        rows.push_back(s);
    }
    return rows;
}

// A model fitted to kernel times fine-tunes on a device's kernel times when its rows have them,
// and on the schedules' summed times when none has (a CUDA device without CUPTI): tune keeps
// working either way, and the model file says which.
TEST(TrainingData, AKernelTimesModelFineTunesOnWhatTheDevicesRowsHave) {
    TrainOptions options;
    options.objective = TrainObjective::KernelTimes;
    options.rounds = 5;
    const auto base = trainOn(kernelSchedules(40, true), "dev", "H200-SXM5-141GB", options);
    const auto objectiveOf = [](const LearnedCostModel &m) {
        return m.metadata().extra.at("training").at("objective").get<std::string>();
    };
    EXPECT_EQ(objectiveOf(*base), "kernel-times");
    EXPECT_EQ(objectiveOf(*fineTuneOn(*base, kernelSchedules(10, true), "dev", "gpu", options)),
              "kernel-times");
    const auto summed = fineTuneOn(*base, kernelSchedules(10, false), "dev", "gpu", options);
    EXPECT_EQ(objectiveOf(*summed), "kernels");
    EXPECT_EQ(summed->metadata().trainingRows, 10);
    // Training from nothing without a kernel time is refused with one line.
    const std::string message =
        testing::errorOf([&] { trainOn(kernelSchedules(10, false), "dev", "gpu", options); });
    EXPECT_NE(message.find("no correct measurement has per-kernel times"), std::string::npos)
        << message;
}

// A model names the GPUs whose rows it learned from: fitted to kernel times, only those of the
// rows that have them (the shipped model: the H200's, not the H100's), summed, every row's.
TEST(TrainingData, AModelNamesTheGpusOfTheRowsItWasTrainedOn) {
    std::vector<LabelledSchedule> rows = kernelSchedules(20, false);
    for (LabelledSchedule &s : rows)
        s.gpu = "H100-SXM5-80GB";
    for (LabelledSchedule &s : kernelSchedules(20, true)) {
        s.gpu = "H200-SXM5-141GB";
        s.scheduleHash += "-h200";
        rows.push_back(s);
    }
    const std::string both = "H100-SXM5-80GB, H200-SXM5-141GB";
    TrainOptions options;
    options.rounds = 3;
    options.objective = TrainObjective::KernelTimes;
    const auto timed = trainOn(rows, "every device", both, options);
    EXPECT_EQ(timed->metadata().gpu, "H200-SXM5-141GB");
    EXPECT_EQ(timed->metadata().trainingRows, 20);
    options.objective = TrainObjective::SummedKernels;
    EXPECT_EQ(trainOn(rows, "every device", both, options)->metadata().gpu, both);
    // A name the rows do not carry (a preset's, as tune passes it) is kept as given.
    EXPECT_EQ(trainOn(rows, "dev", "h100", options)->metadata().gpu, "h100");
}

} // namespace
} // namespace beamscope
