// TrainingData: the measurement database turned into what cost models learn from and are judged
// on. Each correct measurement of a searched schedule becomes a row: its schedule is replayed on
// the rebuilt pipeline, featurized with the GPU model the search used, and costed by the analytic
// and PolyMage models; the schedule-level feature vector is cached in the database. Models are
// compared on the rows held out by schedule hash (1 in 8), within each pipeline, by Kendall's tau
// and pairwise accuracy, pairs closer than the measurement noise ignored.
#pragma once

#include "cost/CostModel.h"
#include "cost/Featurizer.h"
#include "cost/LearnedCostModel.h"
#include "schedule/ScheduleState.h"
#include "store/MeasurementStore.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace beamscope {

/// One correct measurement of a searched schedule (or, when the builder imports them, of a Halide
/// autoscheduler's), ready for training and comparison.
struct LabelledSchedule {
    std::int64_t recordId = 0;
    std::string pipeline; ///< pipeline key (the ranking group)
    std::string app;      ///< app or generator name, for reports
    std::string scheduleHash;
    std::string deviceKey;
    std::string gpu;          ///< name of the GPU model the search used
    TrainingRow row;          ///< group, features, analytic and measured ms
    double polymageScore = 0; ///< the PolyMage-GPU scorer's total (unitless)
    double noise = 0;         ///< measurementNoise() of the row
    bool heldOut = false;     ///< in the 1-in-8 evaluation split
    /// The baseline whose measured schedule this is, imported ("anderson2021", ...); "" for a
    /// schedule Beamscope searched. Such rows are trained on, never evaluated: the one-shot
    /// question is how a model ranks the search's candidates.
    std::string baseline;
};

/// The rows Beamscope searched (baseline rows left out): what models are evaluated on.
std::vector<LabelledSchedule> searchedRows(const std::vector<LabelledSchedule> &rows);

/// Which of a measurement's repeats stands for its time when models learn from it and are judged
/// on it. The minimum is Halide's own convention (its benchmark() reports the best run) and what
/// repeats agree on: of the schedules measured twice on the H100 (different GPU checks), the
/// minima differ by 1.7 % at the 75th percentile and 4 % at the 90th, the medians by 5 % and
/// 20 % (host interference moves the middle of ten runs, not the fastest; docs/pretrained.md).
enum class MeasuredStatistic { Min, Median };
MeasuredStatistic parseMeasuredStatistic(const std::string &name); ///< "min" or "median"
const char *measuredStatisticName(MeasuredStatistic statistic);
/// The time of `m` by `statistic`; 0 when it has none.
double measuredTime(const Measurement &m, MeasuredStatistic statistic);

/// The relative noise of a measurement, (median - min) / median: the lower half of the spread,
/// since one slow outlier (a descheduled run) inflates the max but says nothing about the rest.
/// A row's noise band whichever statistic is its time: the spread of its repeats is how sure the
/// measurement is (three runs of a 20 us pipeline, say), and the same pairs then count for both.
double measurementNoise(const Measurement &m);

/// True for the 1 in 8 schedules held out for evaluation (by their hash, so the split is the
/// same in every run and for every model).
bool isHeldOut(const std::string &scheduleHash);

/// A row as the models saw it, stage by stage: what `models --stage-features-csv` writes, so the
/// analytic model's physics can be studied term by term against the measured times.
struct FeaturizedRow {
    const LabelledSchedule &row;
    const ScheduleState &state;
    const std::vector<std::shared_ptr<const KernelFeatures>> &kernels; ///< in launch order
    const StateCost &analytic; ///< per stage, in the order of the kernels' rows
};
using StageObserver = std::function<void(const FeaturizedRow &)>;

/// Builds rows from a store, remembering the rows (and pipelines) it built already, so that a
/// tuning loop that rebuilds its training set every round only featurizes new measurements.
class DatasetBuilder {
public:
    explicit DatasetBuilder(MeasurementStore &store);
    ~DatasetBuilder();

    /// The correct, measured, searched (not baseline) records matching `filter`, oldest first.
    /// Records whose pipeline cannot be rebuilt or whose DAG changed are skipped (see skipped()).
    std::vector<LabelledSchedule> build(RecordFilter filter);
    /// Also turns the correct measurements of Halide's autoschedulers' schedules into rows: the
    /// plugin's schedule is made again for the row's pipeline and GPU model (the baseline
    /// schedule cache keeps Anderson2021's) and imported into Beamscope's schedule space
    /// (bench/BaselineImport); a schedule with a Func outside the space is skipped with its
    /// reason. Off by default.
    void setImportBaselines(bool on) { m_importBaselines = on; }
    /// Which statistic of the repeats is a row's measured time (default: the minimum). Set it
    /// before the first build(): rows are remembered as built.
    void setMeasuredStatistic(MeasuredStatistic statistic) { m_statistic = statistic; }
    /// Called for each row as it is built (not for rows remembered from an earlier build()).
    void setStageObserver(StageObserver observer) { m_observer = std::move(observer); }
    /// One line per record skipped so far, with the reason.
    const std::vector<std::string> &skipped() const { return m_skipped; }

private:
    struct PipelineCache;
    /// The plugin's schedule of `r`'s pipeline for `gpu`, imported (cached per pipeline key,
    /// baseline and GPU model). Throws Error when it cannot be made or represented.
    StatePtr importedBaseline(const std::string &pipelineKey, const MeasurementRecord &r,
                              const GpuSpec &gpu);
    MeasurementStore &m_store;
    std::map<std::int64_t, LabelledSchedule> m_rows;
    std::map<std::int64_t, bool> m_rejected;
    std::map<std::string, std::shared_ptr<PipelineCache>> m_pipelines;
    /// A baseline's schedule imported for a pipeline and GPU model, or why it could not be.
    struct ImportedBaseline {
        StatePtr state;
        std::string error;
    };
    /// By pipeline key, baseline and GPU model.
    std::map<std::string, ImportedBaseline> m_baselines;
    std::vector<std::string> m_skipped;
    StageObserver m_observer;
    bool m_importBaselines = false;
    MeasuredStatistic m_statistic = MeasuredStatistic::Min;
};

/// The device key with the most rows among `rows`' records in the store matching `nameFilter`
/// (a substring of the device key, "" for any); throws Error when none matches.
std::string chooseDevice(MeasurementStore &store, const std::string &nameFilter);

/// A cost model as the comparison sees it: a predicted cost (lower is faster) for a row.
struct RankedModel {
    std::string name;
    std::function<double(const LabelledSchedule &)> predict;
};

/// The three models of the comparison: analytic, polymage, and `learned` when given.
std::vector<RankedModel> standardModels(std::shared_ptr<const LearnedCostModel> learned);

struct ModelScore {
    std::string model;
    double tau = 0;      ///< Kendall's tau-b (NaN: no pair counted)
    double accuracy = 0; ///< pairwise accuracy (NaN: no pair counted)
    double regret = 0;   ///< oneShotRegret(): overall, the geometric mean over pipelines
};

struct PipelineComparison {
    std::string pipeline; ///< app name (key in the JSON)
    std::string gpu;      ///< the GPU model its rows were measured on
    int rows = 0;         ///< schedules ranked: one per schedule, its fastest measurement
    int measurements = 0; ///< rows measured (more than `rows` when a schedule was measured again)
    std::vector<ModelScore> scores; ///< one per model, in the models' order
    /// The rows ranked: record ids and measured ms, and each model's prediction of every row
    /// (predicted[model][row], in the models' order), so a mispick can be traced to its rows.
    std::vector<std::int64_t> records;
    std::vector<double> measured;
    std::vector<std::vector<double>> predicted;
};

struct ModelComparison {
    int trainRows = 0, testRows = 0;
    std::string heading; ///< the table's first words ("" : "held-out rows N (trained on M)")
    std::vector<PipelineComparison> pipelines;
    /// Per model: tau averaged over the pipelines where it is defined, accuracy likewise, the
    /// regret's geometric mean.
    std::vector<ModelScore> overall;
    nlohmann::json toJson() const;
    /// A table: one row per pipeline, tau / accuracy / regret per model, then "overall".
    void print(std::ostream &os) const;
};

/// Scores every model on `rows`, within each pipeline (pipelines with fewer than 2 schedules are
/// left out). A schedule measured more than once is ranked once, by its fastest measurement.
ModelComparison compareModels(const std::vector<LabelledSchedule> &rows,
                              const std::vector<RankedModel> &models);

/// Trains a learned model on `rows` (metadata filled from them and `device`: the rows' keys in
/// trainedOn, rows per app in extra.training_set). With the kernel-times objective only the rows
/// with per-kernel times train (and are named); Error when there are none.
std::shared_ptr<LearnedCostModel> trainOn(const std::vector<LabelledSchedule> &rows,
                                          const std::string &device, const std::string &gpu,
                                          const TrainOptions &options = {});

/// `base` fine-tuned on `rows` (LearnedCostModel::fineTuned), metadata as for trainOn. A
/// kernel-times model fine-tunes on the kernels' own times when some row has them, else on the
/// schedules' summed times (the objective "kernels", recorded in the model's training options).
std::shared_ptr<LearnedCostModel> fineTuneOn(const LearnedCostModel &base,
                                             const std::vector<LabelledSchedule> &rows,
                                             const std::string &device, const std::string &gpu,
                                             const TrainOptions &options = {});

} // namespace beamscope
