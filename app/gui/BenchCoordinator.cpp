// BenchCoordinator: availability from the step on screen, requests from the beam, controller
// signals to the panel, reports to and from sessions.
#include "BenchCoordinator.h"

#include "BenchCandidates.h"
#include "DatabaseSetting.h"

#include "controllers/SearchController.h"
#include "controllers/SessionController.h"
#include "views/benchmark/BenchPanel.h"
#include "views/common/SelectionHub.h"
#include "views/runner/RunnerChoice.h"

#include <QRegularExpression>

#include <cmath>

namespace beamscope {

namespace {

/// Complete schedules in the beam of `step` (0 for none or a partial beam).
int completeStates(const SearchStepPtr &step) {
    int n = 0;
    if (step) {
        for (const BeamEntry &e : step->beam)
            n += e.state && e.state->complete() ? 1 : 0;
    }
    return n;
}

} // namespace

BenchCoordinator::BenchCoordinator(BenchPanel *panel, SelectionHub *hub, SearchController *search,
                                   SessionController *sessions, QObject *parent)
    : QObject(parent), m_panel(panel), m_hub(hub), m_search(search), m_sessions(sessions),
      m_bench(new BenchmarkController(this)) {
    connect(m_hub, &SelectionHub::stepChanged, this, &BenchCoordinator::updateAvailability);
    connect(m_hub, &SelectionHub::dagChanged, this, &BenchCoordinator::updateAvailability);
    connect(m_panel, &BenchPanel::runRequested, this, &BenchCoordinator::run);
    connect(m_panel, &BenchPanel::cancelRequested, m_bench, &BenchmarkController::cancel);
    connect(m_bench, &BenchmarkController::busyChanged, m_panel, &BenchPanel::setBusy);
    connect(m_bench, &BenchmarkController::progress, m_panel, &BenchPanel::setProgress);
    connect(m_bench, &BenchmarkController::measured, m_panel, &BenchPanel::addMeasurement);
    connect(m_bench, &BenchmarkController::runnerProgress, m_panel, &BenchPanel::setRunnerProgress);
    // Where runs measure is kept across sessions (QSettings "bench/runner/...").
    m_panel->runnerChoice()->setSettings(RunnerSettings::load(QStringLiteral("bench")));
    connect(m_panel, &BenchPanel::runnerChanged, this,
            [](const RunnerSettings &r) { r.save(QStringLiteral("bench")); });
    connect(m_bench, &BenchmarkController::finished, this, [this](const BenchReportPtr &report) {
        m_panel->showReport(report);
        m_sessions->setBenchmark(report);
        Q_EMIT message(
            report->cancelled
                ? tr("Benchmark cancelled")
                : tr("Benchmark finished in %1 s").arg(report->benchMs / 1000, 0, 'f', 1));
    });
    connect(m_bench, &BenchmarkController::error, this, [this](const QString &text) {
        m_panel->showError(text);
        Q_EMIT message(tr("Benchmark failed: %1").arg(text));
    });
    connect(m_bench, &BenchmarkController::storeUnavailable, this, [this](const QString &text) {
        // The run's closing count ("measurement database: 3 row(s) recorded, 1 reused") comes
        // the same way as a failure; it is news, not a warning.
        static const QRegularExpression summary(
            QStringLiteral("^measurement database: \\d+ row\\(s\\) recorded"));
        if (summary.match(text).hasMatch()) {
            Q_EMIT message(text);
            return;
        }
        const QString line = tr("Not recording measurements: %1").arg(text);
        m_panel->showNotRecorded(line);
        Q_EMIT warning(line);
    });
    connect(m_sessions, &SessionController::benchmarkOpened, m_panel, &BenchPanel::showReport);
    updateAvailability();
}

void BenchCoordinator::updateAvailability() {
    const SearchStepPtr &step = m_hub->step();
    const int complete = completeStates(step);
    if (!m_hub->dag()) {
        m_panel->setAvailable(false, tr("Load a pipeline and run the search: benchmarks measure "
                                        "complete schedules from the beam."));
    } else if (complete == 0) {
        m_panel->setAvailable(false, tr("The beam on screen holds partial schedules: run the "
                                        "search to the end of a pass (or to the end) first."));
    } else {
        m_panel->setAvailable(
            true, tr("Measures the search's result or complete schedules of the beam at step "
                     "%1 (pass %2, %3 in the beam), searched for the %4 GPU model with the "
                     "search's pins; candidates run out of process.")
                      .arg(step->index + 1)
                      .arg(step->pass)
                      .arg(complete)
                      .arg(QString::fromStdString(m_search->options().gpu.name)));
    }
}

void BenchCoordinator::run(const BenchSettings &settings) {
    const SearchStepPtr step = m_hub->step();
    if (completeStates(step) == 0 || !m_search->dag()) {
        m_panel->showError(tr("no complete schedule in the beam on screen"));
        return;
    }
    BenchOptions options;
    options.source = m_search->source();
    options.search = m_search->options();
    options.dag = m_search->dag();
    options.device = settings.device;
    options.mode = BenchMode::TopK;
    options.candidates = benchCandidates(*step, settings);
    options.top = int(options.candidates->size());
    options.extraGreedySamples = settings.greedySamples;
    options.repeats = m_repeats;
    options.workerPath = m_workerPath.toStdString();
    options.runner = settings.runner.kind;
    try {
        for (const QString &name : settings.baselines)
            options.baselines.push_back(parseBaseline(name.toStdString()));
        if (options.runner == RunnerKind::Slurm) options.slurm = settings.runner.slurm();
    } catch (const std::exception &e) {
        m_panel->showError(QString::fromStdString(e.what()));
        return;
    }
    m_bench->setDatabasePath(
        DatabaseSetting::path()); // read on the GUI thread, opened on the worker
    m_panel->beginRun(QString::fromStdString(options.search.gpu.name));
    const size_t n = options.candidates->size();
    Q_EMIT message(n == 1 ? tr("Benchmarking 1 schedule…")
                          : tr("Benchmarking %1 schedules…").arg(n));
    m_bench->start(std::move(options));
}

} // namespace beamscope
