// LeaveOneAppOut: the paper's one-shot evaluation (Fig. 8) offline — for each app, a learned
// model trained on every other app's rows ranks all of that app's measured schedules; the
// comparison puts it beside the analytic and PolyMage models (and any given model) by Kendall's
// tau and one-shot regret. The held-out app leaks nowhere: its rows are not trained on, the
// features are per-schedule (no normalisation over the data set) and the training options are
// fixed before the run.
#pragma once

#include "tune/TrainingData.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace beamscope {

struct LeaveOneAppOutResult {
    ModelComparison comparison; ///< per app (every row of it) and overall
    /// The model trained without each app, by app name.
    std::map<std::string, std::shared_ptr<const LearnedCostModel>> models;
};

/// Which apps get a fold of their own, and how many folds train at once.
struct LeaveOneAppOutPlan {
    /// The apps left out in turn and ranked; empty: every app. The others' rows train every
    /// fold and are never ranked (e.g. the catalog apps held out, random pipelines training
    /// only: their figures are those of the full protocol, in a sixteenth of the folds).
    std::set<std::string> heldOut;
    /// Folds trained at the same time, each on its own thread with one XGBoost thread: the
    /// models are the same whatever the number.
    int jobs = 1;
};

/// Trains one model per held-out app on the other apps' rows (with `options`) and compares the
/// models in `others` (e.g. standardModels(...)) and "loao" (each app ranked by the model that
/// never saw it) on every searched row of the held-out apps (baseline rows train,
/// LabelledSchedule::baseline). Apps with fewer than 2 searched rows are left out of the table;
/// an app whose complement is empty, or a held-out app without rows, throws Error.
LeaveOneAppOutResult leaveOneAppOut(const std::vector<LabelledSchedule> &rows,
                                    std::vector<RankedModel> others, const std::string &device,
                                    const TrainOptions &options,
                                    const LeaveOneAppOutPlan &plan = {});

/// The rows not in `model`'s training set (metadata().trainedOn); every row when it records
/// none.
std::vector<LabelledSchedule> unseenRows(const std::vector<LabelledSchedule> &rows,
                                         const LearnedCostModel &model);

} // namespace beamscope
