// The options shared by the commands that run candidates on the device (`bench`, `tune`):
// baselines, the greedy samples' dropout, warm-up, repeats, time limit, worker path and register
// staging, and the runner (--runner local|slurm with the --slurm-* options and config file), with
// their copy into BenchOptions / TuneOptions (whose fields have the same names).
#pragma once

#include <CLI/CLI.hpp>

#include "measure/Baselines.h"
#include "measure/MeasurementRunner.h"
#include "measure/TimedRuns.h"

#include <iostream>
#include <string>
#include <vector>

namespace beamscope::cli {

struct MeasureCliOptions {
    std::string baselines;
    double dropout = 10;
    int warmup = 1;
    int repeats = 5;
    double minTimedMs = kDefaultMinTimedMs;
    double timeout = 120;
    std::string worker;
    bool noStaging = false;
    std::string runner = "local";
    std::string slurmConfig, slurmDir, slurmPartition, slurmAccount, slurmGres, slurmTime;
    std::string slurmCompile, slurmWorker, slurmAotRunner;
    std::vector<std::string> slurmOptions;
    double slurmPoll = 0;
    int slurmMaxParallel = -1;

    /// Adds --baseline (described by `baselineHelp`), --dropout, --warmup, --repeats,
    /// --min-timed-ms, --timeout,
    /// --worker, --no-staging, --runner and the --slurm-* options.
    void addTo(CLI::App &command, const std::string &baselineHelp);

    /// The Slurm options: the config file's, then the flags given (throws UsageError).
    SlurmOptions slurm() const;

    /// A progress printer for runner batches: one line on stderr each time the counts change.
    static std::function<void(const RunnerProgress &)> progressPrinter(const std::string &prefix);

    /// Copies the options into a BenchOptions or TuneOptions (throws UsageError for an unknown
    /// baseline).
    template <class RunOptions> void applyTo(RunOptions &options) const {
        options.baselines = parseBaselineList(baselines);
        options.dropoutPercent = dropout;
        options.stageProducers = !noStaging;
        options.warmup = warmup;
        options.repeats = repeats;
        options.minTimedMs = minTimedMs;
        options.timeoutS = timeout;
        options.workerPath = worker;
        options.runner = parseRunnerKind(runner);
        if (options.runner == RunnerKind::Slurm) options.slurm = slurm();
    }
};

} // namespace beamscope::cli
