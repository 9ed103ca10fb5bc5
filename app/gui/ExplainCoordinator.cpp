// ExplainCoordinator: wiring of "Why not…?" and Open trace to ExplainJobs, the dialog and the
// SearchController.
#include "ExplainCoordinator.h"

#include "controllers/ExplainJobs.h"
#include "controllers/SearchController.h"
#include "util/Error.h"
#include "views/common/SelectionHub.h"
#include "views/explain/WhyDialog.h"

#include <QFileInfo>

#include <utility>

namespace beamscope {

ExplainCoordinator::ExplainCoordinator(SelectionHub *hub, SearchController *search, QWidget *window)
    : QObject(window), m_hub(hub), m_search(search), m_jobs(new ExplainJobs(this)),
      m_dialog(new WhyDialog(window)) {
    connect(m_hub, &SelectionHub::whyRequested, this, &ExplainCoordinator::askWhy);
    connect(m_jobs, &ExplainJobs::answered, m_dialog, &WhyDialog::showAnswer);
    connect(m_jobs, &ExplainJobs::failed, this, [this](const QString &text) {
        if (m_dialog->isVisible()) m_dialog->showError(text);
        Q_EMIT error(text);
    });
    connect(m_jobs, &ExplainJobs::traceFailed, this, [this] { m_opening.reset(); });
    connect(m_jobs, &ExplainJobs::traceProgress, this, [this](int done, int total) {
        Q_EMIT message(tr("Replaying the trace: step %1 of %2").arg(done).arg(total));
    });
    connect(m_jobs, &ExplainJobs::traceReplayed, this,
            [this](const QString &path, const std::shared_ptr<const TraceReplay> &replay) {
                const std::shared_ptr<KeptTrace> kept = std::exchange(m_opening, nullptr);
                if (!kept) return;
                const int steps = int(kept->records.size());
                try {
                    m_search->setReadOnlyHistory(
                        replay->dag, replay->search.options, std::move(kept->records),
                        std::move(kept->newest),
                        QStringLiteral("trace '%1'").arg(QFileInfo(path).fileName()));
                } catch (const Error &e) {
                    Q_EMIT error(QString::fromStdString(e.what()));
                    return;
                }
                m_trace = replay->search;
                // The toolbar keeps the window's own options: say the trace's here.
                const SearchOptions &o = replay->search.options;
                Q_EMIT message(tr("Trace %1: %2 steps of %3 (beam %4, %5 passes, seed %6, %7), "
                                  "replayed and checked (read-only)")
                                   .arg(QFileInfo(path).fileName())
                                   .arg(steps)
                                   .arg(QString::fromStdString(replay->search.source.name))
                                   .arg(o.beamSize)
                                   .arg(o.passes)
                                   .arg(o.seed)
                                   .arg(QString::fromStdString(o.gpu.name)));
                Q_EMIT traceOpened(path, steps);
            });
    // A new pipeline or search replaces the trace.
    connect(m_search, &SearchController::searchReset, this, [this] {
        if (!m_search->isReadOnly()) m_trace.reset();
    });
}

bool ExplainCoordinator::isBusy() const {
    return m_jobs->isBusy();
}

void ExplainCoordinator::askWhy(const Pin &decision) {
    const auto dag = m_search->dag();
    if (!dag) {
        Q_EMIT error(tr("Why not: load a pipeline first"));
        return;
    }
    // The same search as on screen: the trace's when one is shown, else the window's.
    const SearchOptions options =
        m_search->isReadOnly() && m_trace ? m_trace->options : m_search->options();
    m_dialog->showPending(QString::fromStdString(decision.func),
                          QString::fromStdString(describeDecision(decision)));
    m_dialog->show();
    m_dialog->raise();
    m_jobs->askWhy(dag, options, decision);
}

void ExplainCoordinator::openTrace(const QString &path) {
    Q_EMIT message(tr("Replaying the trace %1…").arg(QFileInfo(path).fileName()));
    // Each checked step is kept as a live history keeps it (the whole step is freed on the
    // worker), so a long trace costs what its search's history does.
    m_opening = std::make_shared<KeptTrace>();
    m_jobs->openTrace(path, [kept = m_opening](const SearchStepPtr &step) {
        kept->records.push_back(StepHistory::record(step, false));
        kept->newest = step;
    });
}

} // namespace beamscope
