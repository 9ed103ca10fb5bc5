// LearnedCostModel: gradient-boosted trees (XGBoost's C API) that learn a correction over the
// analytic model from measurements, so that a few dozen measurements already move the ranking.
// Two structures: a correction of the whole schedule (scheduleFeatureVector() rows, the analytic
// prediction as base margin, score = -log ms; pairwise or centred-regression objective), or the
// paper's: a correction of each kernel (kernelFeatureRows()), the kernels' corrected times
// summed, fitted with a custom objective on the summed time. Saved as one JSON document with its
// metadata, structure and feature-schema version; a file of another schema is refused.
#pragma once

#include "cost/AnalyticalGpuCostModel.h"
#include "cost/FeatureBands.h"
#include "cost/ScheduleFeatures.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace beamscope {

/// One measured schedule to learn from.
struct TrainingRow {
    std::string group;           ///< pipeline key: pairs are formed within a group only
    std::vector<float> features; ///< scheduleFeatureVector()
    double analyticMs = 0;       ///< the analytic model's total for the schedule
    double measuredMs = 0;       ///< the measured run time
    /// kernelFeatureRows(): what a per-kernel model trains on and predicts from (a
    /// schedule-level model ignores them)
    std::vector<KernelFeatureRow> kernels;
    /// Each kernel's own measured time (CUPTI's, matched to `kernels` by name), ms; empty when
    /// the measurement has none (not CUDA) or the kernels could not be paired one to one.
    std::vector<double> kernelMeasuredMs;
};

/// What the trees are fitted to.
enum class TrainObjective {
    /// XGBoost's rank:pairwise within each group on -log(measured ms).
    Pairwise,
    /// Squared error on the within-group residual of log time over the analytic prior: each
    /// group's mean log measured and mean log analytic time are taken out, so the trees learn
    /// how the prior mis-orders schedules of one pipeline, not how far off its absolute level is
    /// (which does not transfer to an unseen pipeline).
    CenteredRegression,
    /// The paper's structure: a correction factor per kernel (exp of the trees' margin) times
    /// the kernel's analytic time, summed over the schedule's kernels; fitted to the same
    /// within-group centred log time as CenteredRegression, through a custom objective (the
    /// gradient of the squared residual through the sum, its Hessian bounded from above).
    SummedKernels,
    /// The same structure fitted to each kernel's own measured time (TrainingRow::
    /// kernelMeasuredMs, CUPTI's): squared error of log(corrected / measured) per kernel. Only
    /// rows with per-kernel times train; what a kernel costs is then learned from the kernel,
    /// not guessed from its share of a schedule's sum.
    KernelTimes,
};

/// How a model turns features into a time: from the schedule's vector, or per kernel, summed.
enum class ModelStructure { Schedule, Kernels };

/// The structure an objective trains: Kernels for SummedKernels and KernelTimes, else Schedule.
ModelStructure structureOf(TrainObjective o);

/// "pairwise", "regression", "kernels" or "kernel-times"; parseTrainObjective throws UsageError for
/// anything else.
const char *trainObjectiveName(TrainObjective o);
TrainObjective parseTrainObjective(const std::string &name);

/// Tunables of training (XGBoost parameters). Training is deterministic: one thread, exact
/// greedy split finding, no row or column sampling unless asked for (with the fixed seed).
struct TrainOptions {
    TrainObjective objective = TrainObjective::Pairwise;
    int rounds = 60;            ///< boosting rounds (trees)
    int maxDepth = 4;           ///< depth of each tree
    double eta = 0.1;           ///< learning rate
    double minChildWeight = 1;  ///< XGBoost's min_child_weight
    double lambda = 1;          ///< L2 regularisation of leaf weights
    double subsample = 1;       ///< fraction of rows per tree
    double colsample = 1;       ///< fraction of features per tree
    /// Trees grown per round on their own row samples and averaged (XGBoost's
    /// num_parallel_tree: a bagged forest per round, which lowers the variance of the picks)
    int parallelTrees = 1;
    int nthread = 1;            ///< XGBoost's OpenMP threads (never all cores by default)
    std::uint64_t seed = 0;     ///< seed of XGBoost's pair and row sampling
    /// The XGBoost parameters and objective as JSON, for a model file's metadata.
    nlohmann::json toJson() const;
};

/// What a model file says about itself.
struct ModelMetadata {
    std::string device; ///< the device the measurements come from
    std::string gpu;    ///< the GPU model (GpuSpec name) of the analytic prior
    int featureSchema = kScheduleFeatureSchema; ///< the layout of the features it was trained on
    int trainingRows = 0;                       ///< set by train()
    int trainingGroups = 0;                     ///< set by train()
    std::string createdWith;                    ///< e.g. "beamscope-cli train"
    /// rowKey() of every training row, sorted: which measurements the model has seen, so an
    /// evaluation can leave exactly those out.
    std::vector<std::string> trainedOn;
    nlohmann::json extra;                       ///< anything else (pipelines, options)
};

/// The key of a measured schedule in trainedOn: a hash of its pipeline key, schedule hash and
/// device key (16 hex digits).
std::string rowKey(const std::string &pipelineKey, const std::string &scheduleHash,
                   const std::string &deviceKey);

class LearnedCostModel : public CostModel {
public:
    /// The model file's "format" and "version".
    static constexpr const char *kFormat = "beamscope-cost-model";
    static constexpr int kVersion = 1;

    ~LearnedCostModel() override;
    LearnedCostModel(const LearnedCostModel &) = delete;
    LearnedCostModel &operator=(const LearnedCostModel &) = delete;

    /// Trains on `rows` (any order; every row's features of the schema's length). Throws Error
    /// when rows are empty, a row is malformed, or XGBoost fails. Used as a CostModel, the
    /// trained model's analytic prior is the default GPU (V100); load() takes the GPU to use.
    static std::shared_ptr<LearnedCostModel> train(const std::vector<TrainingRow> &rows,
                                                   const ModelMetadata &meta,
                                                   const TrainOptions &options);
    /// This model fine-tuned on `rows` (e.g. one device's measurements): a copy of its trees
    /// with options.rounds more boosted on `rows`, so what it learned elsewhere stays the
    /// starting point. The copy's metadata is `meta` (training rows and groups set from `rows`,
    /// "fine_tuned_from" in extra). Throws Error like train().
    std::shared_ptr<LearnedCostModel> fineTuned(const std::vector<TrainingRow> &rows,
                                                const ModelMetadata &meta,
                                                const TrainOptions &options) const;
    /// Loads a model file; the analytic prior uses `gpu`. Throws Error (one line) for an
    /// unreadable or corrupt file, another format version or another feature schema.
    static std::shared_ptr<LearnedCostModel> load(const std::string &path, const GpuSpec &gpu);
    /// Writes the model file atomically (a temporary file renamed over `path`). Throws Error.
    void save(const std::string &path) const;

    /// Predicted run time of one schedule from its schedule-level features, ms. Throws Error
    /// for a per-kernel model (it needs the kernels' rows: predictMs(row)).
    double predictMs(const std::vector<float> &features, double analyticMs) const;
    /// Predicted run time of one schedule (group and measured time are ignored), ms.
    double predictMs(const TrainingRow &row) const;
    /// Predicted run times of many schedules, ms.
    std::vector<double> predictMs(const std::vector<TrainingRow> &rows) const;
    const ModelMetadata &metadata() const { return m_meta; }
    ModelStructure structure() const { return m_structure; }
    /// Adds `key` to the metadata's extra (e.g. "device_class") before save().
    void annotate(const std::string &key, nlohmann::json value) {
        m_meta.extra[key] = std::move(value);
    }
    /// Names the model in reports (name()); load() names it "learned:<file stem>".
    void setName(std::string name) { m_name = std::move(name); }

    /// "learned:<file stem>" ("learned" before it is saved or loaded).
    std::string name() const override { return m_name; }
    /// The analytic model's term names: terms are the analytic ones scaled to the prediction.
    std::vector<std::string> termNames() const override { return analyticTermNames(); }
    void enqueue(const ScheduleState &state,
                 std::vector<std::shared_ptr<const KernelFeatures>> features,
                 StateCost *out) override;
    /// Runs the analytic prior, then one batched prediction for every queued state.
    void evaluateAll() override;
    /// The bands of the share feature (a per-kernel row's last) in the trees, within which a
    /// kernel's score is reused: read from the file by load(), else once from XGBoost's binary
    /// JSON (a model trained or fine-tuned here).
    const FeatureBands &shareBands();

private:
    LearnedCostModel(GpuSpec gpu, ModelMetadata meta, void *booster, int nthread,
                     ModelStructure structure);
    /// Boosts options.rounds trees on `rows` into `booster` (new or loaded) and wraps it.
    static std::shared_ptr<LearnedCostModel> boost(void *booster,
                                                   const std::vector<TrainingRow> &rows,
                                                   const ModelMetadata &meta,
                                                   const TrainOptions &options);
    /// The boosting loop of SummedKernels: each round's gradients from the current margins.
    static void boostSummedKernels(void *booster, void *matrix,
                                   const std::vector<TrainingRow> &rows,
                                   const std::vector<size_t> &order,
                                   const std::vector<unsigned> &groupSize, int rounds);
    /// The trees' raw outputs (margins, with `margins` as base margin when not empty).
    std::vector<float> rawScores(const std::vector<float> &matrix,
                                 const std::vector<float> &margins, size_t rows) const;
    std::vector<double> predictRows(const std::vector<float> &matrix,
                                    const std::vector<float> &margins, size_t rows) const;
    /// Per-kernel prediction: each kernel's analytic time times exp(its margin), summed.
    std::vector<double>
    predictKernels(const std::vector<const std::vector<KernelFeatureRow> *> &schedules) const;

    struct Pending {
        std::vector<std::shared_ptr<const KernelFeatures>> features;
        std::unique_ptr<StateCost> analytic;
        StateCost *out;
    };
    /// predictKernels() of the queued states, to the bit, through m_kernelRows: a kernel met
    /// before is not built again, nor predicted again at a share in a band it was scored in.
    std::vector<double> predictMemoizedKernels(const std::vector<Pending> &queue);

    GpuSpec m_gpu; ///< the GPU the features are normalised by
    AnalyticalGpuCostModel m_analytic;
    ModelMetadata m_meta;
    void *m_booster; ///< XGBoost's BoosterHandle
    int m_nthread;
    ModelStructure m_structure;
    std::string m_name = "learned";
    std::vector<Pending> m_queue;
    KernelRowMemo m_kernelRows; ///< per-kernel rows and scores across evaluateAll() calls
    std::unique_ptr<FeatureBands> m_shareBands; ///< shareBands(), once read
};

} // namespace beamscope
