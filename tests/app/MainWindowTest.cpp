// The main window on a real search: a Func selected in one view is selected in the others, pins
// asked for in a view restart the search with them (and impossible pins are refused with a
// one-line message), and option changes restart the search. Going back in the Timeline shows
// that step in every view as a fresh search stopped there has it; the Compare dock's pin button
// restarts the search with the other side's decision.
#include "MainWindow.h"
#include "../views/RealSearch.h"
#include "CompareCoordinator.h"
#include "SearchToolBar.h"
#include "bench/BaselineImport.h"

#include "controllers/SearchController.h"
#include "pipeline/UserCodeIsolation.h"
#include "views/beam/BeamModel.h"
#include "views/beam/BeamView.h"
#include "views/buckets/BucketModel.h"
#include "views/buckets/BucketsView.h"
#include "views/buckets/PrunedModel.h"
#include "views/common/PinEdits.h"
#include "views/common/SelectionHub.h"
#include "views/compare/CompareModel.h"
#include "views/compare/CompareView.h"
#include "views/cost/BestCostChart.h"
#include "views/cost/CostView.h"
#include "views/dag/DagNodeItem.h"
#include "views/dag/DagPanel.h"
#include "views/dag/DagView.h"
#include "views/history/TimelinePanel.h"
#include "views/loopnest/LoopNestModel.h"
#include "views/loopnest/LoopNestView.h"

#include <QSignalSpy>
#include <QSlider>
#include <QStandardPaths>
#include <QTest>
#include <QTreeView>

#include <algorithm>

using namespace beamscope;

class MainWindowTest : public QObject {
    Q_OBJECT
private:
    std::unique_ptr<MainWindow> m_window;

    void waitSettled() { QTRY_VERIFY_WITH_TIMEOUT(m_window->isSettled(), 120000); }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void init() {
        m_window = std::make_unique<MainWindow>();
        m_window->resize(1600, 1000);
        m_window->show();
        // The paper's freezing: these tests look at the pre-pass on a chain of 8 Funcs.
        SearchOptions options;
        options.freezeMinFuncs = 0;
        m_window->setInitialOptions(options, QStringLiteral("v100"));
        PipelineSource source;
        source.name = "stencil_chain";
        source.params = {"length=4"};
        m_window->loadPipeline(source, 30);
        waitSettled();
        QCOMPARE(m_window->searchController()->stepsDone(), 30);
    }

    void cleanup() { m_window.reset(); }

    /// Every cell of `model` (depth first), one line per row.
    static QStringList cells(const QAbstractItemModel &model, const QModelIndex &parent = {}) {
        QStringList out;
        for (int r = 0; r < model.rowCount(parent); ++r) {
            QStringList row;
            for (int c = 0; c < model.columnCount(parent); ++c)
                row << model.index(r, c, parent).data().toString();
            out << row.join(QLatin1Char('|'));
            out << cells(model, model.index(r, 0, parent));
        }
        return out;
    }

    void revisitingAStepShowsItInEveryView() {
        SearchController *search = m_window->searchController();
        SelectionHub *hub = m_window->hub();
        const SearchOptions options = search->options();
        const int k = 11;
        QSignalSpy shown(search, &SearchController::stepShown);
        m_window->timelinePanel()->flush();               // steps reach the list within 100 ms
        m_window->timelinePanel()->slider()->setValue(k); // as the user drags it
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty() && shown.last().at(3).toBool(), 60000);
        QCOMPARE(hub->step()->index, k);
        QCOMPARE(search->stepsDone(), 30); // the search did not move

        // The same views fed with a fresh search stopped at step k.
        const test::RealSearch fresh =
            test::runSearch("stencil_chain", {"length=4"}, options, k + 1);
        const SearchStepPtr &expected = fresh.steps.back();
        BeamModel beam;
        beam.setStep(expected);
        BucketModel buckets;
        buckets.setStep(expected);
        PrunedModel pruned;
        pruned.setStep(expected);
        LoopNestModel loops;
        loops.setState(cheapestEntry(expected->beam)->state); // the hub's default selection
        QVERIFY(buckets.totalRows() > 0 && beam.totalRows() > 0 && loops.totalRows() > 0);
        QCOMPARE(cells(*m_window->findChild<BeamView *>()->model()), cells(beam));
        auto *bucketsView = m_window->findChild<BucketsView *>();
        QCOMPARE(cells(*bucketsView->bucketModel()), cells(buckets));
        QCOMPARE(cells(*bucketsView->prunedModel()), cells(pruned));
        QCOMPARE(cells(*m_window->findChild<LoopNestView *>()->model()), cells(loops));
        for (int node = 0; node < int(fresh.dag->nodes().size()); ++node) {
            const bool frozen = std::count(expected->frozen.begin(), expected->frozen.end(), node);
            QCOMPARE(hub->isFrozen(node), frozen);
        }
        // Step k is in the pre-pass: nothing is ranked for freezing yet.
        QCOMPARE(expected->pass, 0);
        QVERIFY(!expected->freezeRanking);
        auto *dagView = m_window->findChild<DagView *>();
        for (int node : fresh.dag->outputsFirst())
            QVERIFY(!dagView->nodeItem(node)->toolTip().contains(QStringLiteral("freezing")));

        // A click on the best-cost chart goes to the step under it.
        BestCostChart *chart = m_window->costView()->historyChart();
        QTest::mouseClick(chart->viewport(), Qt::LeftButton, {}, chart->positionOfStep(4));
        QTRY_COMPARE(hub->step()->index, 4);
        QCOMPARE(chart->shownStep(), 4);

        // Step continues from the newest and brings the views back to it.
        m_window->searchToolBar()->stepAction()->trigger();
        waitSettled();
        QTRY_COMPARE(hub->step()->index, 30);
        QCOMPARE(search->shownStep(), -1);

        // Past the pre-pass, a Func's tooltip says where the pre-pass ranked it for freezing
        // (cheapest first) and what became of it.
        const test::RealSearch past = test::runSearch("stencil_chain", {"length=4"}, options, 31);
        QVERIFY(past.steps.back()->pass > 0 && past.steps.back()->freezeRanking);
        const std::vector<FreezeRank> &ranking = *past.steps.back()->freezeRanking;
        QVERIFY(ranking.size() >= 4);
        for (size_t i = 0; i < ranking.size(); ++i) {
            const QString tip = dagView->nodeItem(ranking[i].node)->toolTip();
            QVERIFY2(tip.contains(QStringLiteral("rank %1 of %2").arg(i + 1).arg(ranking.size())),
                     qPrintable(tip));
            QVERIFY2(tip.contains(ranking[i].frozen ? "frozen" : "left under search"), qPrintable(tip));
            QCOMPARE(hub->isFrozen(ranking[i].node), ranking[i].frozen);
        }
        // The input wrapper is read in place from the first step, never searched: so it says.
        const int wrapper = past.dag->find("input_im");
        QVERIFY(wrapper >= 0);
        const QString wrapperTip = dagView->nodeItem(wrapper)->toolTip();
        QVERIFY2(wrapperTip.contains(QStringLiteral("wraps an input buffer")), qPrintable(wrapperTip));
        QVERIFY2(!wrapperTip.contains(QStringLiteral("freezing")), qPrintable(wrapperTip));
    }

    // The import's summary says what the plugin's search cost, and when its schedule came from
    // the baseline schedule cache instead.
    void importSummarySaysWhenTheScheduleCameFromTheCache() {
        ForeignSchedule imported;
        imported.what = "anderson2021";
        imported.autoschedulerMs = 6646100;
        const QString ran = CompareCoordinator::importSummary(imported).first;
        QVERIFY2(
            ran.contains(QStringLiteral("Anderson2021's schedule</b> (the plugin took 6646.1 s)")),
            qPrintable(ran));
        imported.fromCache = true;
        const QString cached = CompareCoordinator::importSummary(imported).first;
        QVERIFY2(cached.contains(QStringLiteral(
                     "(from the baseline cache; the plugin took 6646.1 s when it ran)")),
                 qPrintable(cached));
    }

    void comparePinsTheOtherSidesDecision() {
        CompareCoordinator *compare = m_window->compareCoordinator();
        const int last = int(m_window->hub()->step()->beam.size()) - 1;
        QVERIFY(last > 0);
        compare->compare(*compare->fromBeam(0), 0);
        compare->compare(*compare->fromBeam(last), 1);
        CompareView *view = m_window->compareView();
        // A Func that B has placed (the output always is).
        const StatePtr b = view->model()->side(1).state;
        int node = -1;
        for (int n : b->dag().outputsFirst())
            if (!b->dag().node(n).isInput && freezePinFromState(*b, n)) node = n;
        QVERIFY(node >= 0);
        m_window->hub()->selectFunc(node);
        QSignalSpy reset(m_window->searchController(), &SearchController::searchReset);
        view->pinFromSelected(1);
        QTRY_COMPARE_WITH_TIMEOUT(reset.count(), 1, 60000);
        const Pin *pin = m_window->hub()->pinFor(b->dag().node(node).name);
        QVERIFY(pin);
        QVERIFY(pin->frozen);
        QVERIFY(pin->location == b->placement(node).kind);
    }

    // A benchmarked candidate arrives without a cost: the Compare dock costs it on a worker
    // thread with the search's model, and the cost it shows is the one the search gave the same
    // state (the beam entry's own cost, computed by the engine's batched, memoized path).
    void benchmarkedSideIsCostedOffTheGuiThread() {
        CompareCoordinator *compare = m_window->compareCoordinator();
        const std::optional<CompareSide> beam = compare->fromBeam(0);
        QVERIFY(beam && beam->cost);
        CompareSide uncosted = *beam;
        uncosted.cost.reset();
        uncosted.termNames.clear();
        uncosted.label = QStringLiteral("benchmarked beam#0");
        compare->compareCosted(uncosted, 1);
        QVERIFY(compare->isCosting()); // posted, not computed on this thread
        QTRY_VERIFY_WITH_TIMEOUT(!compare->isCosting(), 60000);
        const CompareSide &shown = m_window->compareView()->model()->side(1);
        QCOMPARE(shown.label, uncosted.label);
        QVERIFY(shown.cost.has_value());
        QCOMPARE(shown.cost->total, beam->cost->total);
        QCOMPARE(shown.cost->stages.size(), beam->cost->stages.size());
        QVERIFY(shown.termNames == m_window->hub()->step()->termNames);
    }

    void selectingAFuncSelectsItEverywhere() {
        SelectionHub *hub = m_window->hub();
        const StatePtr state = hub->state();
        QVERIFY(state);
        // A Func that has its own kernel in the inspected state.
        const int node = state->kernels().front()->node;
        hub->selectFunc(node);
        QVERIFY(m_window->dagPanel()->view()->nodeItem(node)->decoration().selected);
        auto *loops = m_window->findChild<LoopNestView *>();
        QVERIFY(loops);
        auto *tree = loops->findChild<QTreeView *>();
        QCOMPARE(loops->model()->funcOfRow(loops->model()->rowId(tree->currentIndex())), node);

        // And back: choosing a row of another Func in the loop nest selects that Func.
        const int other = state->kernels().back()->node;
        const std::vector<int> rows = loops->model()->rowsOfFunc(other);
        QVERIFY(!rows.empty());
        tree->setCurrentIndex(loops->model()->indexOfRow(rows.front()));
        QCOMPARE(hub->selectedFunc(), other);
        QVERIFY(m_window->dagPanel()->view()->nodeItem(other)->decoration().selected);
    }

    void pinsRestartTheSearchOrAreRefused() {
        SelectionHub *hub = m_window->hub();
        SearchController *search = m_window->searchController();
        QSignalSpy reset(search, &SearchController::searchReset);
        QSignalSpy errors(m_window.get(), &MainWindow::errorShown);
        Pin pin;
        pin.func = "stage_1";
        pin.location = ComputeKind::Root;
        hub->requestPins({pin});
        QCOMPARE(hub->pins().size(), size_t(1));
        QCOMPARE(search->options().pins.size(), size_t(1));
        QTRY_COMPARE_WITH_TIMEOUT(reset.count(), 1, 30000);
        search->runToEnd();
        waitSettled();
        const int node = search->dag()->find("stage_1");
        QCOMPARE(search->lastStep()->beam.front().state->placement(node).kind, ComputeKind::Root);
        QVERIFY(m_window->dagPanel()->view()->nodeItem(node)->decoration().pinned);

        Pin impossible;
        impossible.func = "output";
        impossible.location = ComputeKind::Inline;
        hub->requestPins({pin, impossible});
        QCOMPARE(errors.count(), 1);
        QVERIFY(errors.front().front().toString().contains("output"));
        QCOMPARE(hub->pins().size(), size_t(1)); // refused: the pins in force stay
    }

    /// A user's generator that aborts, segfaults or hangs (CrashingGenerators.cpp) is one line
    /// in the window, which stays up with its search: the pipeline, steps and history it had.
    void userCodeThatCrashesOrHangsLeavesTheWindowAndItsSearch() {
        setUserCodeIsolation({true, BEAMSCOPE_TEST_WORKER, 3});
        SearchController *search = m_window->searchController();
        const int steps = search->stepsDone();
        const int history = search->history().size();
        QSignalSpy errors(m_window.get(), &MainWindow::errorShown);
        const std::vector<std::pair<std::string, QString>> cases = {
            {"crash_abort", QStringLiteral("crashed while building: signal 6 (Aborted)")},
            {"crash_segfault", QStringLiteral("crashed while building: signal 11")},
            {"crash_hang", QStringLiteral("did not finish building within 3 s")}};
        for (const auto &[name, expected] : cases) {
            PipelineSource source;
            source.name = name;
            source.generatorLibrary = BEAMSCOPE_TEST_CRASHING_GENERATOR_LIB;
            const int before = errors.count();
            m_window->loadPipeline(source);
            QTRY_VERIFY_WITH_TIMEOUT(errors.count() > before, 60000);
            const QString message = errors.last().front().toString();
            QVERIFY2(message.contains(QString::fromStdString("generator '" + name + "'")),
                     qPrintable(message));
            QVERIFY2(message.contains(expected), qPrintable(message));
            QVERIFY(!message.contains(QLatin1Char('\n')));
            QVERIFY(m_window->isVisible());
            QTRY_VERIFY_WITH_TIMEOUT(!search->isBusy(), 10000);
            QCOMPARE(search->source().name, std::string("stencil_chain"));
            QCOMPARE(search->stepsDone(), steps);
            QCOMPARE(search->history().size(), history);
            QVERIFY(search->dag() != nullptr);
        }
        // The search goes on from where it was.
        search->stepOne();
        QTRY_COMPARE_WITH_TIMEOUT(search->stepsDone(), steps + 1, 60000);
        setUserCodeIsolation({});
    }
};

QTEST_MAIN(MainWindowTest)
#include "MainWindowTest.moc"
