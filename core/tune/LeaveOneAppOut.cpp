// Leave-one-app-out training and its comparison; the unseen-row filter.
#include "tune/LeaveOneAppOut.h"

#include "tune/Folds.h"
#include "util/Error.h"

#include <algorithm>
#include <set>

namespace beamscope {

LeaveOneAppOutResult leaveOneAppOut(const std::vector<LabelledSchedule> &rows,
                                    std::vector<RankedModel> others, const std::string &device,
                                    const TrainOptions &options, const LeaveOneAppOutPlan &plan) {
    std::set<std::string> apps;
    for (const LabelledSchedule &s : rows)
        apps.insert(s.app);
    for (const std::string &app : plan.heldOut) {
        if (!apps.count(app))
            throw Error("leave-one-app-out: no rows of app " + app + " to hold out");
    }
    const std::set<std::string> &leftOut = plan.heldOut.empty() ? apps : plan.heldOut;
    const std::vector<std::string> folds(leftOut.begin(), leftOut.end());
    std::vector<std::shared_ptr<const LearnedCostModel>> trained(folds.size());
    TrainOptions oneThread = options;
    if (plan.jobs > 1) oneThread.nthread = 1; // the folds are the parallelism
    runFolds(folds.size(), plan.jobs, [&](size_t i) {
        std::vector<LabelledSchedule> training;
        for (const LabelledSchedule &s : rows) {
            if (s.app != folds[i]) training.push_back(s);
        }
        if (training.empty())
            throw Error("leave-one-app-out needs rows of at least two apps (only " + folds[i] +
                        ")");
        trained[i] = trainOn(training, device, training.front().gpu, oneThread);
    });
    LeaveOneAppOutResult result;
    for (size_t i = 0; i < folds.size(); ++i)
        result.models[folds[i]] = trained[i];
    auto models = std::make_shared<std::map<std::string, std::shared_ptr<const LearnedCostModel>>>(
        result.models);
    others.push_back({"loao", [models](const LabelledSchedule &s) {
                          return models->at(s.app)->predictMs(s.row);
                      }});
    // Baseline rows (imported plugin schedules) train the other apps' models only.
    const std::vector<LabelledSchedule> searched = searchedRows(rows);
    std::vector<LabelledSchedule> evaluated;
    for (const LabelledSchedule &s : searched) {
        if (result.models.count(s.app)) evaluated.push_back(s);
    }
    result.comparison = compareModels(evaluated, others);
    result.comparison.trainRows = int(rows.size());
    std::string unranked;
    if (searched.size() != rows.size())
        unranked += "; " + std::to_string(rows.size() - searched.size()) +
                    " baseline rows trained on, not ranked";
    if (evaluated.size() != searched.size())
        unranked += "; " + std::to_string(searched.size() - evaluated.size()) +
                    " rows of apps not held out trained on, not ranked";
    result.comparison.heading = "every row of each held-out app (" +
                                std::to_string(evaluated.size()) + unranked +
                                "), ranked by models trained without it";
    return result;
}

std::vector<LabelledSchedule> unseenRows(const std::vector<LabelledSchedule> &rows,
                                         const LearnedCostModel &model) {
    const std::set<std::string> seen(model.metadata().trainedOn.begin(),
                                     model.metadata().trainedOn.end());
    std::vector<LabelledSchedule> out;
    for (const LabelledSchedule &s : rows) {
        if (!seen.count(rowKey(s.pipeline, s.scheduleHash, s.deviceKey))) out.push_back(s);
    }
    return out;
}

} // namespace beamscope
