// StatusPanel: counter label, busy label and progress bar.
#include "StatusPanel.h"

#include "views/common/Format.h"

#include <QLabel>
#include <QProgressBar>
#include <QStatusBar>

namespace beamscope {

StatusPanel::StatusPanel(QStatusBar *bar)
    : QObject(bar), m_counters(new QLabel(bar)), m_state(new QLabel(bar)),
      m_progress(new QProgressBar(bar)) {
    m_counters->setToolTip(tr(
        "Candidates enumerated and pruned, states featurized and costed, featurization memo hits"));
    // Shrinks on a narrow window (the counters are clipped first) rather than setting its
    // minimum width.
    m_progress->setMinimumWidth(120);
    m_progress->setMaximumWidth(240);
    m_counters->setMinimumWidth(40);
    m_progress->setTextVisible(true);
    m_state->setMinimumWidth(70);
    m_state->setAlignment(Qt::AlignCenter);
    m_counters->setContentsMargins(0, 0, 10, 0);
    bar->addPermanentWidget(m_counters);
    bar->addPermanentWidget(m_state);
    bar->addPermanentWidget(m_progress);
    clear();
}

void StatusPanel::setCounters(const SearchCounters &c) {
    m_counters->setText(tr("enumerated %1 · pruned %2 · evaluated %3 · memo hits %4")
                            .arg(format::count(c.enumerated), format::count(c.pruned),
                                 format::count(c.evaluated), format::count(c.memoHits)));
}

void StatusPanel::setProgress(int done, int estimated) {
    m_progress->setRange(0, std::max(1, std::max(done, estimated)));
    m_progress->setValue(done);
    m_progress->setFormat(tr("step %1 of ~%2").arg(done).arg(estimated));
}

void StatusPanel::setBusy(bool busy) {
    m_state->setText(busy ? tr("<b>running…</b>") : tr("idle"));
}

void StatusPanel::clear() {
    setCounters(SearchCounters{});
    setProgress(0, 0);
    setBusy(false);
}

} // namespace beamscope
