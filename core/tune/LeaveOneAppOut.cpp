// Leave-one-app-out training and its comparison; the unseen-row filter.
#include "tune/LeaveOneAppOut.h"

#include "util/Error.h"

#include <set>

namespace beamscope {

LeaveOneAppOutResult leaveOneAppOut(const std::vector<LabelledSchedule> &rows,
                                    std::vector<RankedModel> others, const std::string &device,
                                    const TrainOptions &options) {
    std::set<std::string> apps;
    for (const LabelledSchedule &s : rows)
        apps.insert(s.app);
    LeaveOneAppOutResult result;
    for (const std::string &app : apps) {
        std::vector<LabelledSchedule> training;
        for (const LabelledSchedule &s : rows) {
            if (s.app != app) training.push_back(s);
        }
        if (training.empty())
            throw Error("leave-one-app-out needs rows of at least two apps (only " + app + ")");
        result.models[app] = trainOn(training, device, training.front().gpu, options);
    }
    auto models = std::make_shared<std::map<std::string, std::shared_ptr<const LearnedCostModel>>>(
        result.models);
    others.push_back({"loao", [models](const LabelledSchedule &s) {
                          return models->at(s.app)->predictMs(s.row);
                      }});
    // Baseline rows (imported plugin schedules) train the other apps' models only.
    const std::vector<LabelledSchedule> evaluated = searchedRows(rows);
    result.comparison = compareModels(evaluated, others);
    result.comparison.trainRows = int(rows.size());
    result.comparison.heading =
        "every row of each app (" + std::to_string(evaluated.size()) +
        (evaluated.size() == rows.size() ? std::string()
                                         : "; " + std::to_string(rows.size() - evaluated.size()) +
                                               " baseline rows trained on, not ranked") +
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
