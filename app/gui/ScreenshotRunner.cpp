// ScreenshotRunner: settle polling, grab, save, quit.
#include "ScreenshotRunner.h"

#include "BenchCoordinator.h"
#include "CompareCoordinator.h"
#include "MainWindow.h"
#include "TuneCoordinator.h"

#include "controllers/SearchController.h"
#include "views/common/SelectionHub.h"
#include "views/compare/CompareModel.h"
#include "views/compare/CompareView.h"

#include <QApplication>
#include <QPixmap>

#include <cstdio>
#include <utility>

namespace beamscope {

ScreenshotRunner::ScreenshotRunner(MainWindow *window, QString path, int timeoutMs)
    : QObject(window), m_window(window), m_path(std::move(path)), m_timeoutMs(timeoutMs) {
    connect(window, &MainWindow::errorShown, this, &ScreenshotRunner::fail);
    connect(&m_timer, &QTimer::timeout, this, &ScreenshotRunner::poll);
    m_timer.start(50);
    m_elapsed.start();
}

void ScreenshotRunner::poll() {
    if (m_elapsed.elapsed() > m_timeoutMs) {
        fail(QStringLiteral("timed out waiting for the search to settle"));
        return;
    }
    // Settled for a few polls in a row, so that throttled charts have drawn their last points.
    m_settledPolls = m_window->isSettled() ? m_settledPolls + 1 : 0;
    if (m_settledPolls < 6) return;
    if (!benchmarkDone() || !tuneDone() || !historyDone() || !compareDone() || !importDone())
        return;
    m_timer.stop();
    const QPixmap shot = m_window->grab();
    if (shot.isNull() || !shot.save(m_path, "PNG")) {
        fail(QStringLiteral("cannot write screenshot '%1'").arg(m_path));
        return;
    }
    QMetaObject::invokeMethod(
        qApp, [] { QApplication::exit(0); }, Qt::QueuedConnection);
}

void ScreenshotRunner::benchmarkFirst(const BenchSettings &settings) {
    m_bench = settings;
    connect(m_window->benchCoordinator()->controller(), &BenchmarkController::error, this,
            [this](const QString &message) { fail(QStringLiteral("benchmark: ") + message); });
}

bool ScreenshotRunner::benchmarkDone() {
    BenchmarkController *bench = m_window->benchCoordinator()->controller();
    if (m_bench) {
        m_window->raiseDock(QStringLiteral("benchDock"));
        m_bench->runner = m_window->benchPanel()->settings().runner; // the dock's saved runner
        m_window->benchPanel()->setSettings(*m_bench);
        m_window->benchCoordinator()->run(*std::exchange(m_bench, std::nullopt));
        m_benchRunning = true;
        m_settledPolls = 0;
        return false;
    }
    if (m_benchRunning && (bench->isBusy() || !bench->lastReport())) return false;
    if (m_benchRunning) { // let the table and chart lay out their last rows
        m_benchRunning = false;
        m_settledPolls = 0;
        return false;
    }
    return true;
}

void ScreenshotRunner::tuneFirst(const TuneSettings &settings) {
    m_tune = settings;
    connect(m_window->tuneCoordinator()->controller(), &TuneController::error, this,
            [this](const QString &message) { fail(QStringLiteral("tune: ") + message); });
}

bool ScreenshotRunner::tuneDone() {
    TuneController *tune = m_window->tuneCoordinator()->controller();
    if (m_tune) {
        m_window->raiseDock(QStringLiteral("tuneDock"));
        m_tune->runner = m_window->tunePanel()->settings().runner; // the dock's saved runner
        m_window->tunePanel()->setSettings(*m_tune);
        m_window->tuneCoordinator()->start(*std::exchange(m_tune, std::nullopt));
        m_tuneRunning = true;
        m_settledPolls = 0;
        return false;
    }
    if (m_tuneRunning && (tune->isBusy() || !tune->lastReport())) return false;
    if (m_tuneRunning) { // let the table and charts lay out their last rows
        m_tuneRunning = false;
        m_settledPolls = 0;
        return false;
    }
    return true;
}

void ScreenshotRunner::showStepFirst(int k) {
    m_showStep = k;
    connect(m_window->searchController(), &SearchController::stepShown, this,
            [this](const SearchStepPtr &, int shown, bool, bool whole) {
                m_stepWhole = shown == m_awaitedStep && whole;
            });
}

bool ScreenshotRunner::historyDone() {
    SearchController *search = m_window->searchController();
    if (m_showStep) {
        const int k = *std::exchange(m_showStep, std::nullopt);
        if (k >= search->history().size()) {
            fail(QStringLiteral("--show-step: the search has only %1 steps")
                     .arg(search->history().size()));
            return false;
        }
        m_awaitedStep = k;
        m_window->raiseDock(QStringLiteral("timelineDock"));
        search->showStep(k);
        m_settledPolls = 0;
        return false;
    }
    return m_awaitedStep < 0 || m_stepWhole;
}

void ScreenshotRunner::compareFirst(int a, int b) {
    m_compare = std::make_pair(a, b);
}

bool ScreenshotRunner::compareDone() {
    if (!m_compare) return true;
    const auto [a, b] = *std::exchange(m_compare, std::nullopt);
    CompareCoordinator *compare = m_window->compareCoordinator();
    const auto sideA = compare->fromBeam(a), sideB = compare->fromBeam(b);
    if (!sideA || !sideB) {
        fail(QStringLiteral("--compare: the beam on screen has no state %1")
                 .arg((sideA ? b : a) + 1));
        return false;
    }
    compare->compare(*sideA, 0);
    compare->compare(*sideB, 1);
    // Select the first Func they decide differently, so the pin buttons apply to it.
    const std::vector<int> &differing = m_window->compareView()->model()->differing();
    if (!differing.empty()) m_window->hub()->selectFunc(differing.front());
    m_settledPolls = 0;
    return false;
}

void ScreenshotRunner::importFirst(const QString &with) {
    m_import = with;
}

bool ScreenshotRunner::importDone() {
    CompareCoordinator *compare = m_window->compareCoordinator();
    if (m_import) {
        m_window->raiseDock(QStringLiteral("compareDock"));
        compare->importSide(*std::exchange(m_import, std::nullopt));
        m_importing = true;
        m_settledPolls = 0;
        return false;
    }
    if (m_importing && compare->isImporting()) return false;
    if (m_importing) { // let the tree and the bars lay out
        m_importing = false;
        m_settledPolls = 0;
        return false;
    }
    return true;
}

void ScreenshotRunner::fail(const QString &message) {
    if (std::exchange(m_failed, true)) return; // one line: the first failure is the cause
    m_timer.stop();
    std::fprintf(stderr, "beamscope: %s\n", qPrintable(message));
    // Queued: a failure before the event loop runs (a session that cannot be read is reported
    // while main() opens it) would otherwise be an exit() with no loop to leave, and a hang.
    QMetaObject::invokeMethod(
        qApp, [] { QApplication::exit(1); }, Qt::QueuedConnection);
}

} // namespace beamscope
