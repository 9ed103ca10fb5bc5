// ScreenshotRunner: --screenshot mode. Waits until the window has settled (pipeline loaded,
// steps taken, DAG laid out, charts flushed), grabs the main window, saves it as PNG and quits
// the application: exit code 0, or 1 with one line on stderr when the search or the save fails.
// With a benchmark asked for, it runs one on the settled beam first and waits for its report;
// with a tune run asked for, it tunes the loaded pipeline in the Tune dock first; then it can go
// back to a history step (waiting for its candidates to be replayed), compare two beam states or
// import a Halide autoscheduler's schedule beside the search's best.
#pragma once

#include "views/benchmark/BenchPanel.h"
#include "views/tune/TunePanel.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>

#include <optional>
#include <utility>

namespace beamscope {

class MainWindow;

class ScreenshotRunner : public QObject {
    Q_OBJECT
public:
    /// Gives up (exit 1) after `timeoutMs`.
    ScreenshotRunner(MainWindow *window, QString path, int timeoutMs = 300000);
    /// Before the grab: benchmark the settled beam with `settings` in the Benchmark dock.
    void benchmarkFirst(const BenchSettings &settings);
    /// Before the grab: tune the loaded pipeline with `settings` in the Tune dock.
    void tuneFirst(const TuneSettings &settings);
    /// Before the grab: show history step `k` (0-based) and wait for its whole snapshot.
    void showStepFirst(int k);
    /// Before the grab: compare beam entries `a` and `b` (0-based ranks) in the Compare dock.
    void compareFirst(int a, int b);
    /// Before the grab: import side B of the Compare dock from `with` (beside the search's best)
    /// and wait for the import; an import that fails or is not representable is shown as the
    /// dock shows it (its status line), not a failure.
    void importFirst(const QString &with);

private:
    void poll();
    /// False while a benchmark is still to start or running; starts it when due.
    bool benchmarkDone();
    /// The same for the tune run.
    bool tuneDone();
    /// The same for going back to a step, and for the comparison.
    bool historyDone();
    bool compareDone();
    bool importDone();
    void fail(const QString &message);

    MainWindow *m_window;
    QString m_path;
    int m_timeoutMs;
    int m_settledPolls = 0;
    std::optional<BenchSettings> m_bench; ///< still to run (reset once started)
    bool m_benchRunning = false;
    std::optional<TuneSettings> m_tune; ///< still to run (reset once started)
    bool m_tuneRunning = false;
    std::optional<int> m_showStep; ///< still to show (reset once asked for)
    int m_awaitedStep = -1;        ///< shown, waiting for its whole snapshot
    bool m_stepWhole = false;      ///< the awaited step's whole snapshot is on screen
    std::optional<std::pair<int, int>> m_compare; ///< still to compare
    std::optional<QString> m_import;              ///< still to import
    bool m_importing = false;                     ///< imported, waiting for the result
    bool m_failed = false;                        ///< fail() has printed its line
    QTimer m_timer;
    QElapsedTimer m_elapsed;
};

} // namespace beamscope
