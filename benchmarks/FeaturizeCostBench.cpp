// Throughput of featurization + the analytical cost model, in states per second on one core,
// over the states a real search evaluates (issue target: 100,000 states/s per core).
//   beamscope-bench --benchmark_filter=FeaturizeCost
#include "cost/AnalyticalGpuCostModel.h"
#include "cost/Featurizer.h"
#include "pipeline/AppCatalog.h"
#include "search/SearchEngine.h"

#include <benchmark/benchmark.h>

#include <map>

using namespace beamscope;

namespace {

/// Every state a beam search (beam 8, 2 passes) evaluated on `app`, in order.
const std::vector<StatePtr> &evaluatedStates(const std::string &app) {
    static std::map<std::string, std::vector<StatePtr>> cache;
    auto it = cache.find(app);
    if (it != cache.end()) return it->second;
    auto dag = std::make_shared<const FunctionDAG>(buildApp(app));
    SearchOptions options;
    options.beamSize = 8;
    options.passes = 2;
    options.gpu = GpuSpec::load("v100");
    SearchEngine engine(dag, options);
    std::vector<StatePtr> states;
    while (!engine.finished()) {
        for (const StepCandidate &c : engine.step()->candidates) {
            if (c.sampled) states.push_back(c.state);
        }
    }
    return cache.emplace(app, std::move(states)).first->second;
}

/// Featurize and cost every state, in batches of 64 like the search; `memo` keeps the
/// per-kernel memo across states as the search does (a parent's kernels are reused).
void featurizeAndCost(benchmark::State &bench, const std::string &app, bool memo) {
    const std::vector<StatePtr> &states = evaluatedStates(app);
    const GpuSpec gpu = GpuSpec::load("v100");
    AnalyticalGpuCostModel model(gpu);
    std::vector<StateCost> costs(64);
    int64_t done = 0;
    for (auto _ : bench) {
        Featurizer featurizer(gpu, memo);
        for (size_t i = 0; i < states.size(); i += 64) {
            const size_t n = std::min<size_t>(64, states.size() - i);
            for (size_t k = 0; k < n; ++k) model.enqueue(*states[i + k], featurizer.featurize(*states[i + k]), &costs[k]);
            model.evaluateAll();
            benchmark::DoNotOptimize(costs[0].total);
        }
        done += int64_t(states.size());
    }
    bench.SetItemsProcessed(done);
    bench.counters["states"] = double(states.size());
}

} // namespace

#define BEAMSCOPE_FEATURIZE_BENCH(app)                                                             \
    static void BM_FeaturizeCost_##app(benchmark::State &s) { featurizeAndCost(s, #app, false); } \
    BENCHMARK(BM_FeaturizeCost_##app)->Unit(benchmark::kMillisecond);                             \
    static void BM_FeaturizeCostMemo_##app(benchmark::State &s) { featurizeAndCost(s, #app, true); } \
    BENCHMARK(BM_FeaturizeCostMemo_##app)->Unit(benchmark::kMillisecond);

BEAMSCOPE_FEATURIZE_BENCH(stencil_chain)
BEAMSCOPE_FEATURIZE_BENCH(local_laplacian)
BEAMSCOPE_FEATURIZE_BENCH(conv_layer)

BENCHMARK_MAIN();
