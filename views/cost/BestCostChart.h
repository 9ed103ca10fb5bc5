// BestCostChart: the best cost in the beam after every step, one line per pass (the cost of a
// partial schedule grows as Funcs get placed, and starts again with each pass). Points are
// buffered and drawn at most every 100 ms so a fast search does not flood the painter. A click
// on the chart asks for the step under it (stepClicked); the step on screen is marked.
#pragma once

#include <QChartView>
#include <QPointF>
#include <QTimer>

#include <map>
#include <vector>

class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace beamscope {

class BestCostChart : public QChartView {
    Q_OBJECT
public:
    explicit BestCostChart(QWidget *parent = nullptr);

    /// Points drawn so far (for tests).
    int pointCount() const;
    /// The step (0-based) a click at `pos` (viewport coordinates) goes to; -1 off the plot.
    int stepAt(const QPoint &pos) const;
    /// Where step `k`'s point is drawn (viewport coordinates), for tests.
    QPoint positionOfStep(int k) const;
    /// The step marked as shown (-1: none).
    int shownStep() const { return m_shown; }

public Q_SLOTS:
    /// Records the best cost after step `stepIndex` of `pass`.
    void addPoint(int stepIndex, int pass, double bestCost);
    /// Forgets every point (a new search).
    void clear();
    /// Marks step `k` (0-based) as the one on screen; -1 removes the mark.
    void setShownStep(int k);

Q_SIGNALS:
    /// The user clicked the chart at step `k` (0-based).
    void stepClicked(int k);

protected:
    void mousePressEvent(QMouseEvent *event) override;

private:
    void flush();
    void placeMarker();
    QLineSeries *seriesFor(int pass);

    QValueAxis *m_x;
    QValueAxis *m_y;
    std::map<int, QLineSeries *> m_series;
    std::map<int, std::vector<QPointF>> m_pending;
    std::map<int, double> m_costs; ///< best cost by step (0-based), as drawn
    QScatterSeries *m_marker = nullptr;
    int m_shown = -1;
    QTimer m_flush;
    double m_maxX = 1, m_maxY = 0, m_minY = 0;
    bool m_empty = true;
};

} // namespace beamscope
