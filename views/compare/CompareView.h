// CompareView: two schedule states side by side — a caption per side (what it is, predicted and
// measured time), their loop nests aligned per Func with the differing decisions highlighted
// (CompareModel), their per-stage cost as paired bars for the total or one term (CompareChart),
// and one click to pin A's or B's decision for the selected Func (through the SelectionHub, as
// the DAG's pin menu does). Sides come from the beam, the history and the Benchmark dock.
#pragma once

#include "views/compare/CompareSide.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;
class QPushButton;
class QTreeView;

namespace beamscope {

class CompareChart;
class CompareModel;
class SelectionHub;
struct Pin;

class CompareView : public QWidget {
    Q_OBJECT
public:
    explicit CompareView(SelectionHub *hub, QWidget *parent = nullptr);

    CompareModel *model() const { return m_model; }
    CompareChart *chart() const { return m_chart; }
    QTreeView *tree() const { return m_tree; }
    /// The line saying how many Funcs differ (for tests).
    QString summary() const;
    /// The pin that "Pin A's/B's decision" would request for the selected Func (nullopt when
    /// that side has not placed it finally).
    std::optional<Pin> pinFromSide(int which) const;

public Q_SLOTS:
    /// Sets side `which` (0: A, 1: B).
    void setSide(int which, const beamscope::CompareSide &side);
    /// Swaps A and B.
    void swapSides();
    /// Requests the pins in force plus side `which`'s decision for the selected Func.
    void pinFromSelected(int which);

private:
    void refresh();
    void selectFunc(int node);
    QString sideCaption(int which) const;

    SelectionHub *m_hub;
    CompareModel *m_model;
    CompareChart *m_chart;
    QLabel *m_captionA;
    QLabel *m_captionB;
    QTreeView *m_tree;
    QComboBox *m_term;
    QPushButton *m_pinA;
    QPushButton *m_pinB;
    QLabel *m_summary; ///< how many Funcs differ
    bool m_syncing = false;
};

} // namespace beamscope
