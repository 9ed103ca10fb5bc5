// ExplainCoordinator: the window's "explain" features. "Why not…?" from the DAG's context menu
// (SelectionHub::whyRequested) follows the search the window runs — same DAG and options, or
// the replayed trace's — on a worker and shows the answer in a WhyDialog. File > Open trace…
// replays a `beamscope-cli search --trace` file on a worker (checked line by line), keeps each
// step as the compact record a live history keeps (the newest whole) and hands them to the
// SearchController as a read-only history: older steps are replayed on demand from the trace's
// search, as a live search's are.
#pragma once

#include "controllers/StepHistory.h"
#include "search/TraceReader.h"

#include <QObject>
#include <QString>

#include <memory>
#include <optional>

namespace beamscope {

class ExplainJobs;
class SearchController;
class SelectionHub;
class WhyDialog;
struct Pin;

class ExplainCoordinator : public QObject {
    Q_OBJECT
public:
    ExplainCoordinator(SelectionHub *hub, SearchController *search, QWidget *window);

    WhyDialog *whyDialog() const { return m_dialog; }
    ExplainJobs *jobs() const { return m_jobs; }
    /// True while a "why not?" or a trace replay runs.
    bool isBusy() const;

public Q_SLOTS:
    /// Asks what happened to `decision` in the search on screen; shows the dialog.
    void askWhy(const beamscope::Pin &decision);
    /// Replays the trace at `path` into the window (read-only).
    void openTrace(const QString &path);

Q_SIGNALS:
    /// One line for the status bar.
    void message(const QString &text);
    /// A request failed (one line).
    void error(const QString &message);
    /// A trace is on screen.
    void traceOpened(const QString &path, int steps);

private:
    SelectionHub *m_hub;
    SearchController *m_search;
    ExplainJobs *m_jobs;
    WhyDialog *m_dialog;
    std::optional<TraceSearch> m_trace; ///< the search of the trace on screen, if any
    /// What the trace being opened keeps, filled on the trace worker: a record per checked step
    /// and the newest step whole.
    struct KeptTrace {
        std::vector<HistoryRecord> records;
        SearchStepPtr newest;
    };
    std::shared_ptr<KeptTrace> m_opening;
};

} // namespace beamscope
