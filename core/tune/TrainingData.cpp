// Contents: the held-out split; DatasetBuilder (records -> rebuilt states -> features and the
// analytic and PolyMage costs, cached); the device choice; the model comparison and its table;
// training on rows.
#include "tune/TrainingData.h"

#include "bench/BaselineImport.h"
#include "bench/BenchRun.h"
#include "cost/CostModelFactory.h"
#include "cost/CostOf.h"
#include "cost/Featurizer.h"
#include "cost/RankMetrics.h"
#include "cost/ScheduleFeatures.h"
#include "dag/FunctionDAG.h"
#include "schedule/ScheduleIO.h"
#include "tune/KernelTimeMatch.h"
#include "util/Error.h"
#include "util/Hash.h"
#include "util/JsonNumber.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <ostream>
#include <set>
#include <sstream>

namespace beamscope {

bool isHeldOut(const std::string &scheduleHash) {
    // Hashed again: the split does not depend on how the hash itself is spelled.
    return fnv1a64(scheduleHash) % 8 == 0;
}

struct DatasetBuilder::PipelineCache {
    std::shared_ptr<const FunctionDAG> dag;
    std::string error; ///< why it could not be rebuilt ("" when it was)
};

DatasetBuilder::DatasetBuilder(MeasurementStore &store) : m_store(store) {}
DatasetBuilder::~DatasetBuilder() = default;

namespace {

/// The GPU model a record was searched (or its baseline scheduled) with. Benches of the first
/// GPU checks stored none for their baselines; they ran with the preset the CUDA device fits.
GpuSpec gpuOfRecord(const MeasurementRecord &r) {
    if (r.gpu.is_null() && !r.baseline.empty() && r.device.kind == "cuda") {
        DeviceInfo device;
        device.kind = DeviceKind::Cuda;
        device.name = r.device.name;
        return gpuSpecForDevice(device);
    }
    return GpuSpec::fromJson(r.gpu, "measured GPU model");
}

} // namespace

StatePtr DatasetBuilder::importedBaseline(const std::string &pipelineKey,
                                          const MeasurementRecord &r, const GpuSpec &gpu) {
    const std::string key = pipelineKey + "|" + r.baseline + "|" + gpu.name;
    if (auto it = m_baselines.find(key); it != m_baselines.end()) {
        if (!it->second.state) throw Error(it->second.error);
        return it->second.state;
    }
    ImportedBaseline &imported = m_baselines[key];
    try {
        const ForeignSchedule foreign =
            importBaseline(parseBaseline(r.baseline), r.pipeline.source(), gpu, false);
        if (!foreign.imported.state) {
            throw Error(r.baseline + "'s schedule is outside Beamscope's space (" +
                        std::to_string(foreign.imported.unrepresentable()) + " of " +
                        std::to_string(foreign.imported.funcs.size()) +
                        " Funcs not representable)");
        }
        imported.state = foreign.imported.state;
    } catch (const std::exception &e) {
        imported.error = e.what();
        throw;
    }
    return imported.state;
}

std::vector<LabelledSchedule> searchedRows(const std::vector<LabelledSchedule> &rows) {
    std::vector<LabelledSchedule> out;
    for (const LabelledSchedule &s : rows) {
        if (s.baseline.empty()) out.push_back(s);
    }
    return out;
}

MeasuredStatistic parseMeasuredStatistic(const std::string &name) {
    if (name == "min") return MeasuredStatistic::Min;
    if (name == "median") return MeasuredStatistic::Median;
    throw Error("unknown measured-time statistic '" + name + "' (min or median)");
}

const char *measuredStatisticName(MeasuredStatistic statistic) {
    return statistic == MeasuredStatistic::Min ? "min" : "median";
}

double measuredTime(const Measurement &m, MeasuredStatistic statistic) {
    if (!m.measuredMs) return 0;
    return statistic == MeasuredStatistic::Min ? m.measuredMs->min : m.measuredMs->median;
}

double measurementNoise(const Measurement &m) {
    if (!m.measuredMs || m.measuredMs->median <= 0) return 0;
    return (m.measuredMs->median - m.measuredMs->min) / m.measuredMs->median;
}

std::vector<LabelledSchedule> DatasetBuilder::build(RecordFilter filter) {
    filter.successfulOnly = true;
    std::vector<LabelledSchedule> out;
    for (const MeasurementRecord &r : m_store.records(filter)) {
        if (auto it = m_rows.find(r.id); it != m_rows.end()) {
            out.push_back(it->second);
            continue;
        }
        if (m_rejected.count(r.id) || !(measuredTime(r.measurement, m_statistic) > 0)) continue;
        // A baseline's row has no Beamscope schedule: imported from the plugin when asked.
        const bool baselineRow = r.schedule.is_null();
        if (baselineRow && (!m_importBaselines || r.baseline.empty())) continue;
        auto reject = [&](const std::string &why) {
            m_rejected[r.id] = true;
            m_skipped.push_back("record " + std::to_string(r.id) + " (" + r.pipeline.app +
                                "): " + why);
        };
        const std::string key = r.pipeline.key();
        std::shared_ptr<PipelineCache> &cache = m_pipelines[key];
        if (!cache) {
            cache = std::make_shared<PipelineCache>();
            try {
                auto dag = std::make_shared<const FunctionDAG>(loadPipeline(r.pipeline.source()));
                if (PipelineIdentity::of(r.pipeline.source(), *dag).dagHash != r.pipeline.dagHash)
                    cache->error = "the pipeline's Func DAG changed since it was measured";
                else
                    cache->dag = dag;
            } catch (const std::exception &e) {
                cache->error = std::string("pipeline not rebuilt: ") + e.what();
            }
        }
        if (!cache->dag) {
            reject(cache->error);
            continue;
        }
        LabelledSchedule s;
        StatePtr state;
        std::vector<std::shared_ptr<const KernelFeatures>> kernels;
        StateCost prior;
        try {
            const GpuSpec gpu = gpuOfRecord(r);
            s.gpu = gpu.name;
            state = baselineRow
                        ? importedBaseline(key, r, gpu)
                        // Lowered as it was measured: rows made before the unroll
                        // limit changed ran their 16-point tiles rolled.
                        : scheduleFromJson(cache->dag, r.schedule, r.measurement.maxUnrolledPoints);
            Featurizer featurizer(gpu, /*memoize=*/false);
            kernels = featurizer.featurize(*state);
            auto analytic = makeCostModel("analytic", gpu);
            auto polymage = makeCostModel("polymage", gpu);
            prior = costOf(*state, *analytic, kernels).cost;
            s.polymageScore = costOf(*state, *polymage, kernels).cost.total;
            if (r.featureSchema == kScheduleFeatureSchema && !r.features.empty()) {
                s.row.features = r.features;
            } else {
                // Stored with an older schema (or none): featurized again from the schedule,
                // and cached when the database may be written.
                s.row.features = scheduleFeatureVector(kernels, prior, gpu);
                if (!m_store.readOnly())
                    m_store.setFeatures(r.id, kScheduleFeatureSchema, s.row.features);
            }
            s.row.analyticMs = prior.total;
            s.row.kernels = kernelFeatureRows(kernels, prior, gpu);
            if (!r.measurement.kernelTimes.empty())
                s.row.kernelMeasuredMs =
                    matchKernelTimes(kernelRootStages(*state, kernels), r.measurement.kernelTimes);
        } catch (const std::exception &e) {
            reject(std::string("schedule not rebuilt: ") + e.what());
            continue;
        }
        s.recordId = r.id;
        s.pipeline = key;
        s.app = r.pipeline.app;
        s.scheduleHash = r.scheduleHash;
        s.deviceKey = r.device.key();
        // A pipeline's rows are ranked among those of one device: times of two GPUs differ.
        s.row.group = key + "|" + s.deviceKey;
        s.row.measuredMs = measuredTime(r.measurement, m_statistic);
        s.noise = measurementNoise(r.measurement);
        s.heldOut = !baselineRow && isHeldOut(r.scheduleHash);
        if (baselineRow) s.baseline = r.baseline;
        m_rows[r.id] = s;
        if (m_observer) m_observer(FeaturizedRow{s, *state, kernels, prior});
        out.push_back(s);
    }
    return out;
}

std::string chooseDevice(MeasurementStore &store, const std::string &nameFilter) {
    std::map<std::string, std::int64_t> counts;
    for (const auto &[pipeline, device, count] : store.stats().groups) {
        if (nameFilter.empty() || device.find(nameFilter) != std::string::npos)
            counts[device] += count;
    }
    if (counts.empty()) {
        throw Error(nameFilter.empty()
                        ? "the measurement database holds no measurements"
                        : "no measurements on a device matching '" + nameFilter + "'");
    }
    return std::max_element(counts.begin(), counts.end(),
                            [](const auto &a, const auto &b) { return a.second < b.second; })
        ->first;
}

std::vector<RankedModel> standardModels(std::shared_ptr<const LearnedCostModel> learned) {
    std::vector<RankedModel> models{
        {"analytic", [](const LabelledSchedule &s) { return s.row.analyticMs; }},
        {"polymage", [](const LabelledSchedule &s) { return s.polymageScore; }}};
    if (learned) {
        models.push_back({"learned", [learned](const LabelledSchedule &s) {
                              return learned->predictMs(s.row);
                          }});
    }
    return models;
}

namespace {

/// One row per schedule of a pipeline: a schedule measured more than once (in two GPU checks, or
/// by collect and tune) is ranked once, by its fastest measurement, as a row's time is the
/// fastest of its repeats. Ranked twice, its copies tie in every model's prediction and the
/// one-shot pick took whichever copy came first: the regret measured which GPU check was
/// luckier, not the model (docs/pretrained.md, "Forty-third session"). Oldest first, as given.
std::vector<const LabelledSchedule *>
fastestOfEachSchedule(const std::vector<const LabelledSchedule *> &measurements) {
    std::map<std::string, size_t> slot;
    std::vector<const LabelledSchedule *> kept;
    for (const LabelledSchedule *s : measurements) {
        if (s->scheduleHash.empty()) { // not a stored record's: nothing says it is another's
            kept.push_back(s);
            continue;
        }
        auto [it, fresh] = slot.emplace(s->scheduleHash, kept.size());
        if (fresh)
            kept.push_back(s);
        else if (s->row.measuredMs < kept[it->second]->row.measuredMs)
            kept[it->second] = s;
    }
    return kept;
}

} // namespace

ModelComparison compareModels(const std::vector<LabelledSchedule> &rows,
                              const std::vector<RankedModel> &models) {
    ModelComparison c;
    c.testRows = int(rows.size());
    std::map<std::string, std::vector<const LabelledSchedule *>> byPipeline;
    for (const LabelledSchedule &s : rows)
        byPipeline[s.row.group].push_back(&s);
    std::vector<std::vector<double>> taus(models.size()), accuracies(models.size()),
        regrets(models.size());
    for (const auto &[key, measurements] : byPipeline) {
        const std::vector<const LabelledSchedule *> members = fastestOfEachSchedule(measurements);
        if (members.size() < 2) continue;
        PipelineComparison p;
        p.pipeline = members.front()->app;
        p.gpu = members.front()->gpu;
        p.rows = int(members.size());
        p.measurements = int(measurements.size());
        std::vector<double> measured, noise;
        for (const LabelledSchedule *s : members) {
            measured.push_back(s->row.measuredMs);
            noise.push_back(s->noise);
            p.records.push_back(s->recordId);
        }
        p.measured = measured;
        for (size_t m = 0; m < models.size(); ++m) {
            std::vector<double> &predicted = p.predicted.emplace_back();
            for (const LabelledSchedule *s : members)
                predicted.push_back(models[m].predict(*s));
            ModelScore score{models[m].name, kendallTau(predicted, measured, noise),
                             pairwiseAccuracy(predicted, measured, noise),
                             oneShotRegret(predicted, measured)};
            if (std::isfinite(score.tau)) taus[m].push_back(score.tau);
            if (std::isfinite(score.accuracy)) accuracies[m].push_back(score.accuracy);
            if (std::isfinite(score.regret)) regrets[m].push_back(score.regret);
            p.scores.push_back(score);
        }
        c.pipelines.push_back(p);
    }
    auto mean = [](const std::vector<double> &v) {
        if (v.empty()) return std::nan("");
        double sum = 0;
        for (double x : v)
            sum += x;
        return sum / double(v.size());
    };
    auto geomean = [](const std::vector<double> &v) {
        if (v.empty()) return std::nan("");
        double sum = 0;
        for (double x : v)
            sum += std::log(x);
        return std::exp(sum / double(v.size()));
    };
    for (size_t m = 0; m < models.size(); ++m)
        c.overall.push_back(
            {models[m].name, mean(taus[m]), mean(accuracies[m]), geomean(regrets[m])});
    return c;
}

namespace {

std::string cell(double v, int digits = 3) {
    if (!std::isfinite(v)) return "-";
    std::ostringstream os;
    os << std::fixed << std::setprecision(digits) << v;
    return os.str();
}

} // namespace

nlohmann::json ModelComparison::toJson() const {
    auto scores = [](const std::vector<ModelScore> &list) {
        nlohmann::json j = nlohmann::json::object();
        for (const ModelScore &s : list)
            j[s.model] = {{"tau", jsonNumber(s.tau)},
                          {"pairwise_accuracy", jsonNumber(s.accuracy)},
                          {"regret", jsonNumber(s.regret)}};
        return j;
    };
    nlohmann::json j;
    j["train_rows"] = trainRows;
    j["test_rows"] = testRows;
    j["pipelines"] = nlohmann::json::array();
    for (const PipelineComparison &p : pipelines)
        j["pipelines"].push_back({{"pipeline", p.pipeline},
                                  {"gpu", p.gpu},
                                  {"rows", p.rows},
                                  {"measurements", p.measurements},
                                  {"models", scores(p.scores)}});
    j["overall"] = scores(overall);
    return j;
}

void ModelComparison::print(std::ostream &os) const {
    os << (heading.empty() ? "held-out rows " + std::to_string(testRows) + " (trained on " +
                                 std::to_string(trainRows) + ")"
                           : heading)
       << "; Kendall's tau / pairwise accuracy / one-shot regret within each pipeline "
          "(overall: mean, mean, geomean)\n";
    os << std::left << std::setw(26) << "pipeline" << std::right << std::setw(6) << "rows";
    for (const ModelScore &s : overall)
        os << std::setw(26) << s.model;
    os << "\n";
    auto line = [&](const std::string &name, const std::string &rows,
                    const std::vector<ModelScore> &scores) {
        os << std::left << std::setw(26) << name << std::right << std::setw(6) << rows;
        for (const ModelScore &s : scores)
            os << std::setw(26)
               << (cell(s.tau) + " / " + cell(s.accuracy) + " / " + cell(s.regret, 2));
        os << "\n";
    };
    // With rows of several GPUs, each pipeline's line says whose.
    std::set<std::string> gpus;
    for (const PipelineComparison &p : pipelines)
        gpus.insert(p.gpu);
    for (const PipelineComparison &p : pipelines)
        line(gpus.size() > 1 ? p.pipeline + " @ " + p.gpu : p.pipeline, std::to_string(p.rows),
             p.scores);
    line("overall", std::to_string(testRows), overall);
    int merged = 0;
    for (const PipelineComparison &p : pipelines)
        merged += p.measurements - p.rows;
    if (merged > 0)
        os << "(" << merged
           << " repeated measurements of a schedule merged: each schedule is ranked once, by its "
              "fastest)\n";
}

namespace {

/// The GPUs of `gpus` (a ", "-separated list: those of every row loaded) that some training row
/// was measured on: an objective that trains on a subset (kernel-times: the rows with CUPTI's
/// times) names only the GPUs it learned from. `gpus` unchanged when it names none of them.
std::string gpusTrainedOn(const std::string &gpus, const std::vector<LabelledSchedule> &rows) {
    std::set<std::string> seen;
    for (const LabelledSchedule &s : rows)
        seen.insert(s.gpu);
    std::string kept;
    for (size_t start = 0; start <= gpus.size();) {
        size_t end = gpus.find(", ", start);
        if (end == std::string::npos) end = gpus.size();
        const std::string name = gpus.substr(start, end - start);
        if (seen.count(name)) kept += (kept.empty() ? "" : ", ") + name;
        start = end + 2;
    }
    return kept.empty() ? gpus : kept;
}

/// Training rows and metadata from labelled rows.
std::pair<std::vector<TrainingRow>, ModelMetadata>
trainingSet(const std::vector<LabelledSchedule> &rows, const std::string &device,
            const std::string &gpu) {
    if (rows.empty()) throw Error("no correct measurements to train on");
    std::vector<TrainingRow> training;
    std::set<std::string> groups;
    std::set<std::string> keys;
    std::map<std::string, int> apps;
    for (const LabelledSchedule &s : rows) {
        training.push_back(s.row);
        groups.insert(s.pipeline);
        keys.insert(rowKey(s.pipeline, s.scheduleHash, s.deviceKey));
        ++apps[s.app];
    }
    ModelMetadata meta;
    meta.device = device;
    meta.gpu = gpusTrainedOn(gpu, rows);
    meta.featureSchema = kScheduleFeatureSchema;
    meta.trainingRows = int(training.size());
    meta.trainingGroups = int(groups.size());
    meta.createdWith = "beamscope";
    meta.trainedOn.assign(keys.begin(), keys.end());
    meta.extra = {{"training_set", {{"rows", training.size()}, {"apps", apps}}}};
    return {std::move(training), std::move(meta)};
}

/// The rows an objective learns from: with per-kernel times only those that have them, so the
/// model's metadata (trained_on, the training set) names exactly what it saw.
std::vector<LabelledSchedule> rowsFor(const std::vector<LabelledSchedule> &rows,
                                      const TrainOptions &options) {
    if (options.objective != TrainObjective::KernelTimes) return rows;
    std::vector<LabelledSchedule> timed;
    for (const LabelledSchedule &s : rows)
        if (!s.row.kernelMeasuredMs.empty()) timed.push_back(s);
    if (timed.empty())
        throw Error("no correct measurement has per-kernel times to train on (CUDA rows with "
                    "CUPTI's kernel times, paired one to one with Beamscope's kernels)");
    return timed;
}

} // namespace

std::shared_ptr<LearnedCostModel> trainOn(const std::vector<LabelledSchedule> &rows,
                                          const std::string &device, const std::string &gpu,
                                          const TrainOptions &options) {
    const auto [training, meta] = trainingSet(rowsFor(rows, options), device, gpu);
    return LearnedCostModel::train(training, meta, options);
}

std::shared_ptr<LearnedCostModel> fineTuneOn(const LearnedCostModel &base,
                                             const std::vector<LabelledSchedule> &rows,
                                             const std::string &device, const std::string &gpu,
                                             const TrainOptions &options) {
    TrainOptions fineTuning = options;
    // Rows without a kernel's own time (no CUPTI on this device) still correct the same
    // structure, through the summed time.
    if (fineTuning.objective == TrainObjective::KernelTimes &&
        std::none_of(rows.begin(), rows.end(),
                     [](const LabelledSchedule &s) { return !s.row.kernelMeasuredMs.empty(); }))
        fineTuning.objective = TrainObjective::SummedKernels;
    const auto [training, meta] = trainingSet(rowsFor(rows, fineTuning), device, gpu);
    return base.fineTuned(training, meta, fineTuning);
}

} // namespace beamscope
