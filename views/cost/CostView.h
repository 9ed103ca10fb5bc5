// CostView: the cost panel — the inspected state's cost terms per stage above the best-cost
// history of the search, in a splitter.
#pragma once

#include <QWidget>

namespace beamscope {

class BestCostChart;
class CostTermsChart;
class SelectionHub;

class CostView : public QWidget {
    Q_OBJECT
public:
    explicit CostView(SelectionHub *hub, QWidget *parent = nullptr);

    CostTermsChart *termsChart() const { return m_terms; }
    BestCostChart *historyChart() const { return m_history; }

private:
    CostTermsChart *m_terms;
    BestCostChart *m_history;
};

} // namespace beamscope
