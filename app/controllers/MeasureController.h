// MeasureController: what BenchmarkController and TuneController share. A run goes to the
// JobTracker's worker thread (a newer start cancels the older run and drops its late results);
// the controller is busy from the start until the run's outcome reaches the GUI thread, where
// the outcome is either the derived controller's result or error() with one line fit for a user
// (an exception on the worker never escapes it). cancel() raises the run's cancel flag.
#pragma once

#include "controllers/JobTracker.h"
#include "util/Error.h"

#include <QObject>
#include <QString>

#include <exception>
#include <functional>
#include <memory>
#include <optional>

namespace beamscope {

class MeasureController : public QObject {
    Q_OBJECT
public:
    /// True from a run's start until its result or error has been delivered.
    bool isBusy() const { return m_busy; }
    /// The measurement database the next runs use; it is opened on the worker thread.
    void setDatabasePath(const QString &path) { m_databasePath = path; }
    QString databasePath() const { return m_databasePath; }

public Q_SLOTS:
    /// Stops the running run (the derived controller says how far it goes on).
    void cancel();

Q_SIGNALS:
    /// The run could not start or stopped on an error; `message` is one line fit for a user.
    void error(const QString &message);
    void busyChanged(bool busy);

protected:
    /// `threadName` names the worker thread.
    MeasureController(const QString &threadName, QObject *parent);

    /// Starts `work` on the worker thread: a run still going is cancelled at once and its
    /// results are dropped; busy until `work` delivers its outcome with runAndDeliver().
    void post(std::function<void(const JobTracker::Job &)> work);

    /// On the worker thread: runs `run` and hands its outcome to the GUI thread, where the busy
    /// state ends and then `onResult(result)` runs, or error() is emitted with the exception's
    /// first line (`unexpected` for one that is not a std::exception).
    template <class Result>
    void runAndDeliver(const JobTracker::Job &job, const QString &unexpected,
                       const std::function<std::shared_ptr<const Result>()> &run,
                       std::function<void(std::shared_ptr<const Result>)> onResult) {
        std::optional<QString> failure;
        std::shared_ptr<const Result> result;
        try {
            result = run();
        } catch (const std::exception &e) {
            failure = QString::fromStdString(detail::firstLine(e.what()));
        } catch (...) {
            failure = unexpected;
        }
        job.deliver([this, result, failure, onResult = std::move(onResult)] {
            setBusy(false);
            if (failure) {
                Q_EMIT error(*failure);
            } else {
                onResult(result);
            }
        });
    }

    JobTracker m_jobs; ///< its worker uses only what a job captured, never the controller's members

private:
    void setBusy(bool busy);

    bool m_busy = false;
    QString m_databasePath;
};

} // namespace beamscope
