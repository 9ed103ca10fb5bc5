// Contents: run identity and state (resume); choosing a round's batch (beam + greedy with
// dropout, minus what the database already holds); measuring a batch in parallel and recording
// each row; the per-round score of the model that chose it; retraining; the one-shot choice and
// the baselines. JSON and printing are in TuneReport.cpp.
#include "tune/Tuner.h"

#include "bench/BenchRun.h"
#include "bench/CandidateSampler.h"
#include "cost/CostModelFactory.h"
#include "cost/CostOf.h"
#include "cost/PretrainedModel.h"
#include "cost/RankMetrics.h"
#include "dag/FunctionDAG.h"
#include "measure/ParallelWorkers.h"
#include "measure/ReferenceCheck.h"
#include "schedule/ScheduleIO.h"
#include "store/MeasurementStore.h"
#include "tune/TrainingData.h"
#include "util/Error.h"
#include "util/Hash.h"
#include "util/Timing.h"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>

namespace beamscope {

namespace {

using Clock = std::chrono::steady_clock;
/// Everything a tune run holds while it goes, and what it has found.
struct TuneContext {
    TuneContext(const TuneOptions &o, TuneReport &r) : options(o), report(r) {}
    const TuneOptions &options;
    TuneReport &report;
    std::shared_ptr<const FunctionDAG> dag;
    PipelineIdentity pipeline;
    DeviceIdentity device;
    SearchOptions search;
    BenchJob base;
    std::string modelSpec = "analytic"; ///< the model the next round searches with
    /// The shipped model when the run started from it: retraining fine-tunes it on this device.
    std::shared_ptr<const LearnedCostModel> pretrained;
    std::string oneShotHash; ///< round 0's result under the analytic model: the one-shot choice
    bool storeBroken = false;
    std::unique_ptr<MeasurementRunner> runner; ///< where batches are measured

    void say(const std::string &line) const {
        if (options.log) options.log(line);
    }
    bool cancelled() const { return options.cancel && options.cancel->load(); }

    void progress(int round, const std::string &phase, int done = 0, int total = 0,
                  const std::string &label = "") const {
        if (!options.onProgress) return;
        TuneProgress p;
        p.round = round;
        p.rounds = options.rounds;
        p.phase = phase;
        p.done = done;
        p.total = total;
        p.label = label;
        options.onProgress(p);
    }
};

/// A measured row as the database keeps it.
MeasurementRecord recordOf(const TuneContext &ctx, const BenchJob &job, const Measurement &m,
                           const std::string &model, const nlohmann::json &terms, int round) {
    MeasurementRecord r;
    r.pipeline = ctx.pipeline;
    r.device = ctx.device;
    r.schedule = job.schedule;
    r.baseline = job.baseline;
    r.scheduleHash =
        job.schedule.is_null() ? "baseline:" + job.baseline : scheduleHash(job.schedule);
    r.gpu = ctx.search.gpu.toJson();
    r.costModel = model;
    r.predicted = job.predicted;
    r.predictedTerms = terms;
    r.measurement = m;
    r.repeats = job.repeats;
    r.origin = ctx.options.origin;
    r.runId = ctx.report.runId;
    r.round = round;
    return r;
}

void store(TuneContext &ctx, const MeasurementRecord &record) {
    if (ctx.storeBroken) return;
    try {
        ctx.options.store->add(record);
    } catch (const std::exception &e) {
        ctx.storeBroken = true;
        ctx.say(std::string("measurement database: ") + e.what() +
                "; the rest of the run is not recorded");
    }
}

/// A schedule the database already holds for this pipeline and device (and `fresh` is off).
std::optional<Measurement> known(const TuneContext &ctx, const std::string &hash) {
    if (ctx.options.fresh) return std::nullopt;
    try {
        if (auto r = ctx.options.store->findReusable(ctx.pipeline.key(), hash, ctx.device.key())) {
            Measurement m = r->measurement;
            m.reused = true;
            return m;
        }
    } catch (const std::exception &) {
        // An unreadable database measures again rather than stopping the run.
    }
    return std::nullopt;
}

struct Pending {
    BenchJob job;
    std::string model;
    nlohmann::json terms;
};

/// Measures `pending` with the run's runner, records each row as it arrives, and returns the
/// rows in the order of `pending` (failure kCancelledFailure for those the cancel flag stopped;
/// not recorded).
std::vector<Measurement> measureAll(TuneContext &ctx, const std::vector<Pending> &pending,
                                    int round) {
    std::vector<BenchJob> jobs;
    for (const Pending &p : pending)
        jobs.push_back(p.job);
    if (jobs.empty()) return {};
    int done = 0;
    const int total = int(jobs.size());
    RunnerCallbacks callbacks;
    callbacks.log = [&](const std::string &line) { ctx.say(line); };
    callbacks.onStart = [&](size_t i) {
        ctx.progress(round, "measuring", done, total, jobs[i].label);
    };
    callbacks.onDone = [&](size_t i, const Measurement &m) {
        if (m.failure == kCancelledFailure) return;
        ++done;
        store(ctx, recordOf(ctx, jobs[i], m, pending[i].model, pending[i].terms, round));
        if (m.failed()) ctx.say(jobs[i].label + ": " + m.failure);
        if (ctx.options.onMeasured) ctx.options.onMeasured(m);
        ctx.progress(round, "measuring", done, total, "");
    };
    callbacks.onProgress = [&](const RunnerProgress &p) {
        if (ctx.options.onRunnerProgress) ctx.options.onRunnerProgress(p);
    };
    return ctx.runner->run(jobs, callbacks);
}

bool wasCancelled(const Measurement &m) {
    return m.failure == kCancelledFailure;
}

bool usable(const Measurement &m) {
    return m.correct.value_or(false) && m.measuredMs.has_value();
}

void consider(TuneReport &report, const Measurement &m, const nlohmann::json &schedule) {
    if (!usable(m)) return;
    if (!report.best || m.measuredMs->median < report.best->measuredMs->median) {
        report.best = m;
        report.bestSchedule = schedule;
    }
}

/// The analytic one-shot choice (the result of a beam search with the analytic model), measured.
void measureOneShot(TuneContext &ctx) {
    SearchOptions search = ctx.search;
    search.costModel = "analytic";
    CandidateOptions co;
    co.search = search;
    co.topK = 1;
    co.greedySamples = 0;
    co.cancel = ctx.options.cancel;
    const CandidateSet set = sampleCandidates(ctx.dag, co);
    if (set.candidates.empty()) return;
    Pending p;
    p.job = ctx.base;
    p.job.label = "oneshot";
    p.job.schedule = scheduleToJson(*set.candidates[0].state);
    p.model = "analytic";
    const ModelCost oneShot = costOf(*set.candidates[0].state, "analytic", search.gpu);
    p.job.predicted = oneShot.cost.total;
    p.terms = oneShot.termsByName();
    if (auto m = known(ctx, scheduleHash(p.job.schedule))) {
        m->label = "oneshot";
        ctx.report.oneShot = *m;
    } else {
        std::vector<Measurement> rows = measureAll(ctx, {p}, -1);
        if (!rows.empty() && !wasCancelled(rows[0])) ctx.report.oneShot = rows[0];
    }
    if (ctx.report.oneShot) consider(ctx.report, *ctx.report.oneShot, p.job.schedule);
}

/// The round's batch: beam and greedy candidates taken alternately, skipping schedules seen in
/// this round or held by the database (those count as reused); more greedy samples are drawn
/// while the batch is short, up to three times.
std::vector<Pending> chooseBatch(TuneContext &ctx, int round, TuneRound &stats,
                                 std::vector<std::pair<Measurement, nlohmann::json>> &reused) {
    SearchOptions search = ctx.search;
    search.costModel = ctx.modelSpec;
    search.seed = ctx.search.seed + std::uint64_t(round) * 1000003ULL;
    CandidateOptions co;
    co.search = search;
    co.topK = ctx.options.batch;
    co.greedySamples = ctx.options.batch;
    co.dropoutPercent = ctx.options.dropoutPercent;
    co.cancel = ctx.options.cancel;
    CandidateSet set = sampleCandidates(ctx.dag, co);
    std::vector<Pending> batch;
    std::set<std::string> seen;
    auto take = [&](const BenchCandidate &c) {
        if (int(batch.size()) >= ctx.options.batch) return;
        nlohmann::json schedule = scheduleToJson(*c.state);
        const std::string hash = scheduleHash(schedule);
        if (!seen.insert(hash).second) return;
        if (round == 0 && c.label == "result" && ctx.modelSpec == "analytic")
            ctx.oneShotHash = hash;
        if (auto m = known(ctx, hash)) {
            if (hash == ctx.oneShotHash) ctx.report.oneShot = *m;
            ++stats.reused;
            reused.emplace_back(*m, schedule);
            return;
        }
        Pending p;
        p.job = ctx.base;
        p.job.label = "r" + std::to_string(round) + ":" + c.label;
        p.job.schedule = std::move(schedule);
        p.model = ctx.modelSpec == "analytic" || ctx.modelSpec == kPretrainedName ? ctx.modelSpec
                                                                                  : "learned";
        const ModelCost predicted = costOf(*c.state, ctx.modelSpec, search.gpu);
        p.job.predicted = predicted.cost.total;
        p.terms = predicted.termsByName();
        batch.push_back(std::move(p));
    };
    auto takeAlternately = [&](const std::vector<BenchCandidate> &all) {
        std::vector<const BenchCandidate *> beam, greedy;
        for (const BenchCandidate &c : all)
            (c.label == "result" || c.label.rfind("beam", 0) == 0 ? beam : greedy).push_back(&c);
        for (size_t i = 0; i < std::max(beam.size(), greedy.size()); ++i) {
            if (i < beam.size()) take(*beam[i]);
            if (i < greedy.size()) take(*greedy[i]);
        }
    };
    takeAlternately(set.candidates);
    for (int extra = 1; extra <= 3 && int(batch.size()) < ctx.options.batch; ++extra) {
        CandidateSet more;
        co.search.seed = search.seed + std::uint64_t(extra) * 7919ULL;
        co.greedySamples = ctx.options.batch;
        addGreedySamples(ctx.dag, co, more);
        for (BenchCandidate &c : more.candidates)
            c.label = "x" + std::to_string(extra) + c.label;
        takeAlternately(more.candidates);
    }
    return batch;
}

/// The options a fine-tuning of `model` boosts with: its own objective and tree shape, fewer
/// rounds (the device's rows correct it, they do not replace it).
TrainOptions pretrainedTrainOptions(const LearnedCostModel &model) {
    TrainOptions options;
    const nlohmann::json training = model.metadata().extra.value("training", nlohmann::json());
    if (training.is_object()) {
        options.objective = parseTrainObjective(training.value("objective", "pairwise"));
        options.maxDepth = training.value("max_depth", options.maxDepth);
        options.eta = training.value("eta", options.eta);
        options.minChildWeight = training.value("min_child_weight", options.minChildWeight);
        options.lambda = training.value("lambda", options.lambda);
    }
    options.rounds = 30;
    return options;
}

/// Retrains on every correct row of this device (all pipelines: what was measured elsewhere
/// transfers) and writes the model where the next round reads it.
void retrain(TuneContext &ctx, DatasetBuilder &builder, TuneRound &stats) {
    const Clock::time_point start = Clock::now();
    RecordFilter filter;
    filter.deviceKey = ctx.device.key();
    const std::vector<LabelledSchedule> rows = builder.build(filter);
    int ours = 0;
    for (const LabelledSchedule &s : rows)
        ours += s.pipeline == ctx.pipeline.key();
    if (ours < 2 || ctx.report.modelPath.empty()) {
        ctx.say("not retrained: fewer than 2 correct measurements of this pipeline");
        return;
    }
    auto model = ctx.pretrained
                     ? fineTuneOn(*ctx.pretrained, rows, ctx.device.key(), ctx.search.gpu.name,
                                  pretrainedTrainOptions(*ctx.pretrained))
                     : trainOn(rows, ctx.device.key(), ctx.search.gpu.name);
    std::filesystem::create_directories(std::filesystem::path(ctx.report.modelPath).parent_path());
    model->save(ctx.report.modelPath);
    ctx.modelSpec = ctx.report.modelPath;
    stats.trainMs = msSince(start);
}

void scoreRound(const std::vector<Pending> &batch, const std::vector<Measurement> &rows,
                TuneRound &stats) {
    std::vector<double> predicted, measured, noise;
    for (size_t i = 0; i < rows.size() && i < batch.size(); ++i) {
        const Measurement &m = rows[i];
        if (wasCancelled(m) || !usable(m)) continue;
        predicted.push_back(batch[i].job.predicted);
        // Scored against the time the model is trained on (tune/TrainingData.h).
        const double ms = measuredTime(m, MeasuredStatistic::Min);
        measured.push_back(ms);
        noise.push_back(measurementNoise(m));
        stats.predictedVsMeasured.emplace_back(batch[i].job.predicted, ms);
    }
    stats.tau = kendallTau(predicted, measured, noise);
    stats.pairwiseAccuracy = pairwiseAccuracy(predicted, measured, noise);
}

void measureBaselines(TuneContext &ctx) {
    std::vector<Pending> pending;
    for (Baseline b : ctx.options.baselines) {
        Pending p;
        p.job = ctx.base;
        p.job.label = std::string("baseline:") + baselineName(b);
        p.job.baseline = baselineName(b);
        p.model = "";
        if (auto m = known(ctx, "baseline:" + p.job.baseline)) {
            m->label = p.job.label;
            ctx.report.baselines.push_back(*m);
            continue;
        }
        pending.push_back(p);
    }
    ctx.progress(ctx.options.rounds, "baselines", 0, int(pending.size()));
    for (Measurement &m : measureAll(ctx, pending, -1)) {
        if (!wasCancelled(m)) ctx.report.baselines.push_back(std::move(m));
    }
}

} // namespace

std::string defaultModelPath(const MeasurementStore &store, const std::string &runId) {
    return (std::filesystem::path(store.path()).parent_path() / "models" / (runId + ".model"))
        .string();
}

TuneReport runTune(const TuneOptions &options) {
    if (!options.store) throw UsageError("tune needs a measurement database");
    if (options.rounds < 1 || options.batch < 1)
        throw UsageError("tune: rounds and batch must be >= 1");
    TuneReport report;
    report.device = detectDevice(options.device);
    if (options.device == DevicePreference::Cuda && report.device.kind != DeviceKind::Cuda)
        throw Error("no CUDA device: " + report.device.describe());
    if (options.device == DevicePreference::OpenCL && report.device.kind != DeviceKind::OpenCL)
        throw Error("no OpenCL device: " + report.device.describe());
    const std::string target = report.device.halideTarget();
    if (target.empty())
        throw Error("tune measures on a device, and none was found: " + report.device.describe());

    TuneContext ctx(options, report);
    ctx.search = options.search;
    if (ctx.search.gpu.name.empty()) ctx.search.gpu = gpuSpecForDevice(report.device);
    report.gpu = ctx.search.gpu;
    ctx.modelSpec = ctx.search.costModel.empty() ? "analytic" : ctx.search.costModel;
    if (ctx.modelSpec == kDefaultModelSpec) ctx.modelSpec = defaultCostModelSpec(ctx.search.gpu);
    if (ctx.modelSpec == kPretrainedName) ctx.pretrained = loadPretrained(ctx.search.gpu);
    ctx.dag = std::make_shared<const FunctionDAG>(loadPipeline(options.source));
    report.pipeline = ctx.dag->pipelineName();
    ctx.pipeline = PipelineIdentity::of(options.source, *ctx.dag);
    ctx.device = DeviceIdentity::of(report.device);
    report.runId = !options.runId.empty()
                       ? options.runId
                       : "tune-" + fnv1a64Hex((ctx.pipeline.key() + "|" + ctx.device.key() + "|" +
                                               std::to_string(options.batch) + "|" +
                                               std::to_string(ctx.search.seed)));
    report.modelPath = options.modelPath.empty() ? defaultModelPath(*options.store, report.runId)
                                                 : options.modelPath;
    int firstRound = 0;
    if (options.resume) {
        const std::optional<nlohmann::json> state = options.store->run(report.runId);
        if (!state) throw UsageError("no tune run '" + report.runId + "' to resume");
        firstRound = state->value("rounds_done", 0);
        const std::string model = state->value("model", std::string("analytic"));
        if (model == "analytic" || model == "polymage" || model == kPretrainedName ||
            std::filesystem::exists(model))
            ctx.modelSpec = model;
        ctx.say("resuming " + report.runId + " after round " + std::to_string(firstRound) +
                " with the " + ctx.modelSpec + " model");
    } else {
        // Saved before the first measurement, so a run stopped in its first round can resume.
        try {
            options.store->upsertRun(report.runId, {{"rounds_done", 0},
                                                    {"model", ctx.modelSpec},
                                                    {"pipeline", ctx.pipeline.key()},
                                                    {"device", ctx.device.key()},
                                                    {"batch", options.batch}});
        } catch (const std::exception &e) {
            ctx.storeBroken = true;
            ctx.say(std::string("measurement database: ") + e.what() + "; the run is not recorded");
        }
    }

    const std::string referenceCache =
        std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") +
        "/beamscope-tune-ref-" + std::to_string(getpid()) + ".bin";
    ctx.base.source = options.source;
    ctx.base.gpu = ctx.search.gpu;
    ctx.base.target = target;
    ctx.base.stageProducers = options.stageProducers;
    ctx.base.warmup = options.warmup;
    ctx.base.repeats = options.repeats;
    ctx.base.minTimedMs = options.minTimedMs;
    ctx.base.timeoutS = options.timeoutS;
    ctx.base.referenceCache = referenceCache;
    ctx.base.deviceLock = deviceLockPath(report.device);
    ctx.say("device: " + report.device.describe() + "; GPU model " + ctx.search.gpu.name);
    RunnerOptions runner;
    runner.kind = options.runner;
    runner.jobs = options.compileJobs;
    runner.worker.workerPath = options.workerPath;
    runner.worker.cancel = options.cancel;
    runner.slurm = options.slurm;
    ctx.runner = makeRunner(runner, report.device);
    ctx.say("runner: " + ctx.runner->name() + ", " + ctx.runner->describe());

    DatasetBuilder builder(*options.store);
    try {
        ctx.progress(firstRound, "searching");
        // The one-shot choice is round 0's result when round 0 searches with the analytic model;
        // otherwise (resume, another starting model) it is searched and measured on its own.
        if (firstRound > 0 || ctx.modelSpec != "analytic") measureOneShot(ctx);
        // Rows of earlier rounds (resume) count towards the best.
        RecordFilter mine;
        mine.runId = report.runId;
        mine.successfulOnly = true;
        for (const MeasurementRecord &r : options.store->records(mine))
            consider(report, r.measurement, r.schedule);
        for (int round = firstRound; round < options.rounds && !ctx.cancelled(); ++round) {
            TuneRound stats;
            stats.round = round;
            stats.model = ctx.modelSpec == "analytic" || ctx.modelSpec == "polymage" ||
                                  ctx.modelSpec == kPretrainedName
                              ? ctx.modelSpec
                              : "learned";
            ctx.progress(round, "searching");
            Clock::time_point start = Clock::now();
            std::vector<std::pair<Measurement, nlohmann::json>> reused;
            const std::vector<Pending> batch = chooseBatch(ctx, round, stats, reused);
            stats.searchMs = msSince(start);
            start = Clock::now();
            const std::vector<Measurement> rows = measureAll(ctx, batch, round);
            stats.measureMs = msSince(start);
            for (size_t i = 0; i < rows.size(); ++i) {
                if (wasCancelled(rows[i])) continue;
                if (!ctx.oneShotHash.empty() &&
                    scheduleHash(batch[i].job.schedule) == ctx.oneShotHash)
                    report.oneShot = rows[i];
                ++stats.measured;
                stats.failures += rows[i].failed();
                consider(report, rows[i], batch[i].job.schedule);
                if (usable(rows[i]) && !(stats.roundBestMs <= rows[i].measuredMs->median))
                    stats.roundBestMs = rows[i].measuredMs->median;
            }
            for (const auto &[m, schedule] : reused)
                consider(report, m, schedule);
            scoreRound(batch, rows, stats);
            if (ctx.cancelled()) break; // the round is incomplete: not trained on, not counted
            ctx.progress(round, "training");
            retrain(ctx, builder, stats);
            stats.bestMs = report.best ? report.best->measuredMs->median : Measurement::kUnknown;
            report.rounds.push_back(stats);
            if (!ctx.storeBroken) {
                options.store->upsertRun(report.runId, {{"rounds_done", round + 1},
                                                        {"model", ctx.modelSpec},
                                                        {"pipeline", ctx.pipeline.key()},
                                                        {"device", ctx.device.key()},
                                                        {"batch", options.batch}});
            }
            ctx.say(tuneRoundLine(stats));
            if (options.onRound) options.onRound(stats);
        }
        if (!ctx.cancelled()) measureBaselines(ctx);
    } catch (const SearchCancelled &) {
        // Stopped while searching: what was measured is recorded and reported.
    }
    removeReferenceCaches(referenceCache);
    report.cancelled = ctx.cancelled();
    ctx.progress(int(report.rounds.size()), report.cancelled ? "cancelled" : "done");
    if (!std::filesystem::exists(report.modelPath)) report.modelPath.clear();
    return report;
}

} // namespace beamscope
