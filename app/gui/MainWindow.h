// MainWindow: Beamscope's window — the DAG in the middle; the pipeline picker on the left; the
// loop nest and the cost charts on the right; the beam and the step's candidates at the bottom;
// the search toolbar on top and counters with a progress bar in the status bar. It wires the
// SearchController's snapshots into the SelectionHub that every view listens to. The Timeline
// dock (under the pipeline picker) revisits any step; the Compare dock (with the candidates)
// shows two states side by side.
#pragma once

#include "GpuChoice.h"
#include "pipeline/PipelineSource.h"
#include "search/SearchEngine.h"
#include "views/common/SelectionHub.h" // std::vector<Pin> as a slot argument

#include <QElapsedTimer>
#include <QMainWindow>

namespace beamscope {

class DagPanel;
class ErrorBar;
class PipelinePanel;
class RecentFiles;
class SearchController;
class SearchToolBar;
class SelectionHub;
class SessionController;
class StatusPanel;
class CostView;
class ExportView;
class WindowLayout;
class BenchCoordinator;
class BenchPanel;
class TuneCoordinator;
class TunePanel;
class BeamView;
class TimelinePanel;
class HistoryCoordinator;
class CompareView;
class CompareCoordinator;
class ExplainCoordinator;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    SearchController *searchController() const { return m_search; }
    SelectionHub *hub() const { return m_hub; }
    DagPanel *dagPanel() const { return m_dag; }
    ExportView *exportView() const { return m_export; }
    BenchPanel *benchPanel() const { return m_benchPanel; }
    BenchCoordinator *benchCoordinator() const { return m_bench; }
    TunePanel *tunePanel() const { return m_tunePanel; }
    TuneCoordinator *tuneCoordinator() const { return m_tune; }
    SearchToolBar *searchToolBar() const { return m_toolbar; }
    WindowLayout *windowLayout() const { return m_layout; }
    TimelinePanel *timelinePanel() const { return m_timeline; }
    BeamView *beamView() const { return m_beam; }
    CompareView *compareView() const { return m_compare; }
    CompareCoordinator *compareCoordinator() const { return m_compareSources; }
    ExplainCoordinator *explainCoordinator() const { return m_explain; }
    CostView *costView() const { return m_cost; }
    /// The line above the DAG that keeps the last error until dismissed.
    ErrorBar *errorBar() const { return m_errorBar; }
    /// The docks' titles, for --dock's error and View's menu ("Beam", "Benchmark", ...).
    QStringList dockTitles() const;
    /// Restores the dock layout of the last run and saves it on close (the application calls
    /// this; tests and --screenshot runs leave the user's settings alone).
    void keepLayoutAcrossRuns();
    /// Shows and raises the dock whose object name or title is `name` (case-insensitive);
    /// false if there is none.
    bool raiseDock(const QString &name);
    /// True when nothing is pending: no search request, no layout, a DAG on screen.
    bool isSettled() const;
    /// Applies toolbar options given on the command line.
    void setInitialOptions(const SearchOptions &options, const QString &gpuName);
    /// Says in the status bar which GPU model the search starts on and why (GpuChoice); a GPU
    /// the user then picks in the toolbar is remembered for the next start.
    void announceGpu(const StartupGpu &gpu);
    /// The status bar's GPU model line.
    QString gpuNote() const;

public Q_SLOTS:
    /// Loads a pipeline with the toolbar's options and `pins`; `steps` > 0 steps that far once
    /// loaded.
    void loadPipeline(const beamscope::PipelineSource &source, int steps = 0,
                      const std::vector<beamscope::Pin> &pins = {});
    /// Opens a session file (pipeline, options, pins; replays its steps).
    void openSession(const QString &path);

Q_SIGNALS:
    /// A request failed (one line); also shown in the status bar.
    void errorShown(const QString &message);

protected:
    void showEvent(QShowEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void createDocks();
    /// The default dock sizes, in proportion to the window.
    void applyDefaultDockSizes();
    void createMenus();
    void connectSearch();
    void applyOptions();
    void applyPins(const std::vector<Pin> &pins);
    void saveSession(bool askPath);
    void updateActions();
    void showError(const QString &message);

    SelectionHub *m_hub;
    SearchController *m_search;
    SessionController *m_sessions;
    SearchToolBar *m_toolbar;
    PipelinePanel *m_pipeline;
    DagPanel *m_dag;
    CostView *m_cost;
    ExportView *m_export;
    BenchPanel *m_benchPanel;
    BenchCoordinator *m_bench;
    TunePanel *m_tunePanel;
    TuneCoordinator *m_tune;
    BeamView *m_beam;
    TimelinePanel *m_timeline;
    CompareView *m_compare;
    HistoryCoordinator *m_history = nullptr;
    CompareCoordinator *m_compareSources = nullptr;
    ExplainCoordinator *m_explain = nullptr; ///< "Why not…?" and File > Open trace…
    StatusPanel *m_status;
    ErrorBar *m_errorBar;
    WindowLayout *m_layout = nullptr;
    bool m_shownOnce = false;
    QElapsedTimer m_sinceShown; ///< the default layout follows the size given just after show
    RecentFiles *m_recent = nullptr;
    SearchOptions m_options; ///< options of the search on screen (pins included)
    int m_pendingSteps = 0;  ///< steps to take once the pipeline being loaded is ready
};

} // namespace beamscope
