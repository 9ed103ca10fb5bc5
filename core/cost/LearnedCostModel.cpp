// LearnedCostModel: training (per schedule: rank:pairwise or centred regression over groups with
// the analytic base margin; per kernel: the summed-time custom objective), batched prediction.
// Contents: XGBoost call checking and handles; row validation; train; the per-kernel boosting
// loop; prediction; the CostModel side. Save and load are in LearnedModelFile.cpp.
#include "cost/LearnedCostModel.h"

#include "util/Error.h"
#include "util/Hash.h"

#include <xgboost/c_api.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <sstream>

namespace beamscope {

namespace {

/// Throws Error with XGBoost's message (first line) when a C API call failed.
void check(int rc, const char *what) {
    if (rc == 0) return;
    std::string message = XGBGetLastError();
    message = message.substr(0, message.find('\n'));
    throw Error(std::string("XGBoost failed to ") + what + ": " + message);
}

/// An owned DMatrixHandle.
struct Matrix {
    DMatrixHandle handle = nullptr;
    Matrix(const std::vector<float> &data, size_t rows, size_t cols, int nthread) {
        check(XGDMatrixCreateFromMat_omp(data.data(), bst_ulong(rows), bst_ulong(cols),
                                         std::numeric_limits<float>::quiet_NaN(), &handle, nthread),
              "build a feature matrix");
    }
    ~Matrix() {
        if (handle) XGDMatrixFree(handle);
    }
    Matrix(const Matrix &) = delete;
    Matrix &operator=(const Matrix &) = delete;
    void setFloats(const char *field, const std::vector<float> &values) {
        check(XGDMatrixSetFloatInfo(handle, field, values.data(), bst_ulong(values.size())),
              "set row data");
    }
};

void setParam(BoosterHandle booster, const char *name, const std::string &value) {
    check(XGBoosterSetParam(booster, name, value.c_str()), "set a training parameter");
}

/// Bounds the booster's OpenMP threads and silences its console output.
void configureThreads(BoosterHandle booster, int nthread) {
    setParam(booster, "nthread", std::to_string(std::max(1, nthread)));
    setParam(booster, "verbosity", "0");
}

/// Checks a row's shape and times; `what` names the row in the message.
void checkRow(const std::vector<float> &features, double analyticMs, const std::string &what) {
    const size_t expected = scheduleFeatureNames().size();
    if (features.size() != expected)
        throw Error(what + " has " + std::to_string(features.size()) +
                    " features; feature schema " + std::to_string(kScheduleFeatureSchema) +
                    " has " + std::to_string(expected));
    if (!(analyticMs > 0) || !std::isfinite(analyticMs))
        throw Error(what + " has no positive analytic prediction");
}

/// Checks a kernel's analytic time: finite and not negative.
void checkKernelTime(double analyticMs, const std::string &what) {
    if (!(analyticMs >= 0) || !std::isfinite(analyticMs))
        throw Error(what + " has a kernel without an analytic time");
}

/// Checks a row's kernels for a per-kernel model: the schema's length, finite non-negative
/// times, and (to train on) a positive sum.
void checkKernels(const std::vector<KernelFeatureRow> &kernels, const std::string &what,
                  bool training) {
    const size_t expected = kernelFeatureNames().size();
    double sum = 0;
    for (const KernelFeatureRow &k : kernels) {
        if (k.features.size() != expected)
            throw Error(what + " has a kernel of " + std::to_string(k.features.size()) +
                        " features; feature schema " + std::to_string(kScheduleFeatureSchema) +
                        " has " + std::to_string(expected) + " per kernel");
        checkKernelTime(k.analyticMs, what);
        sum += k.analyticMs;
    }
    if (training && !(sum > 0)) throw Error(what + " has no kernel with a positive analytic time");
}

std::string prettyDouble(double v) {
    std::ostringstream os;
    os << v;
    return os.str();
}

} // namespace

const char *trainObjectiveName(TrainObjective o) {
    switch (o) {
    case TrainObjective::Pairwise:
        return "pairwise";
    case TrainObjective::CenteredRegression:
        return "regression";
    case TrainObjective::SummedKernels:
        return "kernels";
    case TrainObjective::KernelTimes:
        return "kernel-times";
    }
    return "pairwise";
}

TrainObjective parseTrainObjective(const std::string &name) {
    if (name == "pairwise") return TrainObjective::Pairwise;
    if (name == "regression") return TrainObjective::CenteredRegression;
    if (name == "kernels") return TrainObjective::SummedKernels;
    if (name == "kernel-times") return TrainObjective::KernelTimes;
    throw UsageError("unknown training objective '" + name +
                     "': use pairwise, regression, kernels or kernel-times");
}

ModelStructure structureOf(TrainObjective o) {
    return o == TrainObjective::SummedKernels || o == TrainObjective::KernelTimes
               ? ModelStructure::Kernels
               : ModelStructure::Schedule;
}

nlohmann::json TrainOptions::toJson() const {
    nlohmann::json j = {{"objective", trainObjectiveName(objective)},
                        {"rounds", rounds},
                        {"max_depth", maxDepth},
                        {"eta", eta},
                        {"min_child_weight", minChildWeight},
                        {"lambda", lambda},
                        {"subsample", subsample},
                        {"colsample_bytree", colsample},
                        {"seed", seed}};
    // Only when used: the metadata of models trained without it stays as it was.
    if (parallelTrees != 1) j["num_parallel_tree"] = parallelTrees;
    return j;
}

std::string rowKey(const std::string &pipelineKey, const std::string &scheduleHash,
                   const std::string &deviceKey) {
    return fnv1a64Hex(pipelineKey + "\n" + scheduleHash + "\n" + deviceKey);
}

LearnedCostModel::LearnedCostModel(GpuSpec gpu, ModelMetadata meta, void *booster, int nthread,
                                   ModelStructure structure)
    : m_gpu(gpu), m_analytic(std::move(gpu)), m_meta(std::move(meta)), m_booster(booster),
      m_nthread(std::max(1, nthread)), m_structure(structure) {}

LearnedCostModel::~LearnedCostModel() {
    if (m_booster) XGBoosterFree(m_booster);
}

std::shared_ptr<LearnedCostModel> LearnedCostModel::train(const std::vector<TrainingRow> &rows,
                                                          const ModelMetadata &meta,
                                                          const TrainOptions &options) {
    return boost(nullptr, rows, meta, options);
}

std::shared_ptr<LearnedCostModel>
LearnedCostModel::fineTuned(const std::vector<TrainingRow> &rows, const ModelMetadata &meta,
                            const TrainOptions &options) const {
    if (structureOf(options.objective) != m_structure)
        throw Error(std::string("a ") +
                    (m_structure == ModelStructure::Kernels ? "per-kernel" : "schedule-level") +
                    " model cannot be fine-tuned with the " +
                    trainObjectiveName(options.objective) + " objective");
    // A copy of the trees through XGBoost's own serialisation, so this model stays as it is.
    bst_ulong length = 0;
    const char *buffer = nullptr;
    check(XGBoosterSaveModelToBuffer(m_booster, R"({"format": "json"})", &length, &buffer),
          "copy the model");
    const std::string copy(buffer, length);
    BoosterHandle booster = nullptr;
    check(XGBoosterCreate(nullptr, 0, &booster), "create a booster");
    if (XGBoosterLoadModelFromBuffer(booster, copy.data(), bst_ulong(copy.size())) != 0) {
        XGBoosterFree(booster);
        check(-1, "copy the model");
    }
    ModelMetadata m = meta;
    if (m.extra.is_null()) m.extra = nlohmann::json::object();
    m.extra["fine_tuned_from"] = {{"name", m_name},
                                  {"gpu", m_meta.gpu},
                                  {"training_rows", m_meta.trainingRows}};
    return boost(booster, rows, m, options);
}

std::shared_ptr<LearnedCostModel> LearnedCostModel::boost(void *existing,
                                                          const std::vector<TrainingRow> &rows,
                                                          const ModelMetadata &meta,
                                                          const TrainOptions &options) {
    BoosterHandle booster = existing;
    // Owned from here: freed on any error before the model takes it.
    std::unique_ptr<void, int (*)(BoosterHandle)> guard(booster, XGBoosterFree);
    if (rows.empty()) throw Error("cannot train a cost model on no measurements");
    if (options.rounds < 1 || options.maxDepth < 1 || !(options.eta > 0) ||
        options.parallelTrees < 1)
        throw UsageError("training needs at least one round, a depth of at least 1, a positive "
                         "eta and at least one tree per round");
    if (!(options.subsample > 0 && options.subsample <= 1) ||
        !(options.colsample > 0 && options.colsample <= 1) || options.minChildWeight < 0 ||
        options.lambda < 0)
        throw UsageError("training needs subsample and colsample in (0, 1] and a "
                         "non-negative min_child_weight and lambda");
    const ModelStructure structure = structureOf(options.objective);
    for (size_t i = 0; i < rows.size(); ++i) {
        const std::string what = "training row " + std::to_string(i);
        if (structure == ModelStructure::Kernels)
            checkKernels(rows[i].kernels, what, /*training=*/true);
        else
            checkRow(rows[i].features, rows[i].analyticMs, what);
        if (!(rows[i].measuredMs > 0) || !std::isfinite(rows[i].measuredMs))
            throw Error(what + " has no positive measured time");
    }
    // Rows of a group must be contiguous: order by group, keeping the given order within one.
    std::vector<size_t> order(rows.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return rows[a].group < rows[b].group; });
    const bool perKernel = structure == ModelStructure::Kernels;
    const bool kernelTimes = options.objective == TrainObjective::KernelTimes;
    const size_t cols = perKernel ? kernelFeatureNames().size() : rows.front().features.size();
    std::vector<float> data, labels, margins;
    std::vector<unsigned> groups;
    size_t units = 0; // matrix rows: schedules, or every schedule's kernels
    // Centred regression takes each group's mean log time (measured and analytic) out.
    std::map<std::string, std::pair<double, double>> groupMeans;
    if (options.objective == TrainObjective::CenteredRegression) {
        std::map<std::string, int> counts;
        for (const TrainingRow &r : rows) {
            groupMeans[r.group].first += std::log(r.measuredMs);
            groupMeans[r.group].second += std::log(r.analyticMs);
            ++counts[r.group];
        }
        for (auto &[group, means] : groupMeans) {
            means.first /= counts[group];
            means.second /= counts[group];
        }
    }
    for (size_t k = 0; k < order.size(); ++k) {
        const TrainingRow &r = rows[order[k]];
        if (k == 0 || r.group != rows[order[k - 1]].group) groups.push_back(0);
        ++groups.back();
        if (kernelTimes) {
            // Each kernel with its own time is a row, labelled with the log of its factor.
            if (r.kernelMeasuredMs.size() != r.kernels.size()) continue;
            for (size_t i = 0; i < r.kernels.size(); ++i) {
                const double measured = r.kernelMeasuredMs[i];
                if (!(measured > 0) || !(r.kernels[i].analyticMs > 0)) continue;
                data.insert(data.end(), r.kernels[i].features.begin(), r.kernels[i].features.end());
                labels.push_back(float(std::log(measured / r.kernels[i].analyticMs)));
                ++units;
            }
            continue;
        }
        if (perKernel) {
            for (const KernelFeatureRow &kernel : r.kernels)
                data.insert(data.end(), kernel.features.begin(), kernel.features.end());
            units += r.kernels.size();
            continue;
        }
        const auto [measuredMean, analyticMean] = groupMeans[r.group];
        data.insert(data.end(), r.features.begin(), r.features.end());
        labels.push_back(float(-(std::log(r.measuredMs) - measuredMean))); // higher = faster
        margins.push_back(float(-(std::log(r.analyticMs) - analyticMean)));
        ++units;
    }
    if (kernelTimes && units == 0)
        throw Error("no training row has per-kernel times (CUDA measurements with CUPTI's "
                    "kernel times, paired one to one with Beamscope's kernels)");
    Matrix train(data, units, cols, options.nthread);
    if (kernelTimes) {
        train.setFloats("label", labels);
    } else if (perKernel) {
        // The custom objective needs no label; the margins start from zero (a factor of 1).
        train.setFloats("label", std::vector<float>(units, 0.0f));
    } else {
        train.setFloats("label", labels);
        train.setFloats("base_margin", margins);
        check(XGDMatrixSetUIntInfo(train.handle, "group", groups.data(), bst_ulong(groups.size())),
              "set the groups");
    }

    int done = 0;
    if (!booster) {
        check(XGBoosterCreate(&train.handle, 1, &booster), "create a booster");
        guard.reset(booster);
    } else {
        check(XGBoosterBoostedRounds(booster, &done), "read the model's rounds");
    }
    ModelMetadata m = meta;
    m.featureSchema = kScheduleFeatureSchema;
    m.trainingRows = int(rows.size());
    m.trainingGroups = int(groups.size());
    if (m.extra.is_null()) m.extra = nlohmann::json::object();
    m.extra["training"] = options.toJson();
    if (kernelTimes) m.extra["training_kernels"] = units; // the rows of kernels it was fitted to
    std::shared_ptr<LearnedCostModel> model(new LearnedCostModel(
        GpuSpec::defaultSpec(), std::move(m), booster, options.nthread, structure));
    guard.release();
    configureThreads(booster, options.nthread);
    setParam(booster, "objective", options.objective == TrainObjective::Pairwise
                                       ? "rank:pairwise"
                                       : "reg:squarederror");
    // A per-kernel margin of 0 is the analytic time itself.
    if (perKernel && done == 0) setParam(booster, "base_score", "0");
    // Exact split finding on one thread: the same trees from the same rows, run after run.
    setParam(booster, "tree_method", "exact");
    setParam(booster, "max_depth", std::to_string(options.maxDepth));
    setParam(booster, "eta", prettyDouble(options.eta));
    setParam(booster, "min_child_weight", prettyDouble(options.minChildWeight));
    setParam(booster, "lambda", prettyDouble(options.lambda));
    setParam(booster, "subsample", prettyDouble(options.subsample));
    setParam(booster, "colsample_bytree", prettyDouble(options.colsample));
    if (options.parallelTrees != 1)
        setParam(booster, "num_parallel_tree", std::to_string(options.parallelTrees));
    setParam(booster, "seed", std::to_string(options.seed));
    if (perKernel && !kernelTimes) {
        boostSummedKernels(booster, train.handle, rows, order, groups, options.rounds);
        return model;
    }
    for (int i = 0; i < options.rounds; ++i)
        check(XGBoosterUpdateOneIter(booster, done + i, train.handle), "train a round");
    return model;
}

void LearnedCostModel::boostSummedKernels(void *booster, void *matrix,
                                          const std::vector<TrainingRow> &rows,
                                          const std::vector<size_t> &order,
                                          const std::vector<unsigned> &groupSize, int rounds) {
    // Each matrix row (a kernel) belongs to one schedule, each schedule to one group (the
    // groups are contiguous in `order`, groupSize[g] schedules each).
    std::vector<size_t> scheduleOf, groupOf;
    for (size_t g = 0; g < groupSize.size(); ++g)
        groupOf.insert(groupOf.end(), groupSize[g], g);
    std::vector<double> analytic, logMeasured;
    for (size_t k = 0; k < order.size(); ++k) {
        const TrainingRow &r = rows[order[k]];
        logMeasured.push_back(std::log(r.measuredMs));
        for (const KernelFeatureRow &kernel : r.kernels) {
            scheduleOf.push_back(k);
            analytic.push_back(kernel.analyticMs);
        }
    }
    const size_t units = analytic.size(), schedules = order.size();
    std::vector<float> grad(units), hess(units);
    std::vector<double> corrected(units), total(schedules), residualMean(groupSize.size());
    const char *config =
        R"({"type": 1, "training": true, "iteration_begin": 0, "iteration_end": 0, "strict_shape": false})";
    for (int round = 0; round < rounds; ++round) {
        bst_ulong const *shape = nullptr;
        bst_ulong dims = 0;
        const float *margin = nullptr;
        check(XGBoosterPredictFromDMatrix(booster, matrix, config, &shape, &dims, &margin),
              "predict while training");
        // T = sum of analytic x exp(margin) per schedule; loss = sum of e^2 with e the
        // schedule's log(T / measured) less its group's mean (the level does not transfer).
        std::fill(total.begin(), total.end(), 0.0);
        std::fill(residualMean.begin(), residualMean.end(), 0.0);
        for (size_t u = 0; u < units; ++u) {
            corrected[u] = analytic[u] * std::exp(double(margin[u]));
            total[scheduleOf[u]] += corrected[u];
        }
        std::vector<double> residual(schedules);
        for (size_t i = 0; i < schedules; ++i) {
            residual[i] = std::log(total[i]) - logMeasured[i];
            residualMean[groupOf[i]] += residual[i] / double(groupSize[groupOf[i]]);
        }
        for (size_t u = 0; u < units; ++u) {
            const size_t i = scheduleOf[u];
            const double share = corrected[u] / total[i];
            const double error = residual[i] - residualMean[groupOf[i]];
            // d loss / d margin = 2 e share; 2 share bounds log-sum-exp's Hessian from above.
            grad[u] = float(2 * error * share);
            hess[u] = float(2 * share);
        }
        check(XGBoosterBoostOneIter(booster, matrix, grad.data(), hess.data(), bst_ulong(units)),
              "train a round");
    }
}

std::vector<float> LearnedCostModel::rawScores(const std::vector<float> &matrix,
                                               const std::vector<float> &margins,
                                               size_t rows) const {
    if (rows == 0) return {};
    if (margins.empty()) {
        // Read in place: a search predicts thousands of rows per step, and building a DMatrix
        // (a sparse copy of every value) cost more than the trees.
        char values[160];
        std::snprintf(
            values, sizeof values,
            R"({"data": [%llu, true], "shape": [%zu, %zu], "typestr": "<f4", "version": 3})",
            static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(matrix.data())), rows,
            matrix.size() / rows);
        const char *config =
            R"({"type": 1, "training": false, "iteration_begin": 0, "iteration_end": 0, "strict_shape": false, "cache_id": 0, "missing": NaN})";
        bst_ulong const *shape = nullptr;
        bst_ulong dims = 0;
        const float *scores = nullptr;
        check(XGBoosterPredictFromDense(m_booster, values, config, nullptr, &shape, &dims, &scores),
              "predict");
        return std::vector<float>(scores, scores + rows);
    }
    Matrix m(matrix, rows, matrix.size() / rows, m_nthread);
    m.setFloats("base_margin", margins);
    const char *config =
        R"({"type": 1, "training": false, "iteration_begin": 0, "iteration_end": 0, "strict_shape": false})";
    bst_ulong const *shape = nullptr;
    bst_ulong dims = 0;
    const float *scores = nullptr;
    check(XGBoosterPredictFromDMatrix(m_booster, m.handle, config, &shape, &dims, &scores),
          "predict");
    return std::vector<float>(scores, scores + rows);
}

std::vector<double> LearnedCostModel::predictRows(const std::vector<float> &matrix,
                                                  const std::vector<float> &margins,
                                                  size_t rows) const {
    const std::vector<float> scores = rawScores(matrix, margins, rows);
    std::vector<double> ms(rows);
    for (size_t i = 0; i < rows; ++i)
        ms[i] = std::exp(-double(scores[i]));
    return ms;
}

std::vector<double> LearnedCostModel::predictKernels(
    const std::vector<const std::vector<KernelFeatureRow> *> &schedules) const {
    std::vector<float> data;
    size_t units = 0;
    for (size_t i = 0; i < schedules.size(); ++i) {
        checkKernels(*schedules[i], "schedule " + std::to_string(i), /*training=*/false);
        for (const KernelFeatureRow &kernel : *schedules[i])
            data.insert(data.end(), kernel.features.begin(), kernel.features.end());
        units += schedules[i]->size();
    }
    const std::vector<float> margin = rawScores(data, {}, units);
    std::vector<double> ms;
    size_t u = 0;
    for (const auto *kernels : schedules) {
        double total = 0;
        for (const KernelFeatureRow &kernel : *kernels)
            total += kernel.analyticMs * std::exp(double(margin[u++]));
        ms.push_back(total);
    }
    return ms;
}

double LearnedCostModel::predictMs(const std::vector<float> &features, double analyticMs) const {
    if (m_structure == ModelStructure::Kernels)
        throw Error("model " + m_name + " corrects each kernel: it needs the kernels' features");
    checkRow(features, analyticMs, "the schedule");
    return predictRows(features, {float(-std::log(analyticMs))}, 1).front();
}

double LearnedCostModel::predictMs(const TrainingRow &row) const {
    if (m_structure == ModelStructure::Kernels) return predictKernels({&row.kernels}).front();
    return predictMs(row.features, row.analyticMs);
}

std::vector<double> LearnedCostModel::predictMs(const std::vector<TrainingRow> &rows) const {
    if (m_structure == ModelStructure::Kernels) {
        std::vector<const std::vector<KernelFeatureRow> *> schedules;
        for (const TrainingRow &r : rows)
            schedules.push_back(&r.kernels);
        return predictKernels(schedules);
    }
    std::vector<float> data, margins;
    for (size_t i = 0; i < rows.size(); ++i) {
        checkRow(rows[i].features, rows[i].analyticMs, "row " + std::to_string(i));
        data.insert(data.end(), rows[i].features.begin(), rows[i].features.end());
        margins.push_back(float(-std::log(rows[i].analyticMs)));
    }
    return predictRows(data, margins, rows.size());
}

const FeatureBands &LearnedCostModel::shareBands() {
    if (!m_shareBands) {
        // Binary JSON keeps each threshold's float exactly (the text form rounds it to decimal).
        bst_ulong length = 0;
        const char *buffer = nullptr;
        FeatureBands bands;
        if (XGBoosterSaveModelToBuffer(m_booster, R"({"format": "ubj"})", &length, &buffer) == 0) {
            const nlohmann::json doc = nlohmann::json::from_ubjson(
                reinterpret_cast<const uint8_t *>(buffer),
                reinterpret_cast<const uint8_t *>(buffer) + length, true, false);
            if (!doc.is_discarded())
                bands = FeatureBands::read(doc, int(kernelFeatureNames().size()) - 1);
        }
        m_shareBands = std::make_unique<FeatureBands>(std::move(bands));
    }
    return *m_shareBands;
}

std::vector<double> LearnedCostModel::predictMemoizedKernels(const std::vector<Pending> &queue) {
    const FeatureBands &bands = shareBands();
    m_kernelRows.trim();
    // Per kernel of each schedule: the batch row to read, or the memo's score.
    struct Use {
        double analyticMs;
        int64_t row; ///< -1: `score`
        float score;
    };
    std::vector<std::vector<Use>> schedules;
    schedules.reserve(queue.size());
    std::vector<float> data;
    // Scores this batch's prediction gives: an entry and the index of its band's score.
    std::vector<std::pair<KernelRowMemo::Entry *, size_t>> filled;
    size_t rows = 0;
    std::vector<float> scores;
    try {
        for (size_t i = 0; i < queue.size(); ++i) {
            const Pending &p = queue[i];
            std::vector<Use> &uses = schedules.emplace_back();
            for (KernelRowMemo::Entry *e : m_kernelRows.entries(p.features, *p.analytic, m_gpu)) {
                if (!e) continue; // a null kernel: no stages, no time
                const float share = shareOfSchedule(e->row.analyticMs, p.analytic->total);
                const std::optional<uint32_t> band = bands.band(share);
                const KernelRowMemo::BandScore *known = band ? e->find(*band) : nullptr;
                if (known) {
                    uses.push_back({e->row.analyticMs, known->pendingRow, known->score});
                    continue;
                }
                // Not scored in this band yet: one more row for the trees (a kernel's time is
                // checked before its first score; a scored one passed).
                checkKernelTime(e->row.analyticMs, "schedule " + std::to_string(i));
                data.insert(data.end(), e->row.features.begin(), e->row.features.end());
                data.push_back(share);
                const int64_t row = int64_t(rows++);
                if (band) {
                    e->scores.push_back({*band, row, 0.0f});
                    filled.emplace_back(e, e->scores.size() - 1);
                }
                uses.push_back({e->row.analyticMs, row, 0.0f});
            }
        }
        scores = rawScores(data, {}, rows);
    } catch (...) {
        m_kernelRows.clear(); // no score left pending
        throw;
    }
    for (const auto &[entry, index] : filled) {
        KernelRowMemo::BandScore &s = entry->scores[index];
        s.score = scores[size_t(s.pendingRow)];
        s.pendingRow = -1;
    }
    // As predictKernels(): each kernel's analytic time times exp(its margin), summed in launch
    // order.
    std::vector<double> ms;
    ms.reserve(schedules.size());
    for (const std::vector<Use> &uses : schedules) {
        double total = 0;
        for (const Use &u : uses)
            total += u.analyticMs * std::exp(double(u.row >= 0 ? scores[size_t(u.row)] : u.score));
        ms.push_back(total);
    }
    return ms;
}

void LearnedCostModel::enqueue(const ScheduleState &state,
                               std::vector<std::shared_ptr<const KernelFeatures>> features,
                               StateCost *out) {
    Pending p{features, std::make_unique<StateCost>(), out};
    m_analytic.enqueue(state, std::move(features), p.analytic.get());
    m_queue.push_back(std::move(p));
}

void LearnedCostModel::evaluateAll() {
    m_analytic.evaluateAll();
    std::vector<Pending> queue = std::move(m_queue);
    m_queue.clear();
    std::vector<double> predicted;
    if (m_structure == ModelStructure::Kernels) {
        predicted = predictMemoizedKernels(queue);
    } else {
        std::vector<float> data, margins;
        for (const Pending &p : queue) {
            const std::vector<float> v = scheduleFeatureVector(p.features, *p.analytic, m_gpu);
            data.insert(data.end(), v.begin(), v.end());
            margins.push_back(float(-std::log(std::max(1e-9, p.analytic->total))));
        }
        predicted = predictRows(data, margins, queue.size());
    }
    for (size_t i = 0; i < queue.size(); ++i) {
        StateCost &out = *queue[i].out;
        out = std::move(*queue[i].analytic);
        // Terms keep the analytic split, scaled so they add up to the prediction.
        const double scale = out.total > 0 ? predicted[i] / out.total : 1.0;
        for (double &t : out.terms)
            t *= scale;
        for (StageCost &s : out.stages) {
            for (double &t : s.terms)
                t *= scale;
        }
        out.total = predicted[i];
    }
}

} // namespace beamscope
