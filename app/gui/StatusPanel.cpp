// StatusPanel: GPU line, counter label, busy label and progress bar, fitted beside the message.
#include "StatusPanel.h"

#include "views/common/Format.h"

#include <QEvent>
#include <QLabel>
#include <QProgressBar>
#include <QStatusBar>

#include <algorithm>

namespace beamscope {

namespace {

// The status bar's own room around its items (Qt's margins, the size grip, the gap before the
// first permanent widget) and between two of them.
constexpr int kBarFrame = 40;
constexpr int kItemGap = 6;
// A label narrower than this says nothing: hidden rather than shown as "en…".
constexpr int kLeastShown = 60;

/// Shows `full` in `label` within `room` pixels (elided on the right, the whole text in the
/// tooltip; hidden when under kLeastShown); returns the width taken, the gap included.
int fitLabel(QLabel *label, const QString &full, int room) {
    const QMargins margins = label->contentsMargins();
    const int frame = margins.left() + margins.right() + 2 * label->margin();
    const int whole = label->fontMetrics().horizontalAdvance(full) + frame;
    if (full.isEmpty() || room < std::min(whole, kLeastShown) + kItemGap) {
        label->setVisible(false);
        return 0;
    }
    const int width = std::min(whole, room - kItemGap);
    label->setText(width >= whole
                       ? full
                       : label->fontMetrics().elidedText(full, Qt::ElideRight, width - frame));
    label->setVisible(true);
    return width + kItemGap;
}

} // namespace

StatusPanel::StatusPanel(QStatusBar *bar)
    : QObject(bar), m_bar(bar), m_gpuNote(new QLabel(bar)), m_counters(new QLabel(bar)),
      m_state(new QLabel(bar)), m_progress(new QProgressBar(bar)) {
    m_gpuNote->setObjectName(QStringLiteral("gpuNote"));
    m_counters->setObjectName(QStringLiteral("searchCounters"));
    m_countersWhat = tr(
        "Candidates enumerated and pruned, states featurized and costed, featurization memo hits");
    // Shrinks on a narrow window rather than setting its minimum width.
    m_progress->setMinimumWidth(120);
    m_progress->setTextVisible(true);
    m_state->setMinimumWidth(70);
    m_state->setAlignment(Qt::AlignCenter);
    m_counters->setContentsMargins(0, 0, 10, 0);
    for (QLabel *label : {m_gpuNote, m_counters}) {
        label->setMinimumWidth(0);
        label->setVisible(false); // until it has text
        bar->addPermanentWidget(label);
    }
    bar->addPermanentWidget(m_state);
    bar->addPermanentWidget(m_progress);
    bar->installEventFilter(this);
    connect(bar, &QStatusBar::messageChanged, this, &StatusPanel::fitToMessage);
    clear();
}

void StatusPanel::setGpuNote(const QString &note, const QString &details) {
    m_gpuText = note;
    m_gpuNote->setToolTip(details.isEmpty() ? note : note + QStringLiteral("\n") + details);
    fitToMessage();
}

void StatusPanel::setCounters(const SearchCounters &c) {
    m_countersText = tr("enumerated %1 · pruned %2 · evaluated %3 · memo hits %4")
                         .arg(format::count(c.enumerated), format::count(c.pruned),
                              format::count(c.evaluated), format::count(c.memoHits));
    m_counters->setToolTip(m_countersText + QStringLiteral("\n") + m_countersWhat);
    fitToMessage();
}

void StatusPanel::setProgress(int done, int estimated) {
    // QProgressBar::setValue repaints at once when its text changes, and a widget's immediate
    // repaint paints every dirty widget of the window with it: with updates off for the change,
    // the bar is painted with the rest of the window in the next update instead.
    m_progress->setUpdatesEnabled(false);
    m_progress->setRange(0, std::max(1, std::max(done, estimated)));
    m_progress->setValue(done);
    m_progress->setFormat(tr("step %1 of ~%2").arg(done).arg(estimated));
    m_progress->setUpdatesEnabled(true); // schedules the bar's update()
}

void StatusPanel::setBusy(bool busy) {
    m_state->setText(busy ? tr("<b>running…</b>") : tr("idle"));
}

void StatusPanel::clear() {
    setCounters(SearchCounters{});
    setProgress(0, 0);
    setBusy(false);
}

bool StatusPanel::eventFilter(QObject *watched, QEvent *event) {
    if (watched == m_bar && (event->type() == QEvent::Resize || event->type() == QEvent::Show))
        fitToMessage();
    return QObject::eventFilter(watched, event);
}

void StatusPanel::fitToMessage() {
    const QString message = m_bar->currentMessage();
    // The message first, then the step's state and the progress bar at its narrowest; the GPU
    // line and then the counters get what is left, and the progress bar (which would otherwise
    // grow into the message's room) the rest, up to its widest.
    constexpr int kProgressNarrowest = 120, kProgressWidest = 240;
    int room = m_bar->width() - kBarFrame -
               (message.isEmpty() ? 0 : m_bar->fontMetrics().horizontalAdvance(message)) -
               std::max(m_state->sizeHint().width(), m_state->minimumWidth()) - kItemGap -
               kProgressNarrowest - kItemGap;
    if (!m_bar->isVisible()) room = QWIDGETSIZE_MAX / 4; // not laid out yet: the whole texts
    room -= fitLabel(m_gpuNote, m_gpuText, room);
    room -= fitLabel(m_counters, m_countersText, room);
    m_progress->setMaximumWidth(
        std::clamp(kProgressNarrowest + room, kProgressNarrowest, kProgressWidest));
}

} // namespace beamscope
