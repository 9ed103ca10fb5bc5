// BenchBatch: a batch of a benchmark's jobs run with the runner: progress as each starts, a row
// recorded in the measurement database as it arrives, a candidate the database already has on
// this device reused instead of run, and the rows the cancel flag stopped left out.
#include "bench/BenchRunSteps.h"

#include "cost/CostOf.h"

namespace beamscope {

std::optional<Measurement> BenchRun::reuse(const BenchJob &job) {
    std::optional<Measurement> stored = m_recorder->reusable(job.schedule);
    if (!stored) return std::nullopt;
    stored->label = job.label;
    stored->predicted = job.predicted;
    m_progress.label = "reusing " + job.label;
    say(job.label + ": reused from the measurement database");
    if (m_options.onProgress) m_options.onProgress(m_progress);
    ++m_progress.done;
    ++m_report.reused;
    if (m_options.onMeasured) m_options.onMeasured(*stored, false);
    return stored;
}

void BenchRun::recordRow(const Item &item, const Measurement &m, bool measure) {
    if (m.failed()) say(item.job.label + ": " + m.failure);
    if (storable(item, measure) && m_recorder->active()) {
        const nlohmann::json terms = item.index >= 0
                                         ? costOf(*m_set.candidates[size_t(item.index)].state,
                                                  m_search.costModel, m_search.gpu)
                                               .termsByName()
                                         : nlohmann::json();
        m_recorder->record(m, item.job.schedule, terms, item.job.baseline);
    }
    ++m_progress.done;
    if (m_options.onMeasured) m_options.onMeasured(m, item.baseline);
}

std::vector<std::optional<Measurement>> BenchRun::runBatch(std::vector<Item> items, bool measure) {
    std::vector<std::optional<Measurement>> out(items.size());
    std::vector<size_t> toRun;
    std::vector<BenchJob> jobs;
    for (size_t k = 0; k < items.size(); ++k) {
        if (cancelled()) return out;
        BenchJob &job = items[k].job;
        job.target = measure ? m_report.target : "";
        if (storable(items[k], measure) && !items[k].baseline && !m_options.fresh) {
            if (std::optional<Measurement> stored = reuse(job)) {
                out[k] = stored;
                continue;
            }
        }
        toRun.push_back(k);
        jobs.push_back(job);
    }
    if (jobs.empty()) return out;
    std::unique_ptr<MeasurementRunner> &runner = measure ? m_measuring : m_compiling;
    if (!runner) {
        RunnerOptions o;
        o.kind = measure ? m_options.runner : RunnerKind::Local; // compile-only work stays here
        o.jobs = m_options.jobs;
        o.worker.workerPath = m_options.workerPath;
        o.worker.cancel = m_options.cancel;
        o.slurm = m_options.slurm;
        runner = makeRunner(o, m_report.device);
    }
    RunnerCallbacks callbacks;
    callbacks.log = [this](const std::string &line) { say(line); };
    callbacks.onStart = [&](size_t j) {
        m_progress.label = std::string(measure ? "measuring " : "compiling ") + jobs[j].label;
        say(m_progress.label);
        if (m_options.onProgress) m_options.onProgress(m_progress);
    };
    callbacks.onDone = [&](size_t j, const Measurement &m) {
        if (m.failure == kCancelledFailure) return; // not a measurement
        recordRow(items[toRun[j]], m, measure);
    };
    callbacks.onProgress = m_options.onRunnerProgress;
    const std::vector<Measurement> rows = runner->run(jobs, callbacks);
    for (size_t j = 0; j < rows.size(); ++j)
        if (rows[j].failure != kCancelledFailure) out[toRun[j]] = rows[j];
    return out;
}

} // namespace beamscope
