#include "EventProfile.h"

#include <QEvent>
#include <QGraphicsScene>
#include <QGraphicsView>
#include <QMetaEnum>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <map>
#include <utility>

namespace beamscope {

namespace {

/// "Class" or "Class 'name'"; a QTimer is named by its owner, which is what set it up.
std::string describeReceiver(const QObject *receiver) {
    const QObject *named = receiver;
    std::string prefix;
    if (qobject_cast<const QTimer *>(receiver) && receiver->parent()) {
        prefix = "QTimer in ";
        named = receiver->parent();
    }
    std::string text = prefix + named->metaObject()->className();
    // A member QTimer has no parent: its interval tells which it is (the search's 40 ms pull...).
    if (const auto *timer = qobject_cast<const QTimer *>(receiver); timer && !receiver->parent())
        text += " (" + std::to_string(timer->interval()) + " ms)";
    // Scenes are told apart by their view (the DAG, each chart).
    if (const auto *scene = qobject_cast<const QGraphicsScene *>(named);
        scene && !scene->views().isEmpty())
        text += " of " + std::string(scene->views().first()->metaObject()->className());
    if (!named->objectName().isEmpty()) text += " '" + named->objectName().toStdString() + "'";
    // Qt's own widgets (viewports, scroll bars, labels) by the first of Beamscope's that holds
    // them.
    if (text.rfind("beamscope::", 0) != 0)
        for (const QObject *up = named->parent(); up; up = up->parent())
            if (std::string(up->metaObject()->className()).rfind("beamscope::", 0) == 0) {
                text += std::string(" in ") + up->metaObject()->className();
                break;
            }
    return text;
}

std::string eventTypeName(int type) {
    const char *key = QMetaEnum::fromType<QEvent::Type>().valueToKey(type);
    return key ? key : std::to_string(type);
}

} // namespace

EventTimingApplication::EventTimingApplication(int &argc, char **argv) : QApplication(argc, argv) {
    m_clock.start();
}

bool EventTimingApplication::notify(QObject *receiver, QEvent *event) {
    // Events of other threads (the search worker's queued calls) pass here too: not the GUI's.
    if (!m_recording || QThread::currentThread() != thread())
        return QApplication::notify(receiver, event);
    TimedEvent timed;
    timed.type = event->type();
    timed.depth = m_depth;
    timed.startUs = m_clock.nsecsElapsed() / 1000;
    // The receiver is described before delivery: the event may delete it.
    timed.receiver = describeReceiver(receiver);
    ++m_depth;
    const bool handled = QApplication::notify(receiver, event);
    --m_depth;
    timed.durationUs = m_clock.nsecsElapsed() / 1000 - timed.startUs;
    if (timed.durationUs >= 100 || timed.depth == 0) m_current.push_back(std::move(timed));
    return handled;
}

void EventTimingApplication::setRecording(bool on) {
    m_recording = on;
    m_current.clear();
    m_gapStartUs = on ? m_clock.nsecsElapsed() / 1000 : 0;
}

void EventTimingApplication::gapBoundary() {
    const qint64 nowUs = m_clock.nsecsElapsed() / 1000;
    if (m_recording && nowUs - m_gapStartUs > m_largestGapUs) {
        m_largestGapUs = nowUs - m_gapStartUs;
        m_largest = std::move(m_current);
    }
    m_current.clear();
    m_gapStartUs = nowUs;
}

void EventTimingApplication::printLargestGap(std::FILE *out) const {
    if (m_largest.empty()) return;
    const qint64 startUs = m_largest.front().startUs;
    qint64 topLevelUs = 0;
    std::fprintf(
        out, "largest gap: %.1f ms; top-level timers and events over 0.5 ms (start, duration):\n",
        m_largestGapUs / 1000.0);
    // A nested event ends, and is listed, before the event it is nested in.
    std::vector<const TimedEvent *> children;
    for (const TimedEvent &e : m_largest) {
        if (e.depth == 1) children.push_back(&e);
        if (e.depth != 0) continue;
        topLevelUs += e.durationUs;
        if (e.durationUs >= 500 || e.type == QEvent::Timer) {
            std::fprintf(out, "  +%6.1f ms  %6.1f ms  %s to %s\n", (e.startUs - startUs) / 1000.0,
                         e.durationUs / 1000.0, eventTypeName(e.type).c_str(), e.receiver.c_str());
            if (e.durationUs >= 5000)
                for (const TimedEvent *child : children)
                    if (child->durationUs >= 1000)
                        std::fprintf(out, "              %6.1f ms    sent: %s to %s\n",
                                     child->durationUs / 1000.0, eventTypeName(child->type).c_str(),
                                     child->receiver.c_str());
        }
        children.clear();
    }
    std::fprintf(out, "  top-level events in all: %.1f ms (the rest: waiting, or outside events)\n",
                 topLevelUs / 1000.0);
    // Nested events (paints of single widgets, sent layouts...), per receiver and type. A nested
    // event's time is also in the event it is nested in.
    std::map<std::pair<std::string, int>, std::pair<qint64, int>> nested;
    for (const TimedEvent &e : m_largest) {
        if (e.depth == 0) continue;
        auto &[us, count] = nested[{e.receiver, e.type}];
        us += e.durationUs;
        ++count;
    }
    std::vector<std::pair<qint64, std::string>> rows;
    for (const auto &[key, value] : nested)
        rows.emplace_back(value.first, eventTypeName(key.second) + " to " + key.first + " (" +
                                           std::to_string(value.second) + "x)");
    std::sort(rows.rbegin(), rows.rend());
    std::fprintf(out, "  nested events over 0.1 ms, total per receiver:\n");
    for (size_t i = 0; i < rows.size() && i < 15; ++i)
        std::fprintf(out, "    %6.1f ms  %s\n", rows[i].first / 1000.0, rows[i].second.c_str());
}

} // namespace beamscope
