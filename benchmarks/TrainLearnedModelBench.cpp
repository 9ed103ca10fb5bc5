// Training time of the learned cost model (issue 10: 5,000 measurements in under 2 s on one
// core): XGBoost rank:pairwise with the default TrainOptions (60 rounds, depth 4, one thread)
// over 5,000 synthetic rows in 40 pipelines.
//   beamscope-bench --benchmark_filter=TrainLearnedModel
#include "cost/LearnedCostModel.h"

#include <benchmark/benchmark.h>

#include <cmath>
#include <random>

using namespace beamscope;

namespace {

/// 5,000 rows of random features; measured time depends on a few of them and on the prior.
std::vector<TrainingRow> syntheticRows() {
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    const size_t width = scheduleFeatureNames().size();
    std::vector<TrainingRow> rows;
    for (int i = 0; i < 5000; ++i) {
        TrainingRow r;
        r.group = "pipeline_" + std::to_string(i % 40);
        r.features.resize(width);
        for (float &f : r.features)
            f = unit(rng);
        r.analyticMs = std::exp(2.0 * r.features[0]);
        r.measuredMs = r.analyticMs * std::exp(r.features[1] - 0.5 * r.features[2] * r.features[3]);
        rows.push_back(std::move(r));
    }
    return rows;
}

void BM_TrainLearnedModel(benchmark::State &state) {
    const std::vector<TrainingRow> rows = syntheticRows();
    ModelMetadata meta;
    meta.device = "synthetic";
    for (auto _ : state) {
        auto model = LearnedCostModel::train(rows, meta, TrainOptions{});
        benchmark::DoNotOptimize(model);
    }
    state.counters["rows"] = double(rows.size());
}
BENCHMARK(BM_TrainLearnedModel)->Unit(benchmark::kMillisecond);

} // namespace
