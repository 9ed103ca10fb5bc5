// Collector: time-boxed data collection for cost-model training (`beamscope-cli collect`).
// For each pipeline in turn (random pipelines, catalog apps, generators), a search thread picks
// K schedules (CollectCandidates.h) while worker processes compile them on every core and
// measure them one at a time per device (the device lock), as bench and tune do; every finished
// row is committed to the measurement database at once (origin "collect"), so a deadline, a
// Ctrl-C or a crash loses at most the rows still in flight. With `resume` a schedule the
// database already holds for this device is skipped, so a second run continues the first.
#pragma once

#include "measure/DeviceDetect.h"
#include "measure/Measurement.h"
#include "measure/TimedRuns.h"
#include "pipeline/PipelineSource.h"
#include "search/SearchEngine.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

namespace beamscope {

class MeasurementStore;

struct CollectOptions {
    std::vector<PipelineSource> pipelines; ///< measured in this order
    DevicePreference device = DevicePreference::Auto;
    double minutes = 8;         ///< the deadline, from the start of the run
    int perPipeline = 8;        ///< K schedules per pipeline
    SearchOptions search;       ///< gpu unnamed: the preset that fits the device
    double dropoutPercent = 10; ///< the greedy samples' dropout
    int jobs = 0;               ///< workers at once; 0: every core
    bool resume = false;        ///< skip schedules the database holds for this device
    bool stageProducers = true;
    /// Compute capability for ptxas's registers and spills per kernel in every row (0: off;
    /// -1: the CUDA device's, else the GPU model's). Off by default: ptxas takes compile time.
    int ptxCapability = 0;
    int warmup = 1;
    int repeats = 3;
    /// More timed runs while they add up to less than this (TimedRuns.h).
    double minTimedMs = kDefaultMinTimedMs;
    double timeoutS = 60; ///< per worker (waiting for the device lock not counted)
    std::string workerPath;
    MeasurementStore *store = nullptr;   ///< required
    const CancelToken *cancel = nullptr; ///< set (Ctrl-C) to stop like the deadline does
    std::function<void(const std::string &)> log;
    /// Each committed row, with its pipeline's name (serialized: one call at a time).
    std::function<void(const std::string &pipeline, const Measurement &)> onRow;
};

struct CollectReport {
    DeviceInfo device;
    std::string gpu; ///< the GPU model searched for
    int jobs = 0, cores = 0;
    int pipelinesStarted = 0, pipelinesFailed = 0;
    int rows = 0, correct = 0, failed = 0;
    int skipped = 0; ///< schedules the database already held (--resume)
    int killed = 0;  ///< jobs in flight at the stop (not recorded)
    int recordErrors = 0;
    double elapsedS = 0, minutes = 0;
    std::string stop; ///< "done" (every pipeline measured), "deadline", "interrupted"
    std::vector<std::string> errors; ///< pipelines that could not be loaded or searched
    /// Where the time went, summed over pipelines and recorded rows: the planners' searches,
    /// the workers' compilations, device setup (context, uploads), waits for a device and the
    /// device held (Measurement's fields); `devices` measure one row at a time each.
    int planners = 0, devices = 0;
    double planS = 0, compileS = 0, deviceSetupS = 0, deviceWaitS = 0, deviceS = 0;

    double rowsPerMinute() const;
    double correctPerMinute() const;
    /// The devices' held time over their wall time (0..1).
    double deviceBusy() const;
    nlohmann::json toJson() const;
    /// "collect: 212 rows (205 correct, 7 failed, 0 skipped) in 59.4 s on 2 cores: 214.1
    /// rows/min, 207.1 correct/min, 103.5 correct/min per core; stopped at the deadline"
    std::string throughputLine() const;
    /// "collect: time: planning 41.2 s (2 planners), compiling 310.5 s, device setup 20.1 s,
    /// waiting for a device 250.3 s; devices held 55.0 s, 92% of 1 device's time": what limits
    /// the rate (a device held nearly all the time is the bottleneck, not the cores).
    std::string timeLine() const;
};

/// Runs the collection. Throws UsageError/Error for bad options or a missing device; a
/// pipeline that cannot be loaded is an entry of `errors`, a failing schedule a failed row.
CollectReport runCollect(const CollectOptions &options);

} // namespace beamscope
