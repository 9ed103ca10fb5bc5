// CompareView: two schedule states side by side — a caption per side (what it is, predicted and
// measured time), their loop nests aligned per Func with the differing decisions highlighted
// (CompareModel), their per-stage cost as paired bars for the total or one term (CompareChart),
// and one click to pin A's or B's decision for the selected Func (through the SelectionHub, as
// the DAG's pin menu does) or to ask why the search on screen did not take B's. Sides come from
// the beam, the history and the Benchmark dock; B can also be imported from a Halide
// autoscheduler or a schedule file (importRequested, answered by CompareCoordinator), and shown
// in the Loop nest view.
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
    /// Asks the search on screen why it did not take side `which`'s decision for the selected
    /// Func (SelectionHub::requestWhy).
    void whyFromSelected(int which);
    /// Inspects side `which` in the Loop nest view (SelectionHub::selectState).
    void showInLoopNest(int which);
    /// Shows how the import of side B goes (a progress line, the constructs that are not
    /// representable, why it failed); empty hides the line. Rich text; `details` (the whole
    /// list when the line is shortened) goes in its tooltip.
    void setImportStatus(const QString &text, const QString &details = QString());
    /// The import status line's text (for tests).
    QString importStatus() const;

Q_SIGNALS:
    /// The user picked a source to import side B from: a baseline name ("anderson2021",
    /// "anderson2021-paper", "li2018", "mullapudi2016", "naive") or "file".
    void importRequested(const QString &with);

private:
    void refresh();
    void selectFunc(int node);
    QString sideCaption(int which) const;
    QString sideToolTip(int which) const;

    SelectionHub *m_hub;
    CompareModel *m_model;
    CompareChart *m_chart;
    QLabel *m_captionA;
    QLabel *m_captionB;
    QTreeView *m_tree;
    QComboBox *m_term;
    QPushButton *m_pinA;
    QPushButton *m_pinB;
    QPushButton *m_whyB;
    QPushButton *m_loopNestB;
    QComboBox *m_import;
    QLabel *m_importStatus;
    QLabel *m_summary; ///< how many Funcs differ
    bool m_syncing = false;
};

} // namespace beamscope
