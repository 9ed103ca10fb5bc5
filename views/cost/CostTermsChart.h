// CostTermsChart: the inspected state's predicted cost per stage, as horizontal stacked bars of
// the six cost terms (compute, load, store, parallelism, working set, malloc). The costliest
// stages are shown (the rest summed in one bar) and the selected Func's stages always are.
#pragma once

#include <QChartView>
#include <QTimer>

namespace beamscope {

class SelectionHub;

class CostTermsChart : public QChartView {
    Q_OBJECT
public:
    explicit CostTermsChart(SelectionHub *hub, QWidget *parent = nullptr);

    /// Most stages drawn as their own bar (by default as many as the height shows legibly).
    void setMaxStages(int n) { m_maxStages = n; }
    /// Categories now on the chart, top to bottom (for tests).
    QStringList categories() const;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    /// Rebuilds on the event loop's next turn: the signals of one step (state, selection)
    /// rebuild once, and the chart's own scene repaints the window in a turn of its own rather
    /// than in the turn that repaints every other view (docs/performance.md, "GUI latency").
    void scheduleRebuild();
    void rebuild();
    int stagesThatFit() const;

    SelectionHub *m_hub;
    int m_maxStages = 0; ///< 0: fit to the height
    int m_fitted = 0;    ///< stages that fit when last rebuilt
    QTimer m_rebuildTimer;
};

} // namespace beamscope
