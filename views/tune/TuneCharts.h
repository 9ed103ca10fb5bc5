// TuneCharts: the Tune dock's two charts, rebuilt from the TuneRoundsModel — the best measured
// time per round (the best so far as a line, each round's own best as points), and the model's
// predicted against the measured time of each round's rows, one colour per round with the
// round's Kendall tau in the legend, so the user sees the model's ranking get better.
#pragma once

#include <QStringList>
#include <QWidget>

class QChartView;
class QValueAxis;

namespace beamscope {

class TuneRoundsModel;

class TuneCharts : public QWidget {
    Q_OBJECT
public:
    explicit TuneCharts(TuneRoundsModel *model, QWidget *parent = nullptr);

    /// Points on the best-so-far line (one per round with a correct row so far).
    int bestPointCount() const { return m_bestPoints; }
    /// The scatter chart's series names, "round 1 (τ 0.53)", in round order.
    QStringList scatterNames() const { return m_scatterNames; }
    QChartView *bestChart() const { return m_best; }
    QChartView *scatterChart() const { return m_scatter; }

protected:
    /// The scatter's legend (a line per round) goes beside the plot when the charts are short (a
    /// laptop's bottom dock), below it otherwise, so that each round's τ stays on screen; the
    /// best chart's two entries are always above its plot.
    void resizeEvent(QResizeEvent *event) override;

private:
    void rebuild();
    void rebuildBest();
    void rebuildScatter();

    TuneRoundsModel *m_model;
    QChartView *m_best;
    QChartView *m_scatter;
    QValueAxis *m_bestX, *m_bestY, *m_scatterX, *m_scatterY;
    int m_bestPoints = 0;
    QStringList m_scatterNames;
};

} // namespace beamscope
