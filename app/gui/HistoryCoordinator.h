// HistoryCoordinator: connects the search's step history to the views. Every step the
// SearchController adds goes into the Timeline panel; a step asked for (timeline slider or list,
// a click on the best-cost chart) is shown by the controller, and what it shows goes to the
// SelectionHub (so every view shows that step as it was), the timeline's caption and the chart's
// marker. New steps bring everything back to the newest.
#pragma once

#include <QObject>

namespace beamscope {

class BestCostChart;
class SearchController;
class SelectionHub;
class TimelinePanel;

class HistoryCoordinator : public QObject {
    Q_OBJECT
public:
    HistoryCoordinator(SearchController *search, SelectionHub *hub, TimelinePanel *timeline,
                       BestCostChart *chart, QObject *parent = nullptr);

private:
    void appendStep(int k);

    SearchController *m_search;
    SelectionHub *m_hub;
    TimelinePanel *m_timeline;
    BestCostChart *m_chart;
};

} // namespace beamscope
