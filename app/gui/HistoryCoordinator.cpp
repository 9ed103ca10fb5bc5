// HistoryCoordinator: controller signals <-> timeline, chart marker and hub.
#include "HistoryCoordinator.h"

#include "controllers/SearchController.h"
#include "views/common/SelectionHub.h"
#include "views/cost/BestCostChart.h"
#include "views/history/TimelinePanel.h"

namespace beamscope {

HistoryCoordinator::HistoryCoordinator(SearchController *search, SelectionHub *hub,
                                       TimelinePanel *timeline, BestCostChart *chart,
                                       QObject *parent)
    : QObject(parent), m_search(search), m_hub(hub), m_timeline(timeline), m_chart(chart) {
    connect(search, &SearchController::searchReset, timeline, &TimelinePanel::clear);
    connect(search, &SearchController::historyAppended, this, &HistoryCoordinator::appendStep);
    connect(timeline, &TimelinePanel::stepRequested, search, &SearchController::showStep);
    connect(chart, &BestCostChart::stepClicked, search, &SearchController::showStep);
    connect(search, &SearchController::stepShown, this,
            [this](const SearchStepPtr &step, int k, bool newest, bool whole) {
                m_hub->setStep(step);
                m_timeline->setShown(k, newest, whole);
                m_chart->setShownStep(newest ? -1 : k);
            });
    // A new snapshot of the search: the views follow the newest step again.
    connect(search, &SearchController::stepped, this, [this](const SearchStepPtr &step) {
        m_timeline->setShown(step->index, true, true);
        m_chart->setShownStep(-1);
    });
}

void HistoryCoordinator::appendStep(int k) {
    const HistoryRecord &r = m_search->history().at(k);
    TimelineEntry e;
    e.index = k;
    e.pass = r.step->pass;
    e.func = r.step->func;
    e.phase = r.step->phase;
    e.candidates = r.candidates;
    e.sampled = r.sampled;
    e.pruned = r.pruned;
    e.bestCost = r.bestCost;
    if (r.step->best) e.resultCost = r.step->best->cost.total;
    e.passFinished = r.step->passFinished;
    m_timeline->appendStep(e);
}

} // namespace beamscope
