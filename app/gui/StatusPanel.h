// StatusPanel: the permanent part of the status bar — the GPU model line, the search's counters
// (enumerated, pruned, evaluated, memo hits), the step position and a progress bar that is
// always visible. The message on the left always reads whole: the GPU line and the counters
// are elided (and hidden when too little is left) to the room the message leaves them.
#pragma once

#include "controllers/MetaTypes.h" // SearchCounters as a slot argument
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

    /// The GPU model line ("GPU model pocl-cpu (fits the detected OpenCL CPU)"), whole.
    void setGpuNote(const QString &note, const QString &details);
    QString gpuNote() const { return m_gpuText; }

public Q_SLOTS:
    void setCounters(const beamscope::SearchCounters &counters);
    void setProgress(int done, int estimated);
    void setBusy(bool busy);
    void clear();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    /// Shares the width the message leaves between the GPU line and the counters.
    void fitToMessage();

    QStatusBar *m_bar;
    QLabel *m_gpuNote;
    QLabel *m_counters;
    QLabel *m_state;
    QProgressBar *m_progress;
    QString m_gpuText;      ///< the GPU line as set, before eliding
    QString m_countersText; ///< the counters as set, before eliding
    QString m_countersWhat; ///< what the counters count, for their tooltip
};

} // namespace beamscope
