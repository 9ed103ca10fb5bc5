// BenchRunSteps: the benchmark run as the steps runBenchmark takes in order, and the state they
// share; private to core/bench (BenchRun.cpp holds the steps, BenchBatch.cpp the batches of jobs
// they run).
#pragma once

#include "bench/BenchRun.h"
#include "bench/CandidateSampler.h"
#include "measure/MeasurementRunner.h"
#include "store/BenchRecorder.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace beamscope {

/// A benchmark run as the steps runBenchmark takes in order; the state they share is here.
class BenchRun {
public:
    explicit BenchRun(const BenchOptions &options)
        : m_options(options), m_start(std::chrono::steady_clock::now()) {
        m_report.mode = options.mode;
    }

    /// The device, and the Halide target candidates run on ("" : compile only).
    void detectTheDevice();
    /// The GPU spec and cost model the candidates are searched and ranked with, and the PTX
    /// capability their registers are reported for.
    void chooseGpuAndModel();
    /// The candidates (sampled, or the caller's) and the jobs that compile or run them.
    void sampleCandidates();
    /// Compiles every candidate (and measures each in top-k mode) into report.candidates.
    void measureCandidates();
    /// The fastest correct survivor (top-k), or the best predicted one (one-shot, measured
    /// alone when asked).
    void chooseCandidate();
    void measureBaselines();
    /// Counts, the cancelled flag, the final progress and the run's time.
    BenchReport finish();

private:
    /// One job of a batch: candidate `index`, or a baseline (index -1).
    struct Item {
        BenchJob job;
        bool baseline = false;
        int index = -1;
    };
    void say(const std::string &line) const {
        if (m_options.progress) m_options.progress(line);
    }
    bool cancelled() const { return m_options.cancel && m_options.cancel->load(); }
    bool storable(const Item &item, bool measure) const {
        return measure && (item.baseline || m_options.stageProducers);
    }
    /// Runs a batch of jobs with the runner: a row that runs on the device is recorded as it
    /// arrives; a candidate the store already has on this device is reused instead. nullopt
    /// for a job the cancel flag stopped.
    std::vector<std::optional<Measurement>> runBatch(std::vector<Item> items, bool measure);
    /// The stored row `item` may reuse instead of running (counted and reported as done).
    std::optional<Measurement> reuse(const BenchJob &job);
    void recordRow(const Item &item, const Measurement &m, bool measure);
    /// One job per baseline asked for.
    std::vector<Item> baselineItems() const;
    /// The baselines' rows that finished into the report.
    void keepBaselines(const std::vector<std::optional<Measurement>> &rows);

    const BenchOptions &m_options;
    const std::chrono::steady_clock::time_point m_start;
    BenchReport m_report;
    SearchOptions m_search;
    CandidateSet m_set;
    std::string m_referenceCache;
    BenchJob m_base;
    std::vector<BenchJob> m_jobs; ///< one per candidate
    bool m_canRun = false, m_measureAll = false, m_compileAll = false;
    bool m_measureBaselines = false, m_measureChosen = false, m_baselinesDone = false;
    std::optional<BenchRecorder> m_recorder;
    BenchProgress m_progress;
    std::unique_ptr<MeasurementRunner> m_measuring, m_compiling;
};

} // namespace beamscope
