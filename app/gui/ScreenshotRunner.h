// ScreenshotRunner: --screenshot mode. Waits until the window has settled (pipeline loaded,
// steps taken, DAG laid out, charts flushed), grabs the main window, saves it as PNG and quits
// the application: exit code 0, or 1 with one line on stderr when the search or the save fails.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>

namespace beamscope {

class MainWindow;

class ScreenshotRunner : public QObject {
    Q_OBJECT
public:
    /// Gives up (exit 1) after `timeoutMs`.
    ScreenshotRunner(MainWindow *window, QString path, int timeoutMs = 300000);

private:
    void poll();
    void fail(const QString &message);

    MainWindow *m_window;
    QString m_path;
    int m_timeoutMs;
    int m_settledPolls = 0;
    QTimer m_timer;
    QElapsedTimer m_elapsed;
};

} // namespace beamscope
