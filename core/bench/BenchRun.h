// BenchRun: a whole benchmark session as the CLI (and later the GUI's BenchmarkController)
// runs it: detect the device, sample candidates (beam + greedy with dropout), compile and
// measure them in workers, apply the post-compile filter (paper 6.1), choose, and measure the
// baselines beside. Modes (paper section 6): one-shot picks the best predicted candidate
// that survives the filter (measured only when asked); top-k measures every candidate and
// keeps the fastest correct one that survives the filter. A caller that already has the
// candidates (the GUI: the beam on screen) passes them instead of sampling; a run can be
// cancelled from another thread and then returns what it measured so far.
#pragma once

#include "bench/CandidateSampler.h"
#include "measure/Baselines.h"
#include "measure/DeviceDetect.h"
#include "measure/Measurement.h"
#include "measure/MeasurementRunner.h"
#include "measure/TimedRuns.h"
#include "pipeline/PipelineSource.h"
#include "search/SearchEngine.h"
#include "store/MeasurementStore.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace beamscope {

enum class BenchMode { OneShot, TopK };

/// Where a run is: `done` of `total` compile/measure jobs finished, `label` the one starting
/// ("measuring beam#1"); total counts candidates and baselines (0 while sampling).
struct BenchProgress {
    int done = 0;
    int total = 0;
    std::string label;
};

struct BenchOptions {
    PipelineSource source;
    DevicePreference device = DevicePreference::Auto;
    BenchMode mode = BenchMode::OneShot;
    int top = 5;                 ///< beam entries, and greedy samples, considered
    bool measureOneShot = false; ///< one-shot: also measure the chosen candidate
    std::vector<Baseline> baselines;
    SearchOptions search;       ///< search.gpu empty (no name): chosen from the device
    double dropoutPercent = 10; ///< greedy samples' dropout (DropoutCostModel)
    int ptxCapability = -1;     ///< -1: auto (CUDA device's, else the GPU spec's if any); 0: off
    bool stageProducers = true; ///< paper 4.7 register staging in our candidates
    int warmup = 1;
    int repeats = 5;
    /// More timed runs while they add up to less than this (TimedRuns.h).
    double minTimedMs = kDefaultMinTimedMs;
    double timeoutS = 120;                 ///< per worker
    std::string workerPath;                ///< "" : defaultWorkerPath()
    RunnerKind runner = RunnerKind::Local; ///< where measured rows run (compile-only: here)
    SlurmOptions slurm;                    ///< runner Slurm: cluster, directory, resources
    int jobs = 0;                          ///< local workers at once; 0: every core
    /// Jobs pending/running/done per node (device or cluster node) while a batch runs.
    std::function<void(const RunnerProgress &)> onRunnerProgress;
    std::function<void(const std::string &)> progress; ///< one line per step (optional)

    /// Candidates chosen by the caller (e.g. the GUI's beam): no beam search is run, and
    /// `top` is not applied to them. Their states must be complete schedules of `source`
    /// searched with search.gpu (which must then be set).
    std::optional<std::vector<BenchCandidate>> candidates;
    /// With `candidates`: greedy samples with dropout added to them (search's options, pins).
    int extraGreedySamples = 0;
    /// Top-k: the baselines go into the candidates' batch, first, instead of after them. A
    /// plugin's search that takes minutes (Anderson2021 on lens_blur) then runs beside the
    /// candidates' compilation; their rows arrive in the order they finish.
    bool baselinesFirst = false;
    /// The DAG of `source` when the caller has it (else it is loaded when needed).
    std::shared_ptr<const FunctionDAG> dag;
    /// Set from any thread to stop: the running worker is killed, nothing further starts, and
    /// runBenchmark returns what was measured so far with BenchReport::cancelled set.
    const CancelToken *cancel = nullptr;
    /// Structured progress: before each job and once at the end (optional).
    std::function<void(const BenchProgress &)> onProgress;
    /// Every finished row, as soon as it is measured (optional; baseline: a baseline's row).
    std::function<void(const Measurement &, bool baseline)> onMeasured;

    /// The measurement database (optional, not owned): every row that runs on the device
    /// (candidates and baselines, failures included) is recorded, and a candidate already
    /// measured on this device is reused instead of run (unless `fresh`). A store error is
    /// reported once through `progress` and recording stops; the run goes on. Candidates
    /// without producer staging (stageProducers false) are neither recorded nor reused.
    MeasurementStore *store = nullptr;
    bool fresh = false;           ///< measure again even what the store has
    std::string origin = "bench"; ///< the records' origin ("bench", "tune", "gui-bench", ...)
    std::string runId;            ///< the records' tune run id ("" outside tune)
    int round = -1;               ///< the records' tune round (-1 outside tune)
};

struct BenchReport {
    std::string pipeline;
    DeviceInfo device;
    std::string target; ///< Halide target candidates ran on ("" : compile only)
    GpuSpec gpu;
    std::string costModel; ///< the cost model spec that ranked the candidates ("pretrained", ...)
    BenchMode mode = BenchMode::OneShot;
    int ptxCapability = 0; ///< 0 : no PTX report
    std::vector<Measurement> candidates;
    std::vector<nlohmann::json> schedules; ///< scheduleToJson of each candidate
    std::vector<Measurement> baselines;
    std::vector<size_t> survivors; ///< candidates left by the post-compile filter
    int chosen = -1;               ///< index into candidates, -1 when none qualifies
    std::string chosenWhy;
    double beamSearchMs = 0, greedySearchMs = 0, benchMs = 0;
    /// Whether the beam search froze, and why not ("" : candidates given, no search).
    std::string freezing;
    int duplicates = 0;
    int reused = 0;         ///< candidates taken from the measurement database instead of run
    int recorded = 0;       ///< rows added to the measurement database
    bool cancelled = false; ///< stopped early: candidates/baselines hold what finished

    nlohmann::json toJson() const;
    /// Reads what toJson writes (device, candidates with schedules, baselines, choice); the
    /// GPU spec and timings it does not store keep their defaults. Throws Error when malformed.
    static BenchReport fromJson(const nlohmann::json &json);
    /// A table (label, predicted, measured median, registers, spills, correct, search, failure)
    /// of the candidates, then the baselines, then the choice, and where the device's time went
    /// (the chosen candidate's and the baselines' longest kernels, on CUDA).
    void printTable(std::ostream &os) const;
    /// The chosen candidate's and each baseline's kernel count, their summed device time and
    /// longest three kernels (or why a CUDA run has no kernel times); nothing without them.
    void printKernelTimes(std::ostream &os) const;
};

/// The GPU spec to search for on `device`: a preset matching a CUDA device's name (else v100
/// with the device's SM count and capability), pocl-cpu for an OpenCL CPU device, else v100.
GpuSpec gpuSpecForDevice(const DeviceInfo &device);

/// Runs the session. Throws UsageError/Error for bad options, a missing requested device or an
/// unloadable pipeline; failed candidates are rows, never exceptions.
BenchReport runBenchmark(const BenchOptions &options);

} // namespace beamscope
