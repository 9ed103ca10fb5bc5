// MainWindow: docks, menus and the wiring between the search controller, the hub and the views.
//   createDocks()   the views in docks around the DAG
//   createMenus()   File (sessions, recent files, export schedule), View (docks, reset layout)
//   connectSearch() controller signals -> hub, status bar, toolbar
//   applyOptions() / applyPins()  a fresh search when the user changes options or pins
#include "MainWindow.h"

#include "BenchCoordinator.h"
#include "CompareCoordinator.h"
#include "DatabaseSetting.h"
#include "ErrorBar.h"
#include "ExplainCoordinator.h"
#include "HistoryCoordinator.h"
#include "PipelinePanel.h"
#include "RecentFiles.h"
#include "SearchToolBar.h"
#include "StatusPanel.h"
#include "TuneCoordinator.h"
#include "WindowLayout.h"

#include "controllers/SearchController.h"
#include "controllers/SessionController.h"
#include "views/beam/BeamView.h"
#include "views/benchmark/BenchPanel.h"
#include "views/buckets/BucketsView.h"
#include "views/code/ExportView.h"
#include "views/common/Format.h"
#include "views/common/SelectionHub.h"
#include "views/common/WithoutShaping.h"
#include "views/compare/CompareView.h"
#include "views/cost/BestCostChart.h"
#include "views/cost/CostView.h"
#include "views/dag/DagPanel.h"
#include "views/dag/DagView.h"
#include "views/history/TimelinePanel.h"
#include "views/loopnest/LoopNestView.h"
#include "views/tune/TunePanel.h"

#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QMenuBar>
#include <QScrollArea>
#include <QStatusBar>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace beamscope {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent), m_hub(new SelectionHub(this)), m_search(new SearchController(this)),
      m_sessions(new SessionController(m_search, this)), m_toolbar(new SearchToolBar(this)),
      m_pipeline(new PipelinePanel(this)), m_dag(new DagPanel(m_hub, this)),
      m_cost(new CostView(m_hub, this)), m_export(new ExportView(m_hub, this)),
      m_benchPanel(new BenchPanel(this)),
      m_bench(new BenchCoordinator(m_benchPanel, m_hub, m_search, m_sessions, this)),
      m_tunePanel(new TunePanel(this)),
      m_tune(new TuneCoordinator(m_tunePanel, m_hub, m_search, this)),
      m_beam(new BeamView(m_hub, this)), m_timeline(new TimelinePanel(this)),
      m_compare(new CompareView(m_hub, this)), m_status(new StatusPanel(statusBar())),
      m_errorBar(new ErrorBar(this)) {
    setWindowTitle(tr("Beamscope"));
    setObjectName(QStringLiteral("mainWindow"));
    setFont(withoutShaping(font())); // every view inherits it (WithoutShaping.h says why)
    auto *central = new QWidget(this);
    auto *centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(0);
    centralLayout->addWidget(m_errorBar);
    centralLayout->addWidget(m_dag, 1);
    setCentralWidget(central);
    addToolBar(Qt::TopToolBarArea, m_toolbar);
    createDocks();
    m_layout = new WindowLayout(this, [this] { applyDefaultDockSizes(); });
    createMenus();
    connectSearch();
    m_explain = new ExplainCoordinator(m_hub, m_search, this);
    connect(m_explain, &ExplainCoordinator::message, this,
            [this](const QString &text) { statusBar()->showMessage(text, 8000); });
    connect(m_explain, &ExplainCoordinator::error, this, &MainWindow::showError);
    m_history = new HistoryCoordinator(m_search, m_hub, m_timeline, m_cost->historyChart(), this);
    m_compareSources = new CompareCoordinator(
        m_compare, m_hub, m_search, [this] { raiseDock(QStringLiteral("compareDock")); }, this);
    m_compareSources->watchBeam(m_beam);
    m_compareSources->watchTimeline(m_timeline);
    m_compareSources->watchBenchTable(m_benchPanel->table(), m_bench->controller());
    m_options.gpu = GpuSpec::load("v100");
    updateActions();
    statusBar()->showMessage(tr("Pick a pipeline on the left and press Load."));
}

MainWindow::~MainWindow() = default;

void MainWindow::createDocks() {
    setDockOptions(AnimatedDocks | AllowNestedDocks | AllowTabbedDocks);
    auto dock = [this](const QString &title, const QString &name, QWidget *widget,
                       Qt::DockWidgetArea area) {
        auto *d = new QDockWidget(title, this);
        d->setObjectName(name);
        d->setWidget(widget);
        addDockWidget(area, d);
        return d;
    };
    // In a scroll area: an app with many parameters scrolls on a short screen instead of
    // setting the window's minimum height.
    auto *pipelineScroll = new QScrollArea(this);
    pipelineScroll->setWidget(m_pipeline);
    pipelineScroll->setWidgetResizable(true);
    pipelineScroll->setFrameShape(QFrame::NoFrame);
    pipelineScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    QDockWidget *pipeline = dock(tr("Pipeline"), QStringLiteral("pipelineDock"), pipelineScroll,
                                 Qt::LeftDockWidgetArea);
    // The step history under the pipeline picker: a tall list suits a timeline.
    QDockWidget *timeline =
        dock(tr("Timeline"), QStringLiteral("timelineDock"), m_timeline, Qt::LeftDockWidgetArea);
    splitDockWidget(pipeline, timeline, Qt::Vertical);
    QDockWidget *loops = dock(tr("Loop nest"), QStringLiteral("loopNestDock"),
                              new LoopNestView(m_hub, this), Qt::RightDockWidgetArea);
    QDockWidget *cost =
        dock(tr("Cost"), QStringLiteral("costDock"), m_cost, Qt::RightDockWidgetArea);
    QDockWidget *beam =
        dock(tr("Beam"), QStringLiteral("beamDock"), m_beam, Qt::BottomDockWidgetArea);
    QDockWidget *buckets = dock(tr("Candidates"), QStringLiteral("bucketsDock"),
                                new BucketsView(m_hub, this), Qt::BottomDockWidgetArea);
    splitDockWidget(loops, cost, Qt::Vertical);
    splitDockWidget(beam, buckets, Qt::Horizontal);
    QDockWidget *exported =
        dock(tr("Export"), QStringLiteral("exportDock"), m_export, Qt::RightDockWidgetArea);
    tabifyDockWidget(cost, exported); // the taller of the two right-hand docks suits code
    cost->raise();
    QDockWidget *bench =
        dock(tr("Benchmark"), QStringLiteral("benchDock"), m_benchPanel, Qt::BottomDockWidgetArea);
    tabifyDockWidget(buckets, bench);
    QDockWidget *tune =
        dock(tr("Tune"), QStringLiteral("tuneDock"), m_tunePanel, Qt::BottomDockWidgetArea);
    tabifyDockWidget(bench, tune);
    QDockWidget *compare =
        dock(tr("Compare"), QStringLiteral("compareDock"), m_compare, Qt::BottomDockWidgetArea);
    tabifyDockWidget(tune, compare);
    buckets->raise();
    // On a short window (a laptop's 720 or 800 lines) the measuring docks' tables and charts
    // need more than the bottom row's default: raising one gives the bottom row 42% of the
    // height (the DAG keeps the rest).
    for (QDockWidget *measuring : {bench, tune}) {
        connect(measuring, &QDockWidget::visibilityChanged, this, [this, beam](bool visible) {
            if (visible && isVisible() && height() < 900)
                resizeDocks({beam}, {height() * 42 / 100}, Qt::Vertical);
        });
    }
    applyDefaultDockSizes();
}

void MainWindow::applyDefaultDockSizes() {
    auto find = [this](const char *name) { return findChild<QDockWidget *>(QLatin1String(name)); };
    QDockWidget *loops = find("loopNestDock");
    QDockWidget *cost = find("costDock");
    QDockWidget *beam = find("beamDock");
    QDockWidget *buckets = find("bucketsDock");
    // Proportions of the window as it is: before the first show the window's size is not the
    // final one, so this runs again once it is shown (showEvent).
    const int w = std::max(width(), 1024), h = std::max(height(), 600);
    // The left column widens with the window so that the Timeline's Func names fit.
    resizeDocks({find("pipelineDock")}, {std::clamp(w * 22 / 100, 260, 520)}, Qt::Horizontal);
    resizeDocks({find("pipelineDock"), find("timelineDock")}, {38, 62}, Qt::Vertical);
    resizeDocks({loops}, {w * 30 / 100}, Qt::Horizontal);
    // A short window (a laptop's 720 or 800 lines): the bottom docks take less of it, and the
    // Loop nest and Cost share the right column as tabs instead of a few rows each.
    // (Only once shown: before, the window has Qt's default size, not its own.)
    const bool shortWindow = isVisible() && h < 900;
    // The Benchmark or Tune dock raised (--dock): its table and chart get the room, as when the
    // user raises one (createDocks).
    const bool measuring = find("benchDock")->isVisible() || find("tuneDock")->isVisible();
    resizeDocks({beam}, {h * (shortWindow ? (measuring ? 42 : 26) : 29) / 100}, Qt::Vertical);
    if (shortWindow && tabifiedDockWidgets(loops).isEmpty()) {
        tabifyDockWidget(loops, cost);
        tabifyDockWidget(loops, find("exportDock"));
        loops->raise();
    } else if (!shortWindow) {
        resizeDocks({loops, cost}, {38, 62}, Qt::Vertical);
    }
    resizeDocks({beam, buckets}, {36, 64}, Qt::Horizontal);
}

void MainWindow::showEvent(QShowEvent *event) {
    QMainWindow::showEvent(event);
    if (std::exchange(m_shownOnce, true) || m_layout->wasRestored()) return;
    m_sinceShown.start();
    // At the window's real size, which the constructor did not know; once the event loop runs,
    // after a size given on the command line (-qwindowgeometry) has been applied too.
    applyDefaultDockSizes();
    QTimer::singleShot(0, this, [this] {
        if (!m_layout->wasRestored()) applyDefaultDockSizes();
    });
}

void MainWindow::resizeEvent(QResizeEvent *event) {
    QMainWindow::resizeEvent(event);
    // A size given on the command line (-qwindowgeometry) or by the window manager can arrive
    // after the first show: the default layout is laid out again for it (a 1280x720 screen gets
    // the tabbed right column, a 2560x1440 one the wider docks), while no user can yet have
    // arranged the docks.
    if (m_sinceShown.isValid() && m_sinceShown.elapsed() < 1000 && !m_layout->wasRestored())
        applyDefaultDockSizes();
}

void MainWindow::createMenus() {
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open session…"), QKeySequence::Open, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open session"), QString(),
                                                          tr("Beamscope sessions (*.json)"));
        if (!path.isEmpty()) openSession(path);
    });
    QMenu *recent = file->addMenu(tr("Open &recent"));
    m_recent = new RecentFiles(QStringLiteral("recentSessions"), recent, this);
    connect(m_recent, &RecentFiles::fileChosen, this, &MainWindow::openSession);
    file->addAction(tr("Open &trace…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open a search trace"), QString(),
            tr("Search traces of beamscope-cli search --trace (*.jsonl *.json);;All files (*)"));
        if (!path.isEmpty()) m_explain->openTrace(path);
    });
    QAction *python = file->addAction(tr("Open &Python generator…"), this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Open a Python generator"), QString(),
                                         tr("Halide Python generators (*.py);;All files (*)"));
        if (!path.isEmpty()) m_pipeline->openGeneratorLibrary(path, true);
    });
    python->setToolTip(tr("List the @hl.generator classes of a Python file in the Pipeline dock"));
    file->addAction(tr("&Save session"), QKeySequence::Save, this, [this] { saveSession(false); });
    file->addAction(tr("Save session &as…"), QKeySequence::SaveAs, this,
                    [this] { saveSession(true); });
    file->addSeparator();
    QAction *exportAction =
        file->addAction(tr("&Export schedule…"), QKeySequence(Qt::CTRL | Qt::Key_E), this, [this] {
            raiseDock(QStringLiteral("exportDock"));
            m_export->saveAs();
        });
    exportAction->setToolTip(tr("Save the inspected schedule as Halide C++"));
    exportAction->setEnabled(m_export->canExport());
    connect(m_export, &ExportView::exportableChanged, exportAction, &QAction::setEnabled);
    file->addSeparator();
    QAction *database = file->addAction(tr("Measurement &database…"), this, [this] {
        if (DatabaseSetting::choose(this))
            statusBar()->showMessage(
                tr("Measurements are recorded in %1").arg(DatabaseSetting::path()), 8000);
    });
    database->setToolTip(tr("The SQLite file the Benchmark and Tune docks record every "
                            "measurement into"));
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu *search = menuBar()->addMenu(tr("&Search"));
    QAction *benchmark =
        search->addAction(tr("&Benchmark…"), QKeySequence(Qt::CTRL | Qt::Key_B), this,
                          [this] { raiseDock(QStringLiteral("benchDock")); });
    benchmark->setToolTip(tr("Compile and measure the beam's best schedules on the local device"));
    QAction *tune = search->addAction(tr("&Tune…"), QKeySequence(Qt::CTRL | Qt::Key_T), this,
                                      [this] { raiseDock(QStringLiteral("tuneDock")); });
    tune->setToolTip(tr("Rounds of search, measure and retrain on the local device"));
    search->addSeparator();
    QAction *back = search->addAction(tr("Step &back in history"),
                                      QKeySequence(Qt::ALT | Qt::Key_Left), this, [this] {
                                          const int shown = m_search->shownStep();
                                          const int newest = m_search->history().size() - 1;
                                          const int k = (shown < 0 ? newest : shown) - 1;
                                          if (k >= 0) m_search->showStep(k);
                                      });
    back->setToolTip(tr("Show the step before the one on screen (the search does not move)"));
    search->addAction(tr("Newest step"), QKeySequence(Qt::ALT | Qt::Key_End), m_search,
                      &SearchController::showNewest);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("Fit graph"), QKeySequence(Qt::CTRL | Qt::Key_0), m_dag->view(),
                    &DagView::fitAll);
    view->addSeparator();
    for (QDockWidget *dock : findChildren<QDockWidget *>())
        view->addAction(dock->toggleViewAction());
    view->addSeparator();
    view->addAction(tr("&Reset layout"), m_layout, &WindowLayout::reset);
}

void MainWindow::connectSearch() {
    connect(m_toolbar->stepAction(), &QAction::triggered, m_search, &SearchController::stepOne);
    connect(m_toolbar->passAction(), &QAction::triggered, m_search, &SearchController::stepPass);
    connect(m_toolbar->runAction(), &QAction::triggered, m_search, &SearchController::runToEnd);
    connect(m_toolbar->pauseAction(), &QAction::triggered, m_search, &SearchController::pause);
    connect(m_toolbar->resetAction(), &QAction::triggered, m_search, &SearchController::reset);
    connect(m_toolbar, &SearchToolBar::optionsEdited, this, &MainWindow::applyOptions);
    connect(m_pipeline, &PipelinePanel::loadRequested, this,
            [this](const PipelineSource &s) { loadPipeline(s); });
    connect(m_pipeline, &PipelinePanel::message, statusBar(),
            [this](const QString &m) { statusBar()->showMessage(m, 8000); });
    connect(m_hub, &SelectionHub::pinsRequested, this, &MainWindow::applyPins);

    m_hub->setSnapshotReleaser(
        [this](SearchStepPtr step) { m_search->releaseOnWorker(std::move(step)); });
    connect(m_search, &SearchController::loaded, m_hub, &SelectionHub::setDag);
    connect(m_search, &SearchController::loaded, this, [this](const DagPtr &dag) {
        statusBar()->showMessage(tr("Loaded %1: %2 Funcs, %3 stages")
                                     .arg(QString::fromStdString(dag->pipelineName()))
                                     .arg(dag->funcCount())
                                     .arg(dag->stageCount()),
                                 8000);
    });
    connect(m_search, &SearchController::searchReset, this, [this](int estimated) {
        m_hub->setStep(nullptr);
        m_cost->historyChart()->clear();
        m_status->clear();
        m_status->setProgress(0, estimated);
        if (m_pendingSteps > 0) m_search->stepTo(std::exchange(m_pendingSteps, 0));
        updateActions();
    });
    connect(m_search, &SearchController::stepped, m_hub, &SelectionHub::setStep);
    connect(m_search, &SearchController::stepped, this, &MainWindow::updateActions);
    connect(m_search, &SearchController::bestCostRecorded, m_cost->historyChart(),
            &BestCostChart::addPoint);
    connect(m_search, &SearchController::progress, m_status, &StatusPanel::setProgress);
    connect(m_search, &SearchController::countersChanged, m_status, &StatusPanel::setCounters);
    connect(m_search, &SearchController::busyChanged, m_status, &StatusPanel::setBusy);
    connect(m_search, &SearchController::busyChanged, this, &MainWindow::updateActions);
    connect(m_search, &SearchController::finished, this, [this] {
        m_status->setProgress(m_search->stepsDone(), m_search->stepsDone());
        if (const SearchStepPtr step = m_search->lastStep(); step && step->best) {
            statusBar()->showMessage(
                tr("Search finished: result %1 predicted (ranked by the %2 model)")
                    .arg(format::ms(step->best->cost.total))
                    .arg(QString::fromStdString(m_search->options().costModel)));
        }
    });
    connect(m_search, &SearchController::error, this, &MainWindow::showError);
    connect(m_sessions, &SessionController::error, this, &MainWindow::showError);
    connect(m_bench, &BenchCoordinator::message, statusBar(),
            [this](const QString &m) { statusBar()->showMessage(m, 8000); });
    connect(m_bench, &BenchCoordinator::warning, m_errorBar, &ErrorBar::showMessage);
    connect(m_tune, &TuneCoordinator::message, statusBar(),
            [this](const QString &m) { statusBar()->showMessage(m, 8000); });
    connect(m_tune, &TuneCoordinator::modelWritten, m_toolbar, &SearchToolBar::addCostModelFile);
    connect(m_toolbar, &SearchToolBar::gpuChosen, this, [this](const QString &name) {
        GpuChoice::remember(name);
        m_status->setGpuNote(GpuChoice::chosenNote(name), QString());
    });
}

void MainWindow::setInitialOptions(const SearchOptions &options, const QString &gpuName) {
    m_options = options;
    m_toolbar->setOptions(options, gpuName);
}

void MainWindow::announceGpu(const StartupGpu &gpu) {
    m_status->setGpuNote(gpu.note, gpu.details);
    statusBar()->showMessage(gpu.details.isEmpty() ? gpu.note : gpu.note + ". " + gpu.details,
                             8000);
}

QString MainWindow::gpuNote() const {
    return m_status->gpuNote();
}

void MainWindow::loadPipeline(const PipelineSource &source, int steps,
                              const std::vector<Pin> &pins) {
    try {
        m_options = m_toolbar->options(m_options);
    } catch (const std::exception &e) {
        showError(QString::fromStdString(e.what()));
        return;
    }
    m_options.pins = pins;
    m_hub->setPins(pins);
    m_pipeline->setSource(source);
    m_pendingSteps = steps;
    m_sessions->setGpuName(m_toolbar->gpuName());
    statusBar()->showMessage(tr("Loading %1…").arg(QString::fromStdString(source.name)));
    m_search->load(source, m_options);
    updateActions();
}

void MainWindow::applyOptions() {
    if (!m_search->dag()) return;
    try {
        m_options = m_toolbar->options(m_options);
    } catch (const std::exception &e) {
        showError(QString::fromStdString(e.what()));
        return;
    }
    m_sessions->setGpuName(m_toolbar->gpuName());
    m_search->reconfigure(m_options);
    statusBar()->showMessage(tr("Options changed: the search starts again"), 5000);
}

void MainWindow::applyPins(const std::vector<Pin> &pins) {
    const DagPtr dag = m_search->dag();
    if (!dag) return;
    try {
        resolvePins(pins, *dag, m_options.gpu); // a cheap feasibility check, before any search
    } catch (const std::exception &e) {
        showError(QString::fromStdString(e.what()));
        return;
    }
    m_options.pins = pins;
    m_hub->setPins(pins);
    m_search->reconfigure(m_options);
    statusBar()->showMessage(
        tr("Pins changed (%1 pinned): the search starts again").arg(pins.size()), 5000);
}

void MainWindow::openSession(const QString &path) {
    std::optional<Session> session = SessionController::readSession(path, nullptr);
    if (session) {
        m_options = session->options;
        m_toolbar->setOptions(session->options, QString::fromStdString(session->gpuName));
        m_status->setGpuNote(tr("GPU model %1 (from the session)").arg(m_toolbar->gpuName()),
                             QString());
        m_pipeline->setSource(session->source);
        m_hub->setPins(session->options.pins);
    }
    if (m_sessions->open(path)) {
        m_recent->add(path);
        statusBar()->showMessage(
            tr("Opened %1: replaying %2 steps").arg(path).arg(session ? session->steps : 0), 5000);
    }
    updateActions();
}

void MainWindow::saveSession(bool askPath) {
    QString path = m_sessions->currentPath();
    if (askPath || path.isEmpty()) {
        path = QFileDialog::getSaveFileName(this, tr("Save session"), path,
                                            tr("Beamscope sessions (*.json)"));
        if (path.isEmpty()) return;
    }
    if (m_sessions->save(path)) {
        m_recent->add(path);
        statusBar()->showMessage(tr("Saved %1 at step %2").arg(path).arg(m_search->stepsDone()),
                                 5000);
    }
}

void MainWindow::updateActions() {
    m_toolbar->setState(m_search->dag() != nullptr, m_search->isBusy(), m_search->searchFinished());
}

void MainWindow::showError(const QString &message) {
    m_errorBar->showMessage(tr("Error: %1").arg(message));
    Q_EMIT errorShown(message);
}

QStringList MainWindow::dockTitles() const {
    QStringList titles;
    for (const QDockWidget *dock : findChildren<QDockWidget *>())
        titles << dock->windowTitle().remove(QLatin1Char('&'));
    titles.sort(Qt::CaseInsensitive);
    return titles;
}

void MainWindow::keepLayoutAcrossRuns() {
    m_layout->restoreAndKeep();
}

bool MainWindow::raiseDock(const QString &name) {
    for (QDockWidget *dock : findChildren<QDockWidget *>()) {
        QString title = dock->windowTitle();
        title.remove(QLatin1Char('&'));
        if (dock->objectName().compare(name, Qt::CaseInsensitive) != 0 &&
            title.compare(name, Qt::CaseInsensitive) != 0)
            continue;
        dock->show();
        dock->raise();
        return true;
    }
    return false;
}

bool MainWindow::isSettled() const {
    return !m_search->isBusy() && m_pendingSteps == 0 && m_search->dag() &&
           m_dag->view()->currentLayout() && !m_dag->view()->isLayoutPending();
}

} // namespace beamscope
