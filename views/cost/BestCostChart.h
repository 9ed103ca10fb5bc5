// BestCostChart: the best cost in the beam after every step, one line per pass (the cost of a
// partial schedule grows as Funcs get placed, and starts again with each pass). Points are
// buffered and drawn at most every 100 ms so a fast search does not flood the painter.
#pragma once

#include <QChartView>
#include <QPointF>
#include <QTimer>

#include <map>
#include <vector>

class QLineSeries;
class QValueAxis;

namespace beamscope {

class BestCostChart : public QChartView {
    Q_OBJECT
public:
    explicit BestCostChart(QWidget *parent = nullptr);

    /// Points drawn so far (for tests).
    int pointCount() const;

public Q_SLOTS:
    /// Records the best cost after step `stepIndex` of `pass`.
    void addPoint(int stepIndex, int pass, double bestCost);
    /// Forgets every point (a new search).
    void clear();

private:
    void flush();
    QLineSeries *seriesFor(int pass);

    QValueAxis *m_x;
    QValueAxis *m_y;
    std::map<int, QLineSeries *> m_series;
    std::map<int, std::vector<QPointF>> m_pending;
    QTimer m_flush;
    double m_maxX = 1, m_maxY = 0, m_minY = 0;
    bool m_empty = true;
};

} // namespace beamscope
