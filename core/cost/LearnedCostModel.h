// LearnedCostModel: gradient-boosted trees (XGBoost's C API) that learn a correction over the
// analytic model from measurements. Trained with a pairwise rank loss within each pipeline on
// scheduleFeatureVector() rows, with the analytic prediction as base margin (score = -log ms),
// so that a few dozen measurements already move the ranking. Saved as one JSON document with
// its metadata and feature-schema version; a file of another schema is refused.
#pragma once

#include "cost/AnalyticalGpuCostModel.h"
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
};

/// Tunables of training (XGBoost parameters).
struct TrainOptions {
    int rounds = 60;        ///< boosting rounds (trees)
    int maxDepth = 4;       ///< depth of each tree
    double eta = 0.1;       ///< learning rate
    int nthread = 1;        ///< XGBoost's OpenMP threads (never all cores by default)
    std::uint64_t seed = 0; ///< seed of XGBoost's pair sampling
};

/// What a model file says about itself.
struct ModelMetadata {
    std::string device; ///< the device the measurements come from
    std::string gpu;    ///< the GPU model (GpuSpec name) of the analytic prior
    int featureSchema = kScheduleFeatureSchema; ///< the layout of the features it was trained on
    int trainingRows = 0;                       ///< set by train()
    int trainingGroups = 0;                     ///< set by train()
    std::string createdWith;                    ///< e.g. "beamscope-cli train"
    nlohmann::json extra;                       ///< anything else (pipelines, options)
};

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
    /// Loads a model file; the analytic prior uses `gpu`. Throws Error (one line) for an
    /// unreadable or corrupt file, another format version or another feature schema.
    static std::shared_ptr<LearnedCostModel> load(const std::string &path, const GpuSpec &gpu);
    /// Writes the model file atomically (a temporary file renamed over `path`). Throws Error.
    void save(const std::string &path) const;

    /// Predicted run time of one schedule, ms.
    double predictMs(const std::vector<float> &features, double analyticMs) const;
    /// Predicted run times of many schedules (group is ignored), ms.
    std::vector<double> predictMs(const std::vector<TrainingRow> &rows) const;
    const ModelMetadata &metadata() const { return m_meta; }

    /// "learned:<file stem>" ("learned" before it is saved or loaded).
    std::string name() const override { return m_name; }
    /// The analytic model's term names: terms are the analytic ones scaled to the prediction.
    std::vector<std::string> termNames() const override { return analyticTermNames(); }
    void enqueue(const ScheduleState &state,
                 std::vector<std::shared_ptr<const KernelFeatures>> features,
                 StateCost *out) override;
    /// Runs the analytic prior, then one batched prediction for every queued state.
    void evaluateAll() override;

private:
    LearnedCostModel(GpuSpec gpu, ModelMetadata meta, void *booster, int nthread);
    std::vector<double> predictRows(const std::vector<float> &matrix,
                                    const std::vector<float> &margins, size_t rows) const;

    struct Pending {
        std::vector<std::shared_ptr<const KernelFeatures>> features;
        std::unique_ptr<StateCost> analytic;
        StateCost *out;
    };
    AnalyticalGpuCostModel m_analytic;
    ModelMetadata m_meta;
    void *m_booster; ///< XGBoost's BoosterHandle
    int m_nthread;
    std::string m_name = "learned";
    std::vector<Pending> m_queue;
};

} // namespace beamscope
