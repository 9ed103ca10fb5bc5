// beamscope-gui-latency: how responsive the main window stays while a long search runs, for
// docs/performance.md "GUI latency" (benchmarks/gui_latency.sh runs it, with CPU hogs if asked).
// The full main window (every view updating) runs APP's search with beam BEAM to the end RUNS
// times, under its own event loop as the application does, while a 10 ms QTimer on the GUI
// thread records the largest gap between its ticks; then the search's biggest step is put on
// screen three times (every view rebuilt from the snapshot and the window repainted). One line
// per run; with --why, the events that filled the largest gap (EventProfile.h).
// Targets (DESIGN.md): no gap over 50 ms, a step on screen within 100 ms.
//   beamscope-gui-latency [APP] [BEAM] [RUNS] [--why]   (QT_QPA_PLATFORM=offscreen without a
//   display)
#include "EventProfile.h"
#include "MainWindow.h"

#include "controllers/SearchController.h"
#include "controllers/StepHistory.h"
#include "search/SearchEngine.h"
#include "views/common/SelectionHub.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QStandardPaths>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

using namespace beamscope;

namespace {

constexpr int kRunCapMs = 60000; ///< a run longer than this is paused (and said so)

/// Runs the event loop until `done()` holds, checking every 20 ms.
template <class Done> void waitUntil(Done done) {
    QEventLoop loop;
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (done()) loop.quit();
    });
    poll.start(20);
    if (!done()) loop.exec();
}

struct RunFigures {
    int steps = 0;
    qint64 ms = 0, ticks = 0, maxGapMs = 0, stepOnScreenMs = 0;
    size_t candidates = 0, pruned = 0;
    bool capped = false;
};

RunFigures runOnce(MainWindow &window, EventTimingApplication *profile) {
    SearchController *search = window.searchController();
    search->reset();
    waitUntil([&] { return !search->isBusy(); });

    RunFigures f;
    QElapsedTimer sinceTick, total;
    QTimer tick;
    tick.setInterval(10);
    QObject::connect(&tick, &QTimer::timeout, [&] {
        f.maxGapMs = std::max(f.maxGapMs, sinceTick.restart());
        ++f.ticks;
        if (profile) profile->gapBoundary();
    });
    QEventLoop loop;
    QObject::connect(search, &SearchController::busyChanged, &loop, [&](bool busy) {
        if (!busy) loop.quit();
    });
    QTimer::singleShot(kRunCapMs, &loop, [&] {
        f.capped = true;
        loop.quit();
    });
    search->runToEnd();
    sinceTick.start();
    total.start();
    tick.start();
    if (profile) profile->setRecording(true);
    loop.exec();
    if (profile) profile->setRecording(false);
    tick.stop();
    f.ms = total.elapsed();
    f.steps = search->stepsDone();
    if (f.capped) {
        search->pause();
        waitUntil([&] { return !search->isBusy(); });
    }

    // The step with the most candidates, whole (replayed from the seed as the timeline does),
    // on screen: every view rebuilt from the snapshot and the window repainted.
    const StepHistory &history = search->history();
    int biggestIndex = -1;
    for (int k = 0; k < history.size(); ++k)
        if (biggestIndex < 0 || history.at(k).candidates > history.at(biggestIndex).candidates)
            biggestIndex = k;
    SearchStepPtr biggest;
    const QMetaObject::Connection watch =
        QObject::connect(search, &SearchController::stepShown,
                         [&](const SearchStepPtr &step, int k, bool, bool whole) {
                             if (whole && k == biggestIndex) biggest = step;
                         });
    if (biggestIndex >= 0) {
        search->showStep(biggestIndex);
        waitUntil([&] { return biggest != nullptr; });
    }
    QObject::disconnect(watch);
    search->showNewest();
    if (biggest) {
        f.candidates = biggest->candidates.size();
        f.pruned = biggest->pruned.size();
        for (int i = 0; i < 3; ++i) {
            window.hub()->setStep(nullptr);
            QApplication::processEvents();
            QElapsedTimer t;
            t.start();
            window.hub()->setStep(biggest);
            window.repaint();
            QApplication::processEvents();
            f.stepOnScreenMs = std::max(f.stepOnScreenMs, t.elapsed());
        }
        search->releaseOnWorker(std::move(biggest));
    }
    return f;
}

} // namespace

int main(int argc, char **argv) {
    EventTimingApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true); // the user's settings and sessions stay untouched
    const std::string appName = argc > 1 ? argv[1] : "local_laplacian";
    const int beam = argc > 2 ? std::atoi(argv[2]) : 32;
    const int runs = argc > 3 ? std::atoi(argv[3]) : 3;
    const bool why = argc > 4 && std::string(argv[4]) == "--why";
    if (beam < 1 || runs < 1 || (argc > 4 && !why)) {
        std::fprintf(stderr, "usage: beamscope-gui-latency [APP] [BEAM>=1] [RUNS>=1] [--why]\n");
        return 2;
    }

    MainWindow window;
    window.resize(1600, 1000);
    window.show();
    SearchOptions options;
    options.beamSize = beam;
    options.gpu = GpuSpec::load("v100");
    window.setInitialOptions(options, "v100");
    PipelineSource source;
    source.name = appName;
    window.loadPipeline(source);
    QElapsedTimer loading;
    loading.start();
    waitUntil([&] { return window.isSettled() || loading.elapsed() > 120000; });
    if (!window.isSettled() || !window.searchController()->dag()) {
        std::fprintf(stderr, "beamscope-gui-latency: %s did not load\n", appName.c_str());
        return 1;
    }

    std::printf("app %s, beam %d, window 1600x1000, every view updating\n", appName.c_str(), beam);
    std::printf("run  steps  run_ms  ticks  max_gap_ms  step_on_screen_ms  (candidates, pruned)\n");
    for (int run = 1; run <= runs; ++run) {
        const RunFigures f = runOnce(window, why ? &app : nullptr);
        std::printf("%3d  %5d  %6lld  %5lld  %10lld  %17lld  (%zu, %zu)%s\n", run, f.steps, f.ms,
                    f.ticks, f.maxGapMs, f.stepOnScreenMs, f.candidates, f.pruned,
                    f.capped ? "  capped: paused after 60 s" : "");
        std::fflush(stdout);
    }
    if (why) app.printLargestGap(stdout);
    return 0;
}
