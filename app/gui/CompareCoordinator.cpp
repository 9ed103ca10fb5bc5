// CompareCoordinator: CompareSide from a beam row, a history step, a benchmarked candidate, an
// imported schedule.
#include "CompareCoordinator.h"

#include "bench/BaselineImport.h"
#include "bench/BenchRun.h"
#include "bench/CandidateLabel.h"
#include "bench/ForeignScheduleJson.h"
#include "controllers/BenchmarkController.h"
#include "controllers/SearchController.h"
#include "cost/CostOf.h"
#include "measure/WorkerRunner.h"
#include "schedule/ScheduleIO.h"
#include "views/beam/BeamView.h"
#include "views/benchmark/BenchResultsModel.h"
#include "views/common/SelectionHub.h"
#include "views/compare/CompareModel.h"
#include "views/compare/CompareView.h"
#include "views/history/TimelinePanel.h"

#include <QFileDialog>
#include <QMenu>
#include <QStringList>
#include <QTableView>

namespace beamscope {

namespace {

/// Where a benchmark ran, short enough for a caption: "NVIDIA H100", "OpenCL CPU" (PoCL's
/// times say nothing about a GPU's).
QString deviceInWords(const DeviceInfo &device) {
    if (device.kind == DeviceKind::OpenCL)
        return QStringLiteral("OpenCL ") + QString::fromStdString(device.openclType);
    return QString::fromStdString(device.name);
}

} // namespace

CompareCoordinator::CompareCoordinator(CompareView *view, SelectionHub *hub,
                                       SearchController *search, std::function<void()> raise,
                                       QObject *parent)
    : QObject(parent), m_view(view), m_hub(hub), m_search(search), m_raise(std::move(raise)),
      m_costing(this, QStringLiteral("beamscope-compare-cost")),
      m_imports(this, QStringLiteral("beamscope-compare-import")) {
    connect(view, &CompareView::importRequested, this, &CompareCoordinator::importSide);
}

std::optional<CompareSide> CompareCoordinator::fromBeam(int rank) const {
    const SearchStepPtr &step = m_hub->step();
    if (step && rank == -1 && step->best) { // the search's result, which may not be in the beam
        CompareSide side;
        side.state = step->best->state;
        side.cost = step->best->cost;
        side.termNames = step->termNames;
        side.label = tr("the search's result at step %1").arg(step->index + 1);
        fillMeasuredBySchedule(side);
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
    fillMeasuredBySchedule(side);
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
    fillMeasuredBySchedule(side);
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
        // Lowered as it was measured (a report of an older build unrolled fewer points).
        side.state = scheduleFromJson(dag, report->schedules[row], m.maxUnrolledPoints);
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

bool CompareCoordinator::isPluginName(const QString &with) {
    for (const char *plugin :
         {"anderson2021", "anderson2021-paper", "li2018", "mullapudi2016", "naive"}) {
        if (with == QLatin1String(plugin)) return true;
    }
    return false;
}

QString CompareCoordinator::importedName(const QString &with) {
    if (with == QLatin1String("anderson2021")) return tr("Anderson2021's schedule");
    if (with == QLatin1String("anderson2021-paper"))
        return tr("Anderson2021's schedule (the paper's configuration)");
    if (with == QLatin1String("li2018")) return tr("Li2018's schedule");
    if (with == QLatin1String("mullapudi2016")) return tr("Mullapudi2016's schedule");
    if (with == QLatin1String("naive")) return tr("the naive GPU schedule");
    return tr("the schedule in %1").arg(with);
}

std::pair<QString, QString> CompareCoordinator::importSummary(const ForeignSchedule &imported) {
    const QString name = importedName(QString::fromStdString(imported.what));
    const double ms = imported.autoschedulerMs;
    const QString time =
        ms < 1000 ? tr("%1 ms").arg(ms, 0, 'f', 0) : tr("%1 s").arg(ms / 1000.0, 0, 'f', 1);
    const QString took =
        ms <= 0 ? QString()
        : imported.fromCache
            ? tr(" (from the baseline cache; the plugin took %1 when it ran)").arg(time)
            : tr(" (the plugin took %1)").arg(time);
    QStringList lines, details;
    int notRepresentable = 0, different = 0;
    for (const ImportedFunc &f : imported.imported.funcs) {
        const QString func = QString::fromStdString(f.name);
        if (!f.representable) {
            ++notRepresentable;
            // A construct names its Func or stage first ("blury: loop x: ...",
            // "histogram.update(0): ..."): the Func is bolded there rather than repeated.
            QStringList plain, rich;
            for (const std::string &c : f.constructs) {
                const QString construct = QString::fromStdString(c);
                plain << construct;
                rich << (construct.startsWith(func)
                             ? QStringLiteral("<b>%1</b>%2")
                                   .arg(func.toHtmlEscaped(),
                                        construct.mid(func.size()).toHtmlEscaped())
                             : QStringLiteral("<b>%1</b>: %2")
                                   .arg(func.toHtmlEscaped(), construct.toHtmlEscaped()));
            }
            if (plain.isEmpty()) {
                plain << func + tr(": (no construct named)");
                rich << plain.back().toHtmlEscaped();
            }
            details << plain.join(QStringLiteral("; "));
            // Two Funcs at most: the dock is short at the bottom of the window.
            if (lines.size() < 2) lines << QStringLiteral("• ") + rich.join(QStringLiteral("; "));
        } else if (!f.differences.empty()) {
            ++different;
            QStringList diffs;
            for (const std::string &d : f.differences)
                diffs << QString::fromStdString(d);
            details << tr("%1 (lowered differently by Beamscope): %2")
                           .arg(func, diffs.join(QStringLiteral("; ")));
        }
    }
    const int funcs = int(imported.imported.funcs.size());
    if (notRepresentable > 0) {
        QString text = tr("<b>%1</b>%2: %3 of %4 Funcs not representable in Beamscope's space, "
                          "so B cannot show it:")
                           .arg(name.toHtmlEscaped(), took)
                           .arg(notRepresentable)
                           .arg(funcs);
        text += QStringLiteral("<br>") + lines.join(QStringLiteral("<br>"));
        if (notRepresentable > lines.size())
            text += tr("<br>… and %n more Func(s): hover for the whole list", nullptr,
                       notRepresentable - int(lines.size()));
        return {text, details.join(QLatin1Char('\n'))};
    }
    const QString text =
        tr("<b>%1</b>%2: all %3 Funcs representable in Beamscope's space; %n lowered differently "
           "by Beamscope's applier (loop order, tails, staging: tooltip)",
           nullptr, different)
            .arg(name.toHtmlEscaped(), took)
            .arg(funcs);
    return {text, details.join(QLatin1Char('\n'))};
}

bool CompareCoordinator::benchmarkedSameDag(const FunctionDAG &dag) const {
    const BenchReportPtr report = m_bench ? m_bench->lastReport() : nullptr;
    if (!report) return false;
    // The run's own DAG when it had one: the same pipeline at another size has other
    // measurements (and maybe the same tilings).
    if (const auto ran = m_bench->lastReportDag()) return ran.get() == &dag;
    return report->pipeline == dag.pipelineName();
}

void CompareCoordinator::fillMeasured(CompareSide &side, const std::string &baseline) const {
    const BenchReportPtr report = m_bench ? m_bench->lastReport() : nullptr;
    const DagPtr dag = m_search->dag();
    if (!report || !dag || !benchmarkedSameDag(*dag)) return;
    for (const Measurement &m : report->baselines) {
        if (m.label == "baseline:" + baseline && m.measuredMs && !m.failed()) {
            side.measuredMs = m.measuredMs->median;
            side.measuredAs = tr("%1, Benchmark dock: the plugin's own application")
                                  .arg(deviceInWords(report->device));
        }
    }
}

void CompareCoordinator::fillMeasuredBySchedule(CompareSide &side) const {
    const BenchReportPtr report = m_bench ? m_bench->lastReport() : nullptr;
    if (!report || !side.state || !benchmarkedSameDag(side.state->dag())) return;
    const nlohmann::json schedule = scheduleToJson(*side.state);
    for (size_t row = 0; row < report->candidates.size() && row < report->schedules.size(); ++row) {
        const Measurement &m = report->candidates[row];
        if (report->schedules[row] != schedule || !m.measuredMs || m.failed()) continue;
        side.measuredMs = m.measuredMs->median;
        side.measuredAs = tr("%1, Benchmark dock: %2")
                              .arg(deviceInWords(report->device),
                                   QString::fromStdString(candidateLabelInWords(m.label)));
        return;
    }
}

void CompareCoordinator::refreshMeasured() {
    for (int which : {0, 1}) {
        const CompareSide &shown = m_view->model()->side(which);
        if (!shown.isSet()) continue;
        CompareSide side = shown;
        // A plugin's schedule imported as B: its measured time is the plugin's own
        // application (a baseline row); anything else, the candidate that ran its schedule.
        const bool importedPlugin = which == 1 && !m_importedBaseline.isEmpty() &&
                                    side.state == m_importedState &&
                                    isPluginName(m_importedBaseline);
        if (importedPlugin)
            fillMeasured(side, m_importedBaseline.toStdString());
        else
            fillMeasuredBySchedule(side);
        if (side.measuredMs != shown.measuredMs || side.measuredAs != shown.measuredAs)
            m_view->setSide(which, side);
    }
}

void CompareCoordinator::importSide(const QString &with) {
    const DagPtr dag = m_search->dag();
    if (!dag) {
        m_view->setImportStatus(tr("Load a pipeline first."));
        if (m_raise) m_raise();
        return;
    }
    QString what = with;
    if (with == QLatin1String("file")) {
        what = QFileDialog::getOpenFileName(m_view, tr("Import a schedule"), QString(),
                                            tr("JSON schedules (*.json);;All files (*)"));
        if (what.isEmpty()) return;
    }
    const PipelineSource source = m_search->source();
    const SearchOptions options = m_search->options();
    m_view->setImportStatus(
        tr("Importing %1 for %2 on a worker… (Anderson2021 runs its own search: minutes on "
           "large pipelines)")
            .arg(importedName(what).toHtmlEscaped(),
                 QString::fromStdString(dag->pipelineName()).toHtmlEscaped()));
    if (m_raise) m_raise();
    struct Result {
        ForeignSchedule imported;
        std::optional<CompareSide> side;
        QString error;
    };
    m_imports.restart(); // a newer import replaces an older one's result
    m_imports.post([this, dag, source, options, what](const JobTracker::Job &job) {
        auto result = std::make_shared<Result>();
        try {
            // In a child process (the worker's --import): the plugin may search for minutes, and
            // a newer import or the window closing kills it (JobTracker's cancel flag).
            ChildImportOptions child;
            child.workerPath = defaultWorkerPath();
            child.cancel = &job.cancelFlag();
            result->imported =
                importForeignInChild(what.toStdString(), source, options.gpu, dag, child);
            if (const StatePtr &theirs = result->imported.imported.state) {
                // The plugin ran on a fresh instance of the pipeline: replayed on the search's
                // DAG by Func name, then costed with the search's model (its terms are A's).
                CompareSide side;
                side.state = theirs;
                const ModelCost cost = costOf(*side.state, options.costModel, options.gpu);
                side.cost = cost.cost;
                side.termNames = cost.termNames;
                side.label = importedName(what) + tr(", imported");
                result->side = std::move(side);
            }
        } catch (const std::exception &e) {
            result->error = QString::fromUtf8(e.what()).section(QLatin1Char('\n'), 0, 0);
        } catch (const Halide::Error &e) { // not a std::exception
            result->error = QString::fromUtf8(e.what()).section(QLatin1Char('\n'), 0, 0);
        }
        job.finish([this, dag, what, result] {
            if (m_search->dag() != dag) {
                m_view->setImportStatus(
                    tr("The pipeline changed while %1 was imported: import it again.")
                        .arg(importedName(what).toHtmlEscaped()));
                return;
            }
            if (!result->error.isEmpty()) {
                m_view->setImportStatus(
                    tr("Could not import %1: %2")
                        .arg(importedName(what).toHtmlEscaped(), result->error.toHtmlEscaped()));
                return;
            }
            const auto [text, details] = importSummary(result->imported);
            m_view->setImportStatus(text, details);
            if (!result->side) return;
            CompareSide side = *result->side;
            if (isPluginName(what))
                fillMeasured(side, what.toStdString());
            else // a schedule file: Beamscope's applier runs it, as it runs any candidate
                fillMeasuredBySchedule(side);
            // Beside the search's best when A is empty.
            if (!m_view->model()->side(0).isSet()) {
                const SearchStepPtr &step = m_hub->step();
                std::optional<CompareSide> best = fromBeam(-1); // the result, once finished
                if (!best && step) best = fromBeam(cheapestRow(step->beam));
                if (best) m_view->setSide(0, *best);
            }
            m_importedBaseline = what;
            m_importedState = side.state;
            compare(side, 1);
            // The first Func decided differently is selected, so Why not? and the pins apply.
            const std::vector<int> &differing = m_view->model()->differing();
            if (!differing.empty()) m_hub->selectFunc(differing.front());
        });
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
    m_bench = bench;
    // A benchmark that measured a side's schedule (or the baseline imported as B) gives it its
    // measured time.
    connect(bench, &BenchmarkController::finished, this, &CompareCoordinator::refreshMeasured);
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
