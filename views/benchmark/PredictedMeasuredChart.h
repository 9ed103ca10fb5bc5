// PredictedMeasuredChart: how well the cost model ranked what was measured — one point per
// candidate, x its predicted time, y its measured median, the chosen one highlighted and wrong
// outputs marked apart. Halide's baselines have no prediction, so each is a dashed horizontal
// line at its measured time, named in the legend: a point below a line beats that baseline.
// Follows a BenchResultsModel and redraws when its rows change.
#pragma once

#include <QChartView>
#include <QPointF>
#include <QString>

#include <vector>

class QScatterSeries;
class QValueAxis;

namespace beamscope {

class BenchResultsModel;

class PredictedMeasuredChart : public QChartView {
    Q_OBJECT
public:
    explicit PredictedMeasuredChart(BenchResultsModel *model, QWidget *parent = nullptr);

    /// Names the axes: what the prediction was for (the search's GPU model) and where the
    /// measurement ran (the device); empty: generic titles.
    void setContext(const QString &predictedFor, const QString &measuredOn);
    /// Points drawn for candidates (all series) and baseline lines drawn (for tests).
    int candidatePointCount() const;
    int baselineLineCount() const { return m_baselineLines; }

private:
    struct Labelled {
        QPointF point;
        QString label;
    };
    void rebuild();
    QScatterSeries *addScatter(const QString &name, const QColor &color, double size,
                               std::vector<Labelled> points);
    void showPointToolTip(const QPointF &point, bool state, const std::vector<Labelled> &points);

    BenchResultsModel *m_model;
    QValueAxis *m_x;
    QValueAxis *m_y;
    QString m_predictedFor, m_measuredOn;
    std::vector<std::vector<Labelled>> m_labels; ///< per scatter series, for tooltips
    int m_baselineLines = 0;
};

} // namespace beamscope
