// RealSearch: test helper that runs the real SearchEngine synchronously on a catalog app and
// keeps every step's snapshot, so that view and controller tests check real data.
#pragma once

#include "dag/FunctionDAG.h"
#include "pipeline/PipelineSource.h"
#include "search/SearchEngine.h"

#include <memory>
#include <string>
#include <vector>

namespace beamscope::test {

struct RealSearch {
    std::shared_ptr<const FunctionDAG> dag;
    std::vector<SearchStepPtr> steps;
};

/// Loads `app` with `params` ("key=value").
inline std::shared_ptr<const FunctionDAG> loadDag(const std::string &app,
                                                  std::vector<std::string> params) {
    PipelineSource source;
    source.name = app;
    source.params = std::move(params);
    return std::make_shared<const FunctionDAG>(loadPipeline(source));
}

/// The search options the tests use: the paper's V100, `beam`, `passes`, `seed`.
inline SearchOptions testOptions(int beam, int passes, uint64_t seed = 0) {
    SearchOptions o;
    o.beamSize = beam;
    o.passes = passes;
    o.seed = seed;
    o.gpu = GpuSpec::load("v100");
    // The paper's freezing: the views' tests show the pre-pass and frozen stages on pipelines
    // small enough to search in a test, below the default threshold of 10 Funcs.
    o.freezeMinFuncs = 0;
    return o;
}

/// Runs the search (at most `maxSteps` steps; -1: to the end) and keeps every step.
inline RealSearch runSearch(const std::string &app, std::vector<std::string> params,
                            const SearchOptions &options, int maxSteps = -1) {
    RealSearch out;
    out.dag = loadDag(app, std::move(params));
    SearchEngine engine(out.dag, options);
    while (!engine.finished() && (maxSteps < 0 || int(out.steps.size()) < maxSteps))
        out.steps.push_back(engine.step());
    return out;
}

} // namespace beamscope::test
