// ScreenshotRunner: settle polling, grab, save, quit.
#include "ScreenshotRunner.h"

#include "MainWindow.h"

#include <QApplication>
#include <QPixmap>

#include <cstdio>

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
    m_timer.stop();
    const QPixmap shot = m_window->grab();
    if (shot.isNull() || !shot.save(m_path, "PNG")) {
        fail(QStringLiteral("cannot write screenshot '%1'").arg(m_path));
        return;
    }
    QApplication::exit(0);
}

void ScreenshotRunner::fail(const QString &message) {
    m_timer.stop();
    std::fprintf(stderr, "beamscope: %s\n", qPrintable(message));
    QApplication::exit(1);
}

} // namespace beamscope
