// TimelinePanel: the step history of the search as a slider and a list of steps (pass, Func,
// phase, candidates, pruned, best cost). Moving the slider, picking a row or the arrow buttons ask
// for a step to be shown (stepRequested); the owner shows it and calls setShown(). "Newest" goes
// back to the step the search continues from. A right click on a row offers to compare that
// step's best state (compareRequested). Steps arriving during a run are buffered and shown at most
// every 100 ms, so that a fast search does not relayout the dock for every step. A line above the
// list names the search's result, its cost as the status bar gives it and the step that found it
// (a link that shows that step); that step's row is marked ★.
#pragma once

#include "views/history/TimelineModel.h"

#include <QTimer>
#include <QWidget>

#include <vector>

class QLabel;
class QSlider;
class QToolButton;
class QTreeView;

namespace beamscope {

class TimelinePanel : public QWidget {
    Q_OBJECT
public:
    explicit TimelinePanel(QWidget *parent = nullptr);

    TimelineModel *model() const { return m_model; }
    QSlider *slider() const { return m_slider; }
    QTreeView *list() const { return m_list; }
    /// The caption line (for tests and screenshots).
    QString caption() const;
    /// The line that names the search's result (empty before a pass has ended).
    QString resultLine() const;

public Q_SLOTS:
    /// Appends the next step of the history (shown within 100 ms, or at flush()).
    void appendStep(const beamscope::TimelineEntry &entry);
    /// Shows the steps appended so far now.
    void flush();
    /// A new search: no steps.
    void clear();
    /// Step `k` is on screen; `newest` when the views follow the search; `whole` false while its
    /// candidates are being replayed.
    void setShown(int k, bool newest, bool whole);

Q_SIGNALS:
    /// The user asks for step `k` (0-based); -1 for the newest.
    void stepRequested(int k);
    /// The user asks to compare step `k`'s best state, as side `side` (0: A, 1: B).
    void compareRequested(int k, int side);

private:
    void updateCaption();
    void updateResultLine();
    void request(int k);

    TimelineModel *m_model;
    QLabel *m_caption;
    QLabel *m_result;
    QSlider *m_slider;
    QToolButton *m_back;
    QToolButton *m_forward;
    QToolButton *m_newest;
    QTreeView *m_list;
    std::vector<TimelineEntry> m_pending; ///< appended, not yet in the model
    QTimer m_flush;
    int m_shown = -1;
    bool m_newestShown = true;
    bool m_whole = true;
    bool m_syncing = false;
};

} // namespace beamscope
