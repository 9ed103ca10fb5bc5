// MainWindow: docks, menus and the wiring between the search controller, the hub and the views.
//   createDocks()   the views in docks around the DAG
//   createMenus()   File (sessions, generator libraries, recent files), View
//   connectSearch() controller signals -> hub, status bar, toolbar
//   applyOptions() / applyPins()  a fresh search when the user changes options or pins
#include "MainWindow.h"

#include "PipelinePanel.h"
#include "RecentFiles.h"
#include "SearchToolBar.h"
#include "StatusPanel.h"

#include "controllers/SearchController.h"
#include "controllers/SessionController.h"
#include "views/beam/BeamView.h"
#include "views/buckets/BucketsView.h"
#include "views/common/SelectionHub.h"
#include "views/cost/BestCostChart.h"
#include "views/cost/CostView.h"
#include "views/dag/DagPanel.h"
#include "views/dag/DagView.h"
#include "views/loopnest/LoopNestView.h"

#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QMenuBar>
#include <QStatusBar>

namespace beamscope {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent), m_hub(new SelectionHub(this)), m_search(new SearchController(this)),
      m_sessions(new SessionController(m_search, this)), m_toolbar(new SearchToolBar(this)),
      m_pipeline(new PipelinePanel(this)), m_dag(new DagPanel(m_hub, this)),
      m_cost(new CostView(m_hub, this)), m_status(new StatusPanel(statusBar())) {
    setWindowTitle(tr("Beamscope"));
    setObjectName(QStringLiteral("mainWindow"));
    setCentralWidget(m_dag);
    addToolBar(Qt::TopToolBarArea, m_toolbar);
    createDocks();
    createMenus();
    connectSearch();
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
    QDockWidget *pipeline =
        dock(tr("Pipeline"), QStringLiteral("pipelineDock"), m_pipeline, Qt::LeftDockWidgetArea);
    QDockWidget *loops = dock(tr("Loop nest"), QStringLiteral("loopNestDock"),
                              new LoopNestView(m_hub, this), Qt::RightDockWidgetArea);
    QDockWidget *cost =
        dock(tr("Cost"), QStringLiteral("costDock"), m_cost, Qt::RightDockWidgetArea);
    QDockWidget *beam = dock(tr("Beam"), QStringLiteral("beamDock"), new BeamView(m_hub, this),
                             Qt::BottomDockWidgetArea);
    QDockWidget *buckets = dock(tr("Candidates"), QStringLiteral("bucketsDock"),
                                new BucketsView(m_hub, this), Qt::BottomDockWidgetArea);
    splitDockWidget(loops, cost, Qt::Vertical);
    splitDockWidget(beam, buckets, Qt::Horizontal);
    resizeDocks({pipeline}, {215}, Qt::Horizontal);
    resizeDocks({loops}, {500}, Qt::Horizontal);
    resizeDocks({loops, cost}, {330, 470}, Qt::Vertical);
    resizeDocks({beam}, {290}, Qt::Vertical);
    resizeDocks({beam, buckets}, {600, 1080}, Qt::Horizontal);
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
    file->addAction(tr("&Save session"), QKeySequence::Save, this, [this] { saveSession(false); });
    file->addAction(tr("Save session &as…"), QKeySequence::SaveAs, this,
                    [this] { saveSession(true); });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("Fit graph"), QKeySequence(Qt::CTRL | Qt::Key_0), m_dag->view(),
                    &DagView::fitAll);
    view->addSeparator();
    for (QDockWidget *dock : findChildren<QDockWidget *>())
        view->addAction(dock->toggleViewAction());
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
        if (const SearchStepPtr step = m_search->lastStep(); step && !step->beam.empty()) {
            statusBar()->showMessage(tr("Search finished: best predicted cost %1 ms")
                                         .arg(step->beam.front().cost.total, 0, 'g', 4));
        }
    });
    connect(m_search, &SearchController::error, this, &MainWindow::showError);
    connect(m_sessions, &SessionController::error, this, &MainWindow::showError);
}

void MainWindow::setInitialOptions(const SearchOptions &options, const QString &gpuName) {
    m_options = options;
    m_toolbar->setOptions(options, gpuName);
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
    statusBar()->showMessage(tr("Error: %1").arg(message), 15000);
    Q_EMIT errorShown(message);
}

bool MainWindow::isSettled() const {
    return !m_search->isBusy() && m_pendingSteps == 0 && m_search->dag() &&
           m_dag->view()->currentLayout() && !m_dag->view()->isLayoutPending();
}

} // namespace beamscope
