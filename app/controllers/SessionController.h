// SessionController: saves the search the user is looking at as a session file (written
// atomically with QSaveFile) and reopens one: it loads the pipeline on the SearchController
// and replays the saved number of steps with the saved seed, which brings back the same beam.
// The last benchmark's measurements are saved with it and handed back when it is reopened.
#pragma once

#include "session/SessionFile.h"

#include <memory>

#include <QObject>
#include <QString>

#include <optional>

namespace beamscope {

class SearchController;

class SessionController : public QObject {
    Q_OBJECT
public:
    explicit SessionController(SearchController *search, QObject *parent = nullptr);

    /// The session the search controller is at now (source, options, steps done).
    Session currentSession() const;
    /// The GPU's preset name or file, recorded in saved sessions for the UI.
    void setGpuName(const QString &name) { m_gpuName = name; }
    /// The benchmark saved with the session from now on (nullptr: none).
    void setBenchmark(std::shared_ptr<const BenchReport> report) {
        m_benchmark = std::move(report);
    }
    const std::shared_ptr<const BenchReport> &benchmark() const { return m_benchmark; }
    /// Path of the session last saved or opened (empty if none).
    const QString &currentPath() const { return m_path; }

    /// Writes `session` to `path` atomically; on failure sets `*error` (one line) if given.
    static bool writeSession(const QString &path, const Session &session, QString *error = nullptr);
    /// Reads a session file; on failure sets `*error` (one line) if given.
    static std::optional<Session> readSession(const QString &path, QString *error = nullptr);

public Q_SLOTS:
    /// Saves the current session; emits saved() or error().
    bool save(const QString &path);
    /// Opens a session: loads its pipeline and replays its steps; emits opened() or error().
    bool open(const QString &path);

Q_SIGNALS:
    void saved(const QString &path);
    /// The session was read and its replay requested (results arrive from the SearchController).
    void opened(const QString &path, const QString &gpuName);
    /// A session was opened: its saved benchmark (nullptr when it has none).
    void benchmarkOpened(std::shared_ptr<const beamscope::BenchReport> report);
    void error(const QString &message);

private:
    SearchController *m_search;
    QString m_gpuName;
    QString m_path;
    std::shared_ptr<const BenchReport> m_benchmark;
};

} // namespace beamscope
