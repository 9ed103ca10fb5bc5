// StatusPanel: the permanent part of the status bar — the search's counters (enumerated,
// pruned, evaluated, memo hits), the step position and a progress bar that is always visible.
#pragma once

#include "search/SearchStep.h"

#include <QObject>

class QLabel;
class QProgressBar;
class QStatusBar;

namespace beamscope {

class StatusPanel : public QObject {
    Q_OBJECT
public:
    /// Adds the widgets to `bar` (permanently, on the right).
    explicit StatusPanel(QStatusBar *bar);

public Q_SLOTS:
    void setCounters(const beamscope::SearchCounters &counters);
    void setProgress(int done, int estimated);
    void setBusy(bool busy);
    void clear();

private:
    QLabel *m_counters;
    QLabel *m_state;
    QProgressBar *m_progress;
};

} // namespace beamscope
