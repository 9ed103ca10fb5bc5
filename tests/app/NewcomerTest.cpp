// The explorer as a newcomer meets it (issue 35), offscreen on the real window: it fits a
// 1280x720 screen; the Benchmark dock measures the search's result unless asked otherwise; Fit
// shows all of local_laplacian's 88 Funcs with no scroll bar, zooming out stops there and a Func
// is found by name; an error stays above the DAG until dismissed; the Timeline marks the search's
// result with the cost the status bar and the Beam dock give it; the status bar's message reads
// whole beside its counters.
#include "../views/RealSearch.h"
#include "BenchCandidates.h"
#include "BenchCoordinator.h"
#include "DatabaseSetting.h"
#include "ErrorBar.h"
#include "MainWindow.h"
#include "StatusPanel.h"

#include "bench/CandidateLabel.h"
#include "controllers/BenchmarkController.h"
#include "controllers/SearchController.h"
#include "schedule/ScheduleIO.h"
#include "views/beam/BeamModel.h"
#include "views/beam/BeamView.h"
#include "views/benchmark/BenchPanel.h"
#include "views/benchmark/BenchResultsModel.h"
#include "views/common/Format.h"
#include "views/common/SelectionHub.h"
#include "views/dag/DagNodeItem.h"
#include "views/dag/DagOverview.h"
#include "views/dag/DagPanel.h"
#include "views/dag/DagView.h"
#include "views/explain/WhyDialog.h"
#include "views/history/TimelinePanel.h"
#include "views/tune/TuneCharts.h"
#include "views/tune/TunePanel.h"
#include "views/tune/TuneRoundsModel.h"

#include <QChart>
#include <QChartView>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QLegend>
#include <QLineEdit>
#include <QProgressBar>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSizeGrip>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QTreeWidget>

#include <cmath>

using namespace beamscope;

namespace {

std::unique_ptr<MainWindow> shownWindow(QSize size) {
    auto window = std::make_unique<MainWindow>();
    window->resize(size);
    window->show();
    if (!QTest::qWaitForWindowExposed(window.get())) return nullptr;
    return window;
}

/// A 1280x720 window with `app` loaded and laid out; nullptr if it did not settle.
std::unique_ptr<MainWindow> windowWithLoaded(const char *app) {
    auto window = shownWindow(QSize(1280, 720));
    if (!window) return nullptr;
    PipelineSource source;
    source.name = app;
    window->loadPipeline(source);
    if (!QTest::qWaitFor([&] { return window->isSettled(); }, 120000)) return nullptr;
    return window;
}

QDockWidget *dock(const MainWindow &window, const char *name) {
    return window.findChild<QDockWidget *>(QString::fromLatin1(name));
}

/// Saves `widget` as NAME.png in $BEAMSCOPE_SHOT_DIR when set, to be looked at.
void shoot(QWidget *widget, const QString &name) {
    const QString dir = qEnvironmentVariable("BEAMSCOPE_SHOT_DIR");
    if (!dir.isEmpty())
        QVERIFY(widget->grab().save(dir + QLatin1Char('/') + name + QStringLiteral(".png")));
}

/// The width QStatusBar paints its message in: from its left to the first permanent widget
/// shown (6 px before, 2 px after, as Qt lays it out).
int messageRoom(const QStatusBar &bar) {
    int right = bar.width() - 12;
    for (const QWidget *w : bar.findChildren<QWidget *>(Qt::FindDirectChildrenOnly)) {
        if (w->isVisible() && !qobject_cast<const QSizeGrip *>(w))
            right = std::min(right, w->x() - 2);
    }
    return right - 6;
}

/// How many pixels of `image` are exactly `colour`.
int pixelsOf(const QImage &image, const QColor &colour) {
    const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
    int n = 0;
    for (int y = 0; y < rgb.height(); ++y)
        for (int x = 0; x < rgb.width(); ++x)
            n += rgb.pixelColor(x, y) == colour;
    return n;
}

/// Counts the paint events a widget gets.
struct PaintCounter : QObject {
    int paints = 0;
    bool eventFilter(QObject *, QEvent *event) override {
        if (event->type() == QEvent::Paint) ++paints;
        return false;
    }
};

/// The whole scene rectangle is inside the view's viewport.
bool showsWholeGraph(const DagView &view) {
    const QRect mapped = view.mapFromScene(view.sceneRect()).boundingRect();
    return view.viewport()->rect().adjusted(-2, -2, 2, 2).contains(mapped);
}

} // namespace

class NewcomerTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void theWindowFitsALaptopScreen() {
        auto window = shownWindow(QSize(1280, 720));
        QVERIFY(window);
        const QSize minimum = window->minimumSizeHint().expandedTo(window->minimumSize());
        QVERIFY2(
            minimum.width() <= 1280 && minimum.height() <= 720,
            qPrintable(QStringLiteral("minimum %1x%2").arg(minimum.width()).arg(minimum.height())));
        QTRY_COMPARE(window->size(), QSize(1280, 720));
        // The docks a search is watched in keep room for a few rows each.
        for (const char *name : {"loopNestDock", "beamDock", "timelineDock", "bucketsDock"}) {
            QDockWidget *d = dock(*window, name);
            QVERIFY2(d->isVisible() && d->height() >= 120 && d->width() >= 200,
                     qPrintable(QStringLiteral("%1: %2x%3")
                                    .arg(QLatin1String(name))
                                    .arg(d->width())
                                    .arg(d->height())));
        }
        QVERIFY(window->dagPanel()->view()->height() >= 150);
    }

    void theStatusMessageReadsWholeBesideTheCounters() {
        const QString message = QStringLiteral(
            "Search finished: result 124.4 ms predicted (ranked by the summed model)");
        for (const int width : {1280, 1024, 1920}) {
            auto window = shownWindow(QSize(width, 720));
            QVERIFY(window);
            auto *status = window->findChild<StatusPanel *>();
            QVERIFY(status);
            SearchCounters many;
            many.enumerated = 1234567;
            many.pruned = 987654;
            many.evaluated = 456789;
            many.memoHits = 345678;
            status->setCounters(many);
            status->setProgress(510, 510);
            StartupGpu gpu;
            gpu.note = QStringLiteral("GPU model pocl-cpu (fits the detected OpenCL CPU)");
            window->announceGpu(gpu);
            QStatusBar *bar = window->statusBar();
            bar->showMessage(message);
            const int needed = bar->fontMetrics().horizontalAdvance(message);
            QTRY_VERIFY2(messageRoom(*bar) >= needed,
                         qPrintable(QStringLiteral("%1 px for %2 at %3 wide")
                                        .arg(messageRoom(*bar))
                                        .arg(needed)
                                        .arg(width)));
            shoot(window.get(), QStringLiteral("status-%1").arg(width));
            auto *counters = bar->findChild<QLabel *>(QStringLiteral("searchCounters"));
            auto *note = bar->findChild<QLabel *>(QStringLiteral("gpuNote"));
            QVERIFY(counters && note);
            // What is cut is said whole in its tooltip.
            if (counters->isVisible() && counters->text().endsWith(QChar(0x2026)))
                QVERIFY2(counters->toolTip().startsWith(counters->text().chopped(1)) &&
                             counters->toolTip().contains(QStringLiteral("memo hits")),
                         qPrintable(counters->toolTip()));
            if (width == 1920) {
                QVERIFY(counters->isVisible() && !counters->text().endsWith(QChar(0x2026)));
                QCOMPARE(note->text(), gpu.note);
            }
            // Without a message the counters and the GPU line read whole again (but for the
            // counters' last words on a 1024 px window).
            bar->clearMessage();
            if (width < 1280) {
                QTRY_COMPARE(note->text(), gpu.note);
                continue;
            }
            QTRY_VERIFY2(counters->isVisible() && note->isVisible() && note->text() == gpu.note &&
                             !counters->text().endsWith(QChar(0x2026)),
                         qPrintable(QStringLiteral("%1 wide: '%2' '%3'")
                                        .arg(bar->width())
                                        .arg(note->text(), counters->text())));
            QVERIFY(bar->findChild<QProgressBar *>()->isVisible());
        }
    }

    void progressIsPaintedWithTheRestOfTheWindow() {
        // A progress bar repaints at once when its text changes, and with it every widget of the
        // window waiting to be painted: once a batch of steps, the whole window. The status line
        // paints it with the window's next update instead.
        auto window = shownWindow(QSize(1280, 720));
        QVERIFY(window);
        auto *status = window->findChild<StatusPanel *>();
        auto *progress = window->statusBar()->findChild<QProgressBar *>();
        QVERIFY(status && progress && progress->isVisible());
        QTest::qWait(50); // the first paint of the window is done
        PaintCounter counter;
        progress->installEventFilter(&counter);
        status->setProgress(120, 503);
        QCOMPARE(counter.paints, 0);
        QCOMPARE(progress->value(), 120);
        QCOMPARE(progress->text(), QStringLiteral("step 120 of ~503"));
        QTRY_VERIFY(counter.paints > 0); // painted all the same, with the next update
    }

    void theBenchmarkDockMeasuresTheResultByDefault() {
        // local_laplacian's result comes from an earlier pass and is not in the final beam.
        const test::RealSearch search =
            test::runSearch("local_laplacian", {}, test::testOptions(32, 5));
        const SearchStep &last = *search.steps.back();
        QVERIFY(last.finished && last.best);

        BenchPanel panel;
        const BenchSettings byDefault = panel.settings();
        QCOMPARE(byDefault.pick, BenchPick::Result);
        const std::vector<BenchCandidate> one = benchCandidates(last, byDefault);
        QCOMPARE(one.size(), size_t(1));
        QCOMPARE(one[0].state, last.best->state);
        QCOMPARE(one[0].label, std::string("result"));
        QCOMPARE(one[0].predicted, last.best->cost.total);

        // Top 3: the result first, then the beam's two cheapest, named by their Beam dock rows.
        BenchSettings top = byDefault;
        top.pick = BenchPick::TopK;
        top.count = 3;
        panel.setSettings(top);
        QCOMPARE(panel.settings().count, 3);
        const std::vector<BenchCandidate> three = benchCandidates(last, panel.settings());
        QCOMPARE(three.size(), size_t(3));
        QCOMPARE(three[0].state, last.best->state);
        std::vector<size_t> ranks(last.beam.size());
        for (size_t r = 0; r < ranks.size(); ++r)
            ranks[r] = r;
        std::stable_sort(ranks.begin(), ranks.end(), [&](size_t a, size_t b) {
            return last.beam[a].cost.total < last.beam[b].cost.total;
        });
        QCOMPARE(three[1].state, last.beam[ranks[0]].state);
        // As beamscope-cli bench names it: the row's index, read from 1 ("beam #r").
        QCOMPARE(three[1].label, "beam#" + std::to_string(ranks[0]));
        QCOMPARE(candidateLabelInWords(three[1].label), "beam #" + std::to_string(ranks[0] + 1));
        QVERIFY(three[0].predicted <= three[1].predicted);

        // "best of the beam" is the beam's cheapest, not the result.
        BenchSettings bestOfBeam = byDefault;
        bestOfBeam.pick = BenchPick::BestOfBeam;
        const std::vector<BenchCandidate> beamBest = benchCandidates(last, bestOfBeam);
        QCOMPARE(beamBest.size(), size_t(1));
        QCOMPARE(beamBest[0].state, cheapestEntry(last.beam)->state);
        QVERIFY(scheduleToJson(*beamBest[0].state) != scheduleToJson(*last.best->state));
    }

    void fitShowsAllOfLocalLaplacian() {
        auto window = windowWithLoaded("local_laplacian");
        QVERIFY(window);
        DagView *view = window->dagPanel()->view();
        QCOMPARE(window->searchController()->dag()->funcCount(), 88);
        QVERIFY(!showsWholeGraph(*view)); // at a readable scale it does not fit: the overview
        QVERIFY(view->overview()->isVisible());
        // Its picture of the graph follows the scene (drawn again at most every kRefreshMs): a
        // mark in a colour the graph does not use appears in it, then goes.
        const QColor markColour(0, 255, 0);
        auto marked = [&] { return pixelsOf(view->overview()->grab().toImage(), markColour); };
        QCOMPARE(marked(), 0);
        const QRectF graph = view->sceneRect();
        auto *mark = view->scene()->addRect(graph.adjusted(graph.width() / 4, graph.height() / 4,
                                                           -graph.width() / 4, -graph.height() / 4),
                                            QPen(Qt::NoPen), markColour);
        QTRY_VERIFY(marked() > 20);
        delete mark;
        QTRY_COMPARE(marked(), 0);

        view->fitAll();
        QVERIFY(view->currentScale() < 0.7); // below the readable floor the old Fit stopped at
        // Once the scroll bars have gone (the viewport grows by their width).
        QTRY_VERIFY2(showsWholeGraph(*view),
                     qPrintable(QStringLiteral("scene %1x%2 at %3 in a %4x%5 viewport")
                                    .arg(view->sceneRect().width())
                                    .arg(view->sceneRect().height())
                                    .arg(view->currentScale())
                                    .arg(view->viewport()->width())
                                    .arg(view->viewport()->height())));
        QCOMPARE(view->currentScale(), view->wholeGraphScale());
        QVERIFY(!view->horizontalScrollBar()->isVisible() &&
                !view->verticalScrollBar()->isVisible());
        QVERIFY(!view->overview()->isVisible());
        // Fit holds as the window grows, and zooming out stops at the whole graph.
        window->resize(1600, 900);
        QTRY_COMPARE(window->size(), QSize(1600, 900));
        QTRY_VERIFY(showsWholeGraph(*view));
        QCOMPARE(view->currentScale(), view->wholeGraphScale());
        const double whole = view->currentScale();
        view->zoomOut();
        QCOMPARE(view->currentScale(), whole);

        // Find by name: selected everywhere, centred at a readable scale.
        QVERIFY(view->findFunc(QStringLiteral("outgpyramid_0")));
        const int node = window->searchController()->dag()->find("outGPyramid_0");
        QCOMPARE(window->hub()->selectedFunc(), node);
        QVERIFY(view->currentScale() >= 0.7);
        QVERIFY(view->viewport()->rect().contains(
            view->mapFromScene(view->nodeItem(node)->sceneBoundingRect().center())));
        QVERIFY(!view->findFunc(QStringLiteral("no_such_func")));
        QLineEdit *find = window->dagPanel()->findField();
        QTest::keyClick(window.get(), Qt::Key_F, Qt::ControlModifier);
        QTRY_VERIFY(find->hasFocus());
    }

    void theTimelineMarksTheSearchsResult() {
        auto window = windowWithLoaded("local_laplacian");
        QVERIFY(window);
        SearchController *search = window->searchController();
        search->runToEnd();
        QTRY_VERIFY_WITH_TIMEOUT(search->searchFinished() && window->isSettled(), 120000);
        const SearchStepPtr last = search->lastStep();
        QVERIFY(last->best);
        const double result = last->best->cost.total;

        // Independently: the first pass end whose final beam's cheapest complete state is the
        // result.
        int found = -1;
        for (int k = 0; k < search->history().size() && found < 0; ++k) {
            const SearchStep &s = *search->history().at(k).step;
            const BeamEntry *complete = s.passFinished ? cheapestComplete(s.beam) : nullptr;
            if (complete && complete->cost.total == result) found = k;
        }
        QVERIFY(found >= 0);
        TimelinePanel *timeline = window->timelinePanel();
        timeline->flush();
        const TimelineModel *model = timeline->model();
        QCOMPARE(model->entryCount(), search->history().size());
        QCOMPARE(model->resultStep(), found);
        const QModelIndex star = model->index(found, TimelineModel::PassColumn);
        QVERIFY2(star.data().toString().endsWith(QStringLiteral(" ★")),
                 qPrintable(star.data().toString()));
        QVERIFY(star.data(Qt::BackgroundRole).isValid());
        for (int k = 0; k < model->entryCount(); ++k) {
            if (k != found)
                QVERIFY(!model->index(k, TimelineModel::StepColumn)
                             .data()
                             .toString()
                             .contains(QStringLiteral("★")));
        }
        // The line above the list gives the cost as the status bar does.
        const QString cost = format::ms(result);
        QVERIFY2(timeline->resultLine().contains(cost), qPrintable(timeline->resultLine()));
        QVERIFY2(window->statusBar()->currentMessage().contains(cost),
                 qPrintable(window->statusBar()->currentMessage()));
        QVERIFY(window->hub()->stateCost() && window->hub()->stateCost()->total == result);
        // local_laplacian's result is not the beam's best at the end: both are told apart.
        QVERIFY(model->entry(model->entryCount() - 1).bestCost != result);

        // The Beam dock's row of the result (it came with the last step) reads whole: its
        // columns were sized again when that row came, not only once a pass.
        BeamView *beam = window->beamView();
        const int resultRow = beam->model()->resultRow();
        QVERIFY(resultRow >= 0);
        const QModelIndex rank = beam->model()->index(resultRow, BeamModel::RankColumn);
        const QFont rankFont =
            rank.data(Qt::FontRole).value<QFont>().resolve(beam->table()->font());
        const int rankWidth = QFontMetrics(rankFont).horizontalAdvance(rank.data().toString());
        QVERIFY2(beam->table()->columnWidth(BeamModel::RankColumn) > rankWidth,
                 qPrintable(QStringLiteral("%1 px for '%2' (%3 px)")
                                .arg(beam->table()->columnWidth(BeamModel::RankColumn))
                                .arg(rank.data().toString())
                                .arg(rankWidth)));

        // Its link shows the step that found it.
        QSignalSpy asked(timeline, &TimelinePanel::stepRequested);
        QLabel *line = timeline->findChild<QLabel *>(QStringLiteral("timelineResult"));
        QVERIFY(line && line->isVisible());
        Q_EMIT line->linkActivated(QStringLiteral("#"));
        QCOMPARE(asked.count(), 1);
        QCOMPARE(asked.front().front().toInt(), found);
    }

    void benchmarkAndTuneColumnsReadOnALaptopScreen() {
        for (const QSize size : {QSize(1280, 720), QSize(1920, 1080)}) {
            auto window = shownWindow(size);
            QVERIFY(window);
            // Rows as a PoCL run without a PTX report gives them: no registers, spills or
            // failures; a search time only for Halide's autoschedulers.
            BenchPanel *bench = window->benchPanel();
            for (const char *label : {"result", "beam#1", "beam#4"}) {
                Measurement m;
                m.label = label;
                m.predicted = 1.91;
                m.measuredMs = RunTimes{3.4, 3.5, 3.6};
                m.correct = true;
                bench->addMeasurement(m, false);
            }
            Measurement naive;
            naive.label = "baseline:naive";
            naive.measuredMs = RunTimes{2.6, 2.6, 2.7};
            naive.correct = true;
            bench->addMeasurement(naive, true);
            QVERIFY(window->raiseDock(QStringLiteral("Benchmark")));
            QTest::qWait(50);
            QTableView *table = bench->table();
            for (int c :
                 {int(BenchResultsModel::RegistersColumn), int(BenchResultsModel::SpillsColumn),
                  int(BenchResultsModel::SearchColumn), int(BenchResultsModel::FailureColumn)})
                QVERIFY2(table->isColumnHidden(c), qPrintable(QString::number(c)));
            QVERIFY(!bench->runnerTable()->isVisible()); // this machine: no jobs per node
            // Named as the Beam dock numbers its rows, from 1.
            QCOMPARE(bench->model()->index(1, BenchResultsModel::ScheduleColumn).data().toString(),
                     QStringLiteral("beam #2"));
            QVERIFY2(table->viewport()->height() >= 4 * table->rowHeight(0),
                     qPrintable(QStringLiteral("%1 px for rows of %2")
                                    .arg(table->viewport()->height())
                                    .arg(table->rowHeight(0))));
            // Every shown column, header included, is whole inside the table.
            const QFontMetrics metrics(table->horizontalHeader()->font());
            for (int c = 0; c < BenchResultsModel::ColumnCount; ++c) {
                if (table->isColumnHidden(c)) continue;
                const QString title =
                    bench->model()->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
                QHeaderView *header = table->horizontalHeader();
                QVERIFY2(header->sectionSize(c) >= metrics.horizontalAdvance(title) &&
                             header->sectionViewportPosition(c) + header->sectionSize(c) <=
                                 table->viewport()->width(),
                         qPrintable(QStringLiteral("%1 at %2x%3")
                                        .arg(title)
                                        .arg(size.width())
                                        .arg(size.height())));
            }

            shoot(window.get(), QStringLiteral("bench-%1x%2").arg(size.width()).arg(size.height()));

            // The Tune dock: what a round found (round best, best so far, τ) reads first.
            // Rounds as a PoCL run of unsharp_mask gives them: a best found in round 2.
            TunePanel *tune = window->tunePanel();
            double best = INFINITY;
            for (const double roundBest : {0.4729, 0.2891, 0.3104}) {
                TuneRound r;
                r.round = tune->model()->rowCount();
                r.model = r.round == 0 ? "analytic" : "learned";
                r.measured = 4;
                r.roundBestMs = roundBest;
                r.bestMs = best = std::min(best, roundBest);
                r.tau = 0.5 - 0.2 * r.round;
                for (int k = 0; k < 4; ++k)
                    r.predictedVsMeasured.emplace_back(0.05 + 0.03 * k + 0.01 * r.round,
                                                       roundBest * (1 + 0.15 * k));
                tune->addRound(r);
            }
            QVERIFY(window->raiseDock(QStringLiteral("Tune")));
            QTest::qWait(50);
            shoot(window.get(), QStringLiteral("tune-%1x%2").arg(size.width()).arg(size.height()));
            QTableView *rounds = tune->table();
            QHeaderView *header = rounds->horizontalHeader();
            for (int c : {int(TuneRoundsModel::RoundColumn), int(TuneRoundsModel::RoundBestColumn),
                          int(TuneRoundsModel::BestColumn), int(TuneRoundsModel::TauColumn)}) {
                QVERIFY2(header->sectionViewportPosition(c) + header->sectionSize(c) <=
                             rounds->viewport()->width(),
                         qPrintable(QStringLiteral("column %1 at %2").arg(c).arg(size.width())));
            }
            QVERIFY(!tune->runnerTable()->isVisible());
            // The charts' legends ("best so far", "round best", each round with its τ) whole:
            // each has the room it asks for.
            for (QChartView *chart :
                 {tune->charts()->bestChart(), tune->charts()->scatterChart()}) {
                const QLegend *legend = chart->chart()->legend();
                const QSizeF wanted = legend->effectiveSizeHint(Qt::PreferredSize);
                QVERIFY2(legend->isVisible() && legend->geometry().width() + 0.5 >= wanted.width(),
                         qPrintable(QStringLiteral("%1: legend %2 px of %3 at %4")
                                        .arg(chart->chart()->title())
                                        .arg(legend->geometry().width())
                                        .arg(wanted.width())
                                        .arg(size.width())));
            }
        }
    }

    void whyNotGivesThePrePassCostsOfAFrozenFunc() {
        // outLPyramid_6 at root: costed and cut in the pre-pass, which then froze it inline;
        // every later pass never reaches it, and the answer (the best's pass) has no costs.
        const auto dag = test::loadDag("local_laplacian", {});
        Pin root;
        root.func = "outLPyramid_6";
        root.location = ComputeKind::Root;
        const auto result =
            std::make_shared<const WhyResult>(whyNot(dag, test::testOptions(32, 5), root));
        QCOMPARE(int(result->answer.verdict), int(WhyVerdict::NotReached));
        QVERIFY(std::isnan(result->answer.cost));
        const WhyAnswer *pre = WhyDialog::prePassCosts(*result);
        QVERIFY(pre && pre->pass == 0 && pre->verdict == WhyVerdict::Cut);
        WhyDialog dialog;
        dialog.showAnswer(result);
        const QTreeWidget *tree = dialog.findChild<QTreeWidget *>();
        const QList<QTreeWidgetItem *> found =
            tree->findItems(QStringLiteral("In the pre-pass"), Qt::MatchExactly);
        QCOMPARE(found.size(), 1);
        // Steps counted from 1, as the Timeline's rows.
        QCOMPARE(found[0]->text(1),
                 QStringLiteral("costed and beaten at step %1").arg(pre->step + 1));
        const QList<QTreeWidgetItem *> every =
            tree->findItems(QStringLiteral("Every pass"), Qt::MatchExactly);
        QCOMPARE(every.size(), 1);
        QCOMPARE(every[0]->childCount(), int(result->passes.size()));
        for (int i = 0; i < every[0]->childCount(); ++i) {
            const int step = result->passes[size_t(i)].step;
            if (step >= 0)
                QVERIFY2(every[0]->child(i)->text(1).endsWith(
                             QStringLiteral(" at step %1").arg(step + 1)),
                         qPrintable(every[0]->child(i)->text(1)));
        }
        QStringList shown;
        for (int i = 0; i < found[0]->childCount(); ++i)
            shown << found[0]->child(i)->text(0) + QLatin1Char('=') + found[0]->child(i)->text(1);
        const QString cost = QString::number(pre->cost, 'g', 5) + QStringLiteral(" ms");
        QVERIFY2(shown.contains(QStringLiteral("Its cost=") + cost), qPrintable(shown.join('|')));
        QVERIFY2(!std::isnan(pre->cutoff) &&
                     shown.contains(QStringLiteral("Cost to beat=") +
                                    QString::number(pre->cutoff, 'g', 5) + QStringLiteral(" ms")),
                 qPrintable(shown.join('|')));
    }

    void anUnusableDatabaseIsSaidUntilDismissed() {
        // --db on a text file: the benchmark goes on without recording, and both the Benchmark
        // dock and the line above the DAG say so after the run has ended.
        QTemporaryDir dir;
        const QString notes = dir.filePath(QStringLiteral("notes.txt"));
        QFile file(notes);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("these are notes, not a database\n");
        file.close();
        DatabaseSetting::overrideForThisRun(notes);
        auto window = shownWindow(QSize(1280, 720));
        QVERIFY(window);
        window->loadPipeline({"stencil_chain", "", {"length=2", "width=64", "height=64"}}, 10000);
        SearchController *search = window->searchController();
        QTRY_VERIFY_WITH_TIMEOUT(search->searchFinished() && window->isSettled(), 120000);
        BenchmarkController *bench = window->benchCoordinator()->controller();
        QSignalSpy finished(bench, &BenchmarkController::finished);
        Q_EMIT window->benchPanel()->runRequested(window->benchPanel()->settings());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
        DatabaseSetting::overrideForThisRun(QString());
        const QString said = window->benchPanel()->notRecordedText();
        QVERIFY2(said.startsWith(QStringLiteral("Not recording measurements: ")) &&
                     said.contains(QStringLiteral("measurement database")),
                 qPrintable(said));
        QVERIFY(window->benchPanel()
                    ->findChild<QLabel *>(QStringLiteral("benchNotRecorded"))
                    ->isVisible());
        QCOMPARE(window->errorBar()->message(), said);
        QVERIFY(window->errorBar()->isVisible());
        // The result was measured all the same.
        QCOMPARE(window->benchPanel()->model()->candidateCount(), 1);
        QCOMPARE(window->benchPanel()
                     ->model()
                     ->index(0, BenchResultsModel::CorrectColumn)
                     .data()
                     .toString(),
                 QStringLiteral("yes"));
    }

    void anErrorStaysUntilDismissed() {
        auto window = shownWindow(QSize(1280, 720));
        QVERIFY(window);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("notes.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("these are notes, not a session\n");
        file.close();
        window->openSession(path);
        const QString shown = window->errorBar()->message();
        QVERIFY2(shown.contains(QStringLiteral("not valid JSON")), qPrintable(shown));
        window->statusBar()->showMessage(QStringLiteral("something else"), 10);
        QTest::qWait(50);
        QCOMPARE(window->errorBar()->message(), shown);
        QVERIFY(window->errorBar()->isVisible());
        window->errorBar()->dismiss();
        QVERIFY(window->errorBar()->message().isEmpty());
        QVERIFY(!window->errorBar()->isVisible());
    }
};

QTEST_MAIN(NewcomerTest)
#include "NewcomerTest.moc"
