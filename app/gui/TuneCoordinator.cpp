// TuneCoordinator: availability from the loaded pipeline, requests to the controller, its
// signals to the panel and the status bar.
#include "TuneCoordinator.h"

#include "DatabaseSetting.h"

#include "controllers/SearchController.h"
#include "views/common/SelectionHub.h"
#include "views/runner/RunnerChoice.h"
#include "views/tune/TunePanel.h"

#include <exception>

namespace beamscope {

namespace {

/// What identifies the pipeline a stopped run tuned, for Resume.
std::string sourceKey(const PipelineSource &s) {
    std::string key = s.name + "|" + userFile(s);
    for (const std::string &p : s.params)
        key += "|" + p;
    for (const std::string &e : s.estimates)
        key += "|e:" + e;
    for (const std::string &i : s.inputs)
        key += "|i:" + i;
    return key;
}

} // namespace

TuneCoordinator::TuneCoordinator(TunePanel *panel, SelectionHub *hub, SearchController *search,
                                 QObject *parent)
    : QObject(parent), m_panel(panel), m_hub(hub), m_search(search),
      m_tune(new TuneController(this)) {
    connect(m_hub, &SelectionHub::dagChanged, this, &TuneCoordinator::updateAvailability);
    connect(m_panel, &TunePanel::startRequested, this, &TuneCoordinator::start);
    connect(m_panel, &TunePanel::resumeRequested, this, &TuneCoordinator::resume);
    connect(m_panel, &TunePanel::stopRequested, m_tune, &TuneController::cancel);
    connect(m_tune, &TuneController::busyChanged, m_panel, &TunePanel::setBusy);
    connect(m_tune, &TuneController::progress, m_panel, &TunePanel::setProgress);
    connect(m_tune, &TuneController::roundFinished, m_panel, &TunePanel::addRound);
    connect(m_tune, &TuneController::runnerProgress, m_panel, &TunePanel::setRunnerProgress);
    // Where runs measure is kept across sessions (QSettings "tune/runner/...").
    m_panel->runnerChoice()->setSettings(RunnerSettings::load(QStringLiteral("tune")));
    connect(m_panel, &TunePanel::runnerChanged, this,
            [](const RunnerSettings &r) { r.save(QStringLiteral("tune")); });
    connect(m_tune, &TuneController::roundFinished, this, [this](const TuneRound &r) {
        Q_EMIT message(QString::fromStdString(tuneRoundLine(r)));
    });
    connect(m_tune, &TuneController::finished, this, [this](const TuneReportPtr &report) {
        m_panel->showReport(report);
        m_stoppedRunId = report->cancelled ? report->runId : std::string();
        m_stoppedRounds = int(report->rounds.size());
        m_stoppedPipeline = sourceKey(m_search->source());
        updateAvailability();
        if (!report->modelPath.empty())
            Q_EMIT modelWritten(QString::fromStdString(report->modelPath));
        Q_EMIT message(report->cancelled ? tr("Tuning stopped: Resume continues it")
                                         : tr("Tuning finished"));
    });
    connect(m_tune, &TuneController::error, this, [this](const QString &text) {
        m_panel->showError(text);
        Q_EMIT message(tr("Tuning failed: %1").arg(text));
    });
    updateAvailability();
}

void TuneCoordinator::updateAvailability() {
    if (!m_hub->dag()) {
        m_panel->setAvailable(false, tr("Load a pipeline: tuning searches it, measures a batch "
                                        "of schedules per round (on this machine or a Slurm "
                                        "cluster: Measure on) and "
                                        "retrains the cost model."));
        m_panel->setResumable(false);
        return;
    }
    const QString db = DatabaseSetting::path();
    m_panel->setAvailable(
        true, tr("Tunes %1 for the %2 GPU model with the toolbar's options and pins, starting "
                 "from the %3 cost model; every measurement goes to %4.")
                  .arg(QString::fromStdString(m_search->dag()->pipelineName()),
                       QString::fromStdString(m_search->options().gpu.name),
                       QString::fromStdString(m_search->options().costModel),
                       db.isEmpty() ? tr("(no database set)") : db));
    m_panel->setResumable(!m_stoppedRunId.empty() &&
                          m_stoppedPipeline == sourceKey(m_search->source()));
}

void TuneCoordinator::start(const TuneSettings &settings) {
    run(settings, false);
}

void TuneCoordinator::resume(const TuneSettings &settings) {
    run(settings, true);
}

void TuneCoordinator::run(const TuneSettings &settings, bool resume) {
    if (!m_search->dag()) {
        m_panel->showError(tr("no pipeline is loaded"));
        return;
    }
    TuneOptions options;
    options.source = m_search->source();
    options.search = m_search->options();
    options.device = settings.device;
    options.rounds = settings.rounds;
    options.batch = settings.batch;
    options.repeats = m_repeats;
    options.workerPath = m_workerPath.toStdString();
    options.runner = settings.runner.kind;
    if (options.runner == RunnerKind::Slurm) {
        try {
            options.slurm = settings.runner.slurm();
        } catch (const std::exception &e) {
            m_panel->showError(QString::fromStdString(e.what()));
            return;
        }
    }
    if (resume) {
        // The Tuner keeps a run's state once a round is done; a run stopped in its first round
        // starts again under the same id, and the rows it measured are reused from the database.
        options.runId = m_stoppedRunId;
        options.resume = m_stoppedRounds > 0;
    }
    m_tune->setDatabasePath(DatabaseSetting::path()); // read on the GUI thread
    m_panel->beginRun(resume);
    Q_EMIT message(resume ? tr("Resuming tune run %1…").arg(QString::fromStdString(options.runId))
                          : tr("Tuning %1: %2 rounds of %3…")
                                .arg(QString::fromStdString(options.source.name))
                                .arg(options.rounds)
                                .arg(options.batch));
    m_tune->start(std::move(options));
}

} // namespace beamscope
