// Where the GUI thread's time goes between two ticks of the latency clock (beamscope-gui-latency
// --why): every event Qt delivers is timed, with its nesting depth, and the events of the largest
// gap are kept so they can be printed grouped by what received them (paint events by widget
// class, timers by their owner, queued calls by their target).
#pragma once

#include <QApplication>
#include <QElapsedTimer>

#include <cstdio>
#include <string>
#include <vector>

namespace beamscope {

/// One delivered event: what received it, its type, nesting depth and its duration.
struct TimedEvent {
    std::string receiver; ///< class (and object name when set) of the receiver
    int type = 0;
    int depth = 0; ///< 0: straight from the event loop; 1: sent while handling one, ...
    qint64 startUs = 0, durationUs = 0;
};

/// A QApplication that times the events it delivers while recording is on.
class EventTimingApplication : public QApplication {
public:
    EventTimingApplication(int &argc, char **argv);

    bool notify(QObject *receiver, QEvent *event) override;

    /// A tick of the latency clock: a new gap begins (the previous one's events are dropped
    /// unless it was the largest so far, whose events are kept for `printLargestGap`).
    void gapBoundary();
    /// Recording on: the first gap starts now; off: the gap under way is dropped.
    void setRecording(bool on);
    /// Prints the largest gap's events: the top-level ones in order and, for the nested ones,
    /// the total per receiver and type.
    void printLargestGap(std::FILE *out) const;

private:
    bool m_recording = false;
    int m_depth = 0;
    QElapsedTimer m_clock;
    qint64 m_gapStartUs = 0, m_largestGapUs = 0;
    std::vector<TimedEvent> m_current, m_largest;
};

} // namespace beamscope
