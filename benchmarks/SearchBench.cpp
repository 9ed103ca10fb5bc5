// Search time per catalog app, as `beamscope-cli search APP` runs it (V100, seed 0, analytic
// model): greedy (beam 1, 1 pass; issue 11 goal: under 50 ms on every app) and beam 32 x 5
// (goal: under 0.76 s geomean). Google Benchmark reports wall and CPU time; on a loaded machine
// the CPU time is the figure to read (the search runs on one thread).
//   beamscope-bench --benchmark_filter='Search/' [--benchmark_repetitions=5]
#include "pipeline/AppCatalog.h"
#include "search/SearchEngine.h"

#include <benchmark/benchmark.h>

#include <memory>

using namespace beamscope;

namespace {

void runSearch(benchmark::State &bench, const std::shared_ptr<const FunctionDAG> &dag, int beam,
               int passes) {
    SearchOptions options;
    options.beamSize = beam;
    options.passes = passes;
    options.gpu = GpuSpec::load("v100");
    int64_t evaluated = 0;
    for (auto _ : bench) {
        SearchEngine engine(dag, options);
        while (!engine.finished())
            engine.step();
        evaluated = engine.counters().evaluated;
        benchmark::DoNotOptimize(evaluated);
    }
    bench.counters["states"] = double(evaluated);
}

/// One greedy and one beam benchmark per catalog app; the DAG is built once, outside the timing
/// (the CLI's search_ms does not include it either).
const bool registered = [] {
    for (const AppDefinition &app : appCatalog()) {
        auto dag = std::make_shared<const FunctionDAG>(buildApp(app.name));
        benchmark::RegisterBenchmark(("GreedySearch/" + app.name).c_str(),
                                     [dag](benchmark::State &s) { runSearch(s, dag, 1, 1); })
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("BeamSearch/" + app.name).c_str(), [dag](
                                                                             benchmark::State &s) {
            runSearch(s, dag, 32, 5);
        })->Unit(benchmark::kMillisecond);
    }
    return true;
}();

} // namespace
