// BenchCoordinator: connects the Benchmark panel to a BenchmarkController so that a benchmark
// measures what the user is looking at — the complete schedules of the beam on screen (the best,
// or the top k), searched with the search's own options, GPU model and pins — and not an
// unrelated new search. It keeps the panel's Run button disabled, with a hint saying why, until
// the step on screen has complete schedules; hands finished reports to the SessionController so
// that saving a session keeps the measurements, and shows the ones a reopened session brings.
// Every run records into the measurement database of DatabaseSetting (origin "gui-bench").
#pragma once

#include "controllers/BenchmarkController.h"

#include <QObject>
#include <QString>

namespace beamscope {

class BenchPanel;
class SearchController;
class SelectionHub;
class SessionController;
struct BenchSettings;

class BenchCoordinator : public QObject {
    Q_OBJECT
public:
    BenchCoordinator(BenchPanel *panel, SelectionHub *hub, SearchController *search,
                     SessionController *sessions, QObject *parent = nullptr);

    BenchmarkController *controller() const { return m_bench; }
    /// beamscope-worker to run candidates in ("" : next to the executable).
    void setWorkerPath(const QString &path) { m_workerPath = path; }
    /// Timed runs per candidate (default 5, as the CLI).
    void setRepeats(int repeats) { m_repeats = repeats; }

public Q_SLOTS:
    /// Runs `settings` on the beam on screen; an error (shown in the panel) when it has no
    /// complete schedule.
    void run(const beamscope::BenchSettings &settings);

Q_SIGNALS:
    /// One line for the status bar.
    void message(const QString &text);
    /// One line that must stay until the user dismisses it (the measurement database could
    /// not be opened: nothing measured is recorded).
    void warning(const QString &text);

private:
    void updateAvailability();

    BenchPanel *m_panel;
    SelectionHub *m_hub;
    SearchController *m_search;
    SessionController *m_sessions;
    BenchmarkController *m_bench;
    QString m_workerPath;
    int m_repeats = 5;
};

} // namespace beamscope
