// CompareCoordinator: CompareSide from a beam row, a history step, a benchmarked candidate.
#include "CompareCoordinator.h"

#include "bench/BenchRun.h"
#include "bench/CandidateLabel.h"
#include "controllers/BenchmarkController.h"
#include "controllers/SearchController.h"
#include "cost/CostOf.h"
#include "schedule/ScheduleIO.h"
#include "views/beam/BeamView.h"
#include "views/benchmark/BenchResultsModel.h"
#include "views/common/SelectionHub.h"
#include "views/compare/CompareView.h"
#include "views/history/TimelinePanel.h"

#include <QMenu>
#include <QTableView>

namespace beamscope {

CompareCoordinator::CompareCoordinator(CompareView *view, SelectionHub *hub,
                                       SearchController *search, std::function<void()> raise,
                                       QObject *parent)
    : QObject(parent), m_view(view), m_hub(hub), m_search(search), m_raise(std::move(raise)),
      m_costing(this, QStringLiteral("beamscope-compare-cost")) {}

std::optional<CompareSide> CompareCoordinator::fromBeam(int rank) const {
    const SearchStepPtr &step = m_hub->step();
    if (step && rank == -1 && step->best) { // the search's result, which may not be in the beam
        CompareSide side;
        side.state = step->best->state;
        side.cost = step->best->cost;
        side.termNames = step->termNames;
        side.label = tr("the search's result at step %1").arg(step->index + 1);
        return side;
    }
    if (!step || rank < 0 || rank >= int(step->beam.size())) return std::nullopt;
    const BeamEntry &e = step->beam[size_t(rank)];
    CompareSide side;
    side.state = e.state;
    side.cost = e.cost;
    side.termNames = step->termNames;
    side.label = rank == cheapestRow(step->beam)
                     ? tr("best of the beam at step %1").arg(step->index + 1)
                     : tr("beam #%1 at step %2").arg(rank + 1).arg(step->index + 1);
    return side;
}

std::optional<CompareSide> CompareCoordinator::fromHistory(int k) const {
    if (k < 0 || k >= m_search->history().size()) return std::nullopt;
    const SearchStepPtr &step = m_search->history().at(k).step;
    const BeamEntry *best = cheapestEntry(step->beam); // the Timeline's "Best"
    if (!best) return std::nullopt;
    CompareSide side;
    side.state = best->state;
    side.cost = best->cost;
    side.termNames = step->termNames;
    side.label = tr("best at step %1 (pass %2, %3)")
                     .arg(k + 1)
                     .arg(step->pass)
                     .arg(QString::fromStdString(step->func));
    return side;
}

std::optional<CompareSide> CompareCoordinator::fromBenchmark(const BenchmarkController &bench,
                                                             const std::string &label) const {
    const BenchReportPtr report = bench.lastReport();
    const DagPtr dag = m_search->dag();
    if (!report || !dag) return std::nullopt;
    size_t row = 0;
    while (row < report->candidates.size() && report->candidates[row].label != label)
        ++row;
    if (row >= report->candidates.size() || row >= report->schedules.size()) return std::nullopt;
    const Measurement &m = report->candidates[row];
    CompareSide side;
    try {
        side.state = scheduleFromJson(dag, report->schedules[row]);
    } catch (const std::exception &) {
        return std::nullopt; // a report of another pipeline: nothing to compare
    }
    if (m.measuredMs && !m.failed()) side.measuredMs = m.measuredMs->median;
    side.label = tr("benchmarked %1").arg(QString::fromStdString(candidateLabelInWords(m.label)));
    return side;
}

void CompareCoordinator::compareCosted(CompareSide side, int which) {
    const SearchOptions options = m_search->options();
    m_costing.restart();
    m_costing.post([this, side = std::move(side), which, options](const JobTracker::Job &job) {
        CompareSide costed = side;
        try {
            const ModelCost cost = costOf(*costed.state, options.costModel, options.gpu);
            costed.cost = cost.cost;
            costed.termNames = cost.termNames;
        } catch (const std::exception &e) {
            // The search's model file went away since the search: the side is not comparable.
            qWarning("Compare: %s", e.what());
            job.finish([] {});
            return;
        }
        job.finish([this, costed = std::move(costed), which] { compare(costed, which); });
    });
}

void CompareCoordinator::compare(const CompareSide &side, int which) {
    m_view->setSide(which, side);
    if (m_raise) m_raise();
}

void CompareCoordinator::watchBeam(BeamView *beam) {
    connect(beam, &BeamView::compareRequested, this, [this](int rank, int which) {
        const std::optional<CompareSide> side = fromBeam(rank);
        if (!side) return;
        if (which < 0) { // with the best: A is the best, B this row
            const SearchStepPtr &step = m_hub->step();
            if (const std::optional<CompareSide> best =
                    fromBeam(step ? cheapestRow(step->beam) : -1))
                m_view->setSide(0, *best);
            which = 1;
        }
        compare(*side, which);
    });
}

void CompareCoordinator::watchTimeline(TimelinePanel *timeline) {
    connect(timeline, &TimelinePanel::compareRequested, this, [this](int k, int which) {
        if (const std::optional<CompareSide> side = fromHistory(k)) compare(*side, which);
    });
}

void CompareCoordinator::watchBenchTable(QTableView *table, BenchmarkController *bench) {
    table->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(table, &QTableView::customContextMenuRequested, this, [this, table, bench](QPoint pos) {
        const QModelIndex index = table->indexAt(pos);
        if (!index.isValid()) return;
        const auto *model = qobject_cast<const BenchResultsModel *>(table->model());
        if (!model || index.row() >= model->rowCount()) return;
        const std::optional<CompareSide> side =
            model->isBaseline(index.row())
                ? std::nullopt
                : fromBenchmark(*bench, model->measurement(index.row()).label);
        QMenu menu(table);
        QAction *a = menu.addAction(tr("Compare as A"));
        QAction *b = menu.addAction(tr("Compare as B"));
        a->setEnabled(side.has_value());
        b->setEnabled(side.has_value());
        QAction *chosen = menu.exec(table->viewport()->mapToGlobal(pos));
        if (side && (chosen == a || chosen == b)) compareCosted(*side, chosen == a ? 0 : 1);
    });
}

} // namespace beamscope
