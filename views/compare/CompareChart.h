// CompareChart: the two compared states' predicted cost per stage as paired horizontal bars (A
// above B for each stage), for the total or for one cost term; the stages where either side
// costs most are shown, the rest summed in one pair.
#pragma once

#include "views/compare/CompareSide.h"

#include <QChartView>

namespace beamscope {

class CompareChart : public QChartView {
    Q_OBJECT
public:
    explicit CompareChart(QWidget *parent = nullptr);

    /// Draws `a` against `b`; `term` -1 for the total, else the index of a cost term.
    void show(const CompareSide &a, const CompareSide &b, int term);
    /// Stages drawn, top to bottom (for tests).
    QStringList categories() const { return m_categories; }
    /// The values drawn for side `which`, top to bottom (for tests).
    std::vector<double> values(int which) const;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void redraw();
    /// Pairs of bars that fit the height legibly.
    int stagesThatFit() const;

    CompareSide m_a, m_b;
    int m_term = -1;
    int m_fitted = 0;
    QStringList m_categories;
    std::vector<double> m_values[2];
};

} // namespace beamscope
