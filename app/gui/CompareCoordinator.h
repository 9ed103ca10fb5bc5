// CompareCoordinator: where the Compare dock's two sides come from — a beam row of the step on
// screen (the Beam view's menu), the best state of any history step (the Timeline's menu), or a
// candidate the Benchmark dock measured (its table's menu: the schedule it ran, costed with the
// search's model on a worker thread, with its measured median), or a schedule imported from a
// Halide autoscheduler or a file (the dock's Import B… menu: the plugin runs and its schedule is
// read back on a worker, costed with the search's model, measured when the Benchmark dock ran
// that baseline; the constructs Beamscope cannot represent are named in the dock instead). It
// builds the CompareSide and raises the dock.
#pragma once

#include "controllers/JobTracker.h"
#include "views/compare/CompareSide.h"

#include <QObject>

#include <functional>
#include <optional>
#include <string>
#include <utility>

class QTableView;

namespace beamscope {

class BenchmarkController;
struct ForeignSchedule;
class BeamView;
class CompareView;
class SearchController;
class SelectionHub;
class TimelinePanel;

class CompareCoordinator : public QObject {
    Q_OBJECT
public:
    /// `raise` shows the Compare dock.
    CompareCoordinator(CompareView *view, SelectionHub *hub, SearchController *search,
                       std::function<void()> raise, QObject *parent = nullptr);

    /// Beam entry `rank` of the step on screen, -1 for the search's result (nullopt when there
    /// is none).
    std::optional<CompareSide> fromBeam(int rank) const;
    /// The best state of history step `k`.
    std::optional<CompareSide> fromHistory(int k) const;
    /// The candidate labelled `label` ("beam#0") in `bench`'s last report, with its schedule
    /// and measured median but not yet costed; nullopt for a baseline, a label the report does
    /// not have or a report of another pipeline.
    std::optional<CompareSide> fromBenchmark(const BenchmarkController &bench,
                                             const std::string &label) const;
    /// Costs `side` (from fromBenchmark) with the search's model and GPU on the worker thread,
    /// so both sides' terms are comparable, then puts it on side `which`. A newer request drops
    /// an older one's result.
    void compareCosted(CompareSide side, int which);
    /// True while a compareCosted() job has not delivered.
    bool isCosting() const { return m_costing.isBusy(); }

    void watchBeam(BeamView *beam);
    void watchTimeline(TimelinePanel *timeline);
    /// Adds "Compare as A/B" to the Benchmark dock's results table.
    void watchBenchTable(QTableView *table, BenchmarkController *bench);

    /// The dock's lines on how an import went (rich text, shortened) and the whole of it (plain,
    /// for the tooltip): the Funcs not representable with each construct, or the Funcs
    /// Beamscope's applier lowers differently.
    static std::pair<QString, QString> importSummary(const ForeignSchedule &imported);
    /// True for the names of the plugins (and the naive schedule) Import B… runs; false for a
    /// schedule file's path.
    static bool isPluginName(const QString &with);
    /// "Anderson2021's schedule", "Li2018's schedule", "the schedule in FILE".
    static QString importedName(const QString &with);
    /// True while an import runs.
    bool isImporting() const { return m_imports.isBusy(); }

public Q_SLOTS:
    /// Puts `side` on side `which` (0: A, 1: B) and raises the dock.
    void compare(const beamscope::CompareSide &side, int which);
    /// Imports side B from `with` (a baseline name, a schedule file's path, or "file": asks for
    /// one) for the pipeline and GPU on screen, on a worker; shows it beside the search's best
    /// (side A, when A is empty), or names what cannot be represented. A newer import drops an
    /// older one's result.
    void importSide(const QString &with);

private:
    CompareView *m_view;
    SelectionHub *m_hub;
    SearchController *m_search;
    std::function<void()> m_raise;
    JobTracker m_costing; ///< costs benchmarked candidates off the GUI thread
    JobTracker m_imports; ///< runs autoscheduler plugins and reads their schedules back
    BenchmarkController *m_bench = nullptr;
    /// The baseline side B was imported from (empty when B is not an import), and its state:
    /// a later benchmark of that baseline fills in its measured time.
    QString m_importedBaseline;
    StatePtr m_importedState;
    /// `side`'s measured median from the Benchmark dock's last report of this pipeline: the
    /// plugin's own application of `baseline`'s schedule.
    void fillMeasured(CompareSide &side, const std::string &baseline) const;
    /// `side`'s measured median from the Benchmark dock's last report of this pipeline, when
    /// one of its candidates ran that very schedule (same schedule JSON, whatever its label).
    void fillMeasuredBySchedule(CompareSide &side) const;
    /// True when the Benchmark dock's last run measured schedules of `dag`.
    bool benchmarkedSameDag(const FunctionDAG &dag) const;
    /// After a benchmark: the measured times of the sides it measured.
    void refreshMeasured();
};

} // namespace beamscope
