// The options shared by the commands that run candidates on the device (`bench`, `tune`):
// baselines, the greedy samples' dropout, warm-up, repeats, time limit, worker path and register
// staging, with their copy into BenchOptions / TuneOptions (whose fields have the same names).
#pragma once

#include <CLI/CLI.hpp>

#include "bench/Baselines.h"

#include <string>

namespace beamscope::cli {

struct MeasureCliOptions {
    std::string baselines;
    double dropout = 10;
    int warmup = 1;
    int repeats = 5;
    double timeout = 120;
    std::string worker;
    bool noStaging = false;

    /// Adds --baseline (described by `baselineHelp`), --dropout, --warmup, --repeats, --timeout,
    /// --worker and --no-staging.
    void addTo(CLI::App &command, const std::string &baselineHelp);

    /// Copies the options into a BenchOptions or TuneOptions (throws UsageError for an unknown
    /// baseline).
    template <class RunOptions> void applyTo(RunOptions &options) const {
        options.baselines = parseBaselineList(baselines);
        options.dropoutPercent = dropout;
        options.stageProducers = !noStaging;
        options.warmup = warmup;
        options.repeats = repeats;
        options.timeoutS = timeout;
        options.workerPath = worker;
    }
};

} // namespace beamscope::cli
