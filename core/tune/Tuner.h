// Tuner: the autotuning mode of Anderson et al. 2021, section 6 (and AutoTVM's measurement
// loop). Each round searches with the current cost model, takes a batch of schedules not
// measured yet (the top of a beam search plus greedy samples with dropout), compiles them in
// parallel on every core, measures them out of process one at a time per device, records every
// result in the measurement database, and retrains the learned model on everything measured for
// the pipeline on this device. Before a round's measurements are trained on, the model that
// chose them is scored on them (Kendall's tau): the line a user reads to see the model learn.
// Cancel and resume lose no measurement: every row is committed as soon as it is measured, and
// a resumed run (same run id) reads them back instead of measuring again.
#pragma once

#include "measure/Baselines.h"
#include "measure/DeviceDetect.h"
#include "measure/Measurement.h"
#include "measure/MeasurementRunner.h"
#include "measure/TimedRuns.h"
#include "pipeline/PipelineSource.h"
#include "search/SearchEngine.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace beamscope {

class MeasurementStore;

/// Where a tune run is.
struct TuneProgress {
    int round = 0;     ///< 0-based round being worked on
    int rounds = 0;    ///< rounds asked for
    int done = 0;      ///< jobs of this round finished
    int total = 0;     ///< jobs of this round (0 while searching or training)
    std::string phase; ///< "searching", "measuring", "training", "baselines", "done", "cancelled"
    std::string label; ///< the job starting, when measuring
};

/// One finished round.
struct TuneRound {
    int round = 0;
    int measured = 0; ///< rows measured in this round (failures included)
    int failures = 0; ///< of which failed (compile, crash, timeout, wrong output)
    int reused = 0;   ///< schedules found in the database instead (resume, other runs)
    double bestMs = Measurement::kUnknown;      ///< best measured so far (all rounds), median ms
    double roundBestMs = Measurement::kUnknown; ///< best of this round
    std::string model;                          ///< the cost model that chose this round's batch
    double tau = Measurement::kUnknown;         ///< that model on this round's rows
    double pairwiseAccuracy = Measurement::kUnknown; ///< same, fraction of ordered pairs
    /// (predicted, measured median) of this round's correct rows, ms.
    std::vector<std::pair<double, double>> predictedVsMeasured;
    double searchMs = 0, measureMs = 0, trainMs = 0;
    nlohmann::json toJson() const;
};

struct TuneOptions {
    PipelineSource source;
    DevicePreference device = DevicePreference::Auto;
    int rounds = 5;
    int batch = 16;                  ///< schedules measured per round
    SearchOptions search;            ///< gpu unnamed: from the device; costModel: round 0's model
    std::vector<Baseline> baselines; ///< measured once, after the last round
    double dropoutPercent = 10;      ///< greedy samples' dropout
    int compileJobs = 0;             ///< parallel compilations; 0: every core
    RunnerKind runner = RunnerKind::Local; ///< where batches are measured
    SlurmOptions slurm;                    ///< runner Slurm: cluster, directory, resources
    bool stageProducers = true;
    int warmup = 1;
    int repeats = 5;
    /// More timed runs while they add up to less than this (TimedRuns.h).
    double minTimedMs = kDefaultMinTimedMs;
    double timeoutS = 120;
    std::string workerPath;            ///< "" : next to the executable
    MeasurementStore *store = nullptr; ///< required: where rows go and what resume reads
    std::string runId;                 ///< "" : a new id from the pipeline, device and options
    bool resume = false;               ///< continue `runId` (its rounds and model) where it stopped
    bool fresh = false;                ///< measure schedules already in the database again
    std::string modelPath;             ///< where each retrained model is written; "" : none kept
    std::string origin = "tune";       ///< recorded with every row ("gui-tune" from the GUI)
    const CancelToken *cancel = nullptr;
    std::function<void(const std::string &)> log; ///< human-readable lines
    std::function<void(const TuneProgress &)> onProgress;
    std::function<void(const TuneRound &)> onRound;
    std::function<void(const Measurement &)> onMeasured;
    /// Jobs pending/running/done per node (device or cluster node) while a batch runs.
    std::function<void(const RunnerProgress &)> onRunnerProgress;
};

struct TuneReport {
    std::string pipeline;
    std::string runId;
    DeviceInfo device;
    GpuSpec gpu;
    std::vector<TuneRound> rounds;
    std::optional<Measurement> best;    ///< fastest correct row of the run
    nlohmann::json bestSchedule;        ///< its scheduleToJson
    std::optional<Measurement> oneShot; ///< the analytic model's one-shot choice, measured
    std::vector<Measurement> baselines;
    std::string modelPath; ///< the last model written, "" when none
    bool cancelled = false;

    nlohmann::json toJson() const;
    /// The round lines, the best schedule's row and the baselines, as the CLI prints them.
    void printSummary(std::ostream &os) const;
};

/// Where a run's retrained models go by default: models/RUN.model beside the database.
std::string defaultModelPath(const MeasurementStore &store, const std::string &runId);

/// One line per round: "round 2: 16 measured, 1 failed, best 0.412 ms, tau 0.53".
std::string tuneRoundLine(const TuneRound &round);

/// Runs the tuning loop. Throws UsageError/Error for bad options, a missing device or an
/// unloadable pipeline; failing candidates are rows, never exceptions. A cancelled run returns
/// what it measured, with `cancelled` set.
TuneReport runTune(const TuneOptions &options);

} // namespace beamscope
