// SearchController on real searches, driven with QSignalSpy: one step matches the engine run
// synchronously, run to end reaches the same best schedule, a search faster than the GUI thread
// reaches it in batches, pause stops a run mid-way, results of a stale generation are dropped
// after reset, and errors arrive as one line.
#include "../views/RealSearch.h"

#include "controllers/SearchController.h"
#include "search/SearchReport.h"

#include <QSignalSpy>
#include <QTest>
#include <QThread>

using namespace beamscope;

namespace {

PipelineSource source(const std::string &app, std::vector<std::string> params) {
    PipelineSource s;
    s.name = app;
    s.params = std::move(params);
    return s;
}

/// Beam hashes and costs, to compare two beams.
std::vector<std::pair<uint64_t, double>> beamKey(const SearchStep &step) {
    std::vector<std::pair<uint64_t, double>> out;
    for (const BeamEntry &e : step.beam)
        out.push_back({e.hash, e.cost.total});
    return out;
}

bool waitIdle(SearchController &c, int timeoutMs = 120000) {
    QElapsedTimer t;
    t.start();
    while (c.isBusy() && t.elapsed() < timeoutMs)
        QTest::qWait(5);
    return !c.isBusy();
}

} // namespace

class SearchControllerTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void loadThenStepMatchesTheEngine() {
        SearchController c;
        QSignalSpy loaded(&c, &SearchController::loaded);
        QSignalSpy reset(&c, &SearchController::searchReset);
        QSignalSpy stepped(&c, &SearchController::stepped);
        QSignalSpy busy(&c, &SearchController::busyChanged);
        const SearchOptions options = test::testOptions(4, 2);
        c.load(source("stencil_chain", {"length=4"}), options);
        QVERIFY(c.isBusy());
        QVERIFY(waitIdle(c));
        QCOMPARE(loaded.count(), 1);
        QCOMPARE(reset.count(), 1);
        QVERIFY(c.dag());
        QVERIFY(c.estimatedSteps() > 0);

        c.stepOne();
        QVERIFY(waitIdle(c));
        QCOMPARE(stepped.count(), 1);
        const auto step = stepped.front().front().value<SearchStepPtr>();
        QCOMPARE(step->index, 0);
        QCOMPARE(c.stepsDone(), 1);
        QCOMPARE(c.lastStep(), step);
        // busy: true/false for the load, then for the step.
        QCOMPARE(busy.count(), 4);

        const test::RealSearch expected =
            test::runSearch("stencil_chain", {"length=4"}, options, 1);
        QCOMPARE(beamKey(*step), beamKey(*expected.steps.front()));
    }

    void stepPassStopsAtTheEndOfAPass() {
        SearchController c;
        c.load(source("stencil_chain", {"length=4"}), test::testOptions(4, 2));
        c.stepPass();
        QVERIFY(waitIdle(c));
        QVERIFY(c.lastStep());
        QVERIFY(c.lastStep()->passFinished);
        QVERIFY(!c.lastStep()->finished);
    }

    void runToEndReachesTheSameBestSchedule() {
        SearchController c;
        c.setSnapshotIntervalMs(20);
        QSignalSpy finished(&c, &SearchController::finished);
        QSignalSpy progress(&c, &SearchController::progress);
        QSignalSpy costs(&c, &SearchController::bestCostRecorded);
        const SearchOptions options = test::testOptions(8, 2, 7);
        c.load(source("stencil_chain", {"length=6"}), options);
        c.runToEnd();
        QVERIFY(waitIdle(c));
        QCOMPARE(finished.count(), 1);
        QVERIFY(c.searchFinished());
        const test::RealSearch expected = test::runSearch("stencil_chain", {"length=6"}, options);
        QCOMPARE(c.stepsDone(), int(expected.steps.size()));
        QCOMPARE(costs.count(), int(expected.steps.size()));
        QCOMPARE(progress.last().at(0).toInt(), int(expected.steps.size()));
        QCOMPARE(beamKey(*c.lastStep()), beamKey(*expected.steps.back()));
    }

    void aSearchFasterThanTheGuiThreadReachesItInBatches() {
        // While the GUI thread is busy (here: asleep), the worker puts its steps aside instead of
        // queuing one delivery per step that the GUI would have to work through afterwards.
        SearchController c;
        const SearchOptions options = test::testOptions(8, 2, 7);
        c.load(source("stencil_chain", {"length=6"}), options);
        QVERIFY(waitIdle(c));
        QSignalSpy progress(&c, &SearchController::progress);
        QSignalSpy costs(&c, &SearchController::bestCostRecorded);
        QSignalSpy appended(&c, &SearchController::historyAppended);
        QSignalSpy finished(&c, &SearchController::finished);
        c.runToEnd();
        QThread::msleep(2000);
        QVERIFY(waitIdle(c));
        const test::RealSearch expected = test::runSearch("stencil_chain", {"length=6"}, options);
        const int steps = int(expected.steps.size());
        qInfo("%d steps arrived in %lld batches", steps, qint64(progress.count()));
        // Every step is recorded, in order, and said once...
        QCOMPARE(c.stepsDone(), steps);
        QCOMPARE(c.history().size(), steps);
        QCOMPARE(appended.count(), steps);
        QCOMPARE(costs.count(), steps);
        for (int k = 0; k < steps; ++k) {
            QCOMPARE(appended.at(k).at(0).toInt(), k);
            QCOMPARE(costs.at(k).at(0).toInt(), k);
        }
        // ...in batches: the steps taken while the GUI thread slept came as one.
        QVERIFY2(progress.count() < steps, qPrintable(QString::number(progress.count())));
        QCOMPARE(progress.last().at(0).toInt(), steps);
        QCOMPARE(finished.count(), 1);
        QCOMPARE(c.lastStep()->index, steps - 1);
        QCOMPARE(beamKey(*c.lastStep()), beamKey(*expected.steps.back()));
    }

    void pauseStopsARunMidway() {
        SearchController c;
        c.load(source("local_laplacian", {}), test::testOptions(16, 3));
        QVERIFY(waitIdle(c));
        QSignalSpy stepped(&c, &SearchController::stepped);
        c.runToEnd();
        QTRY_VERIFY_WITH_TIMEOUT(c.stepsDone() >= 3, 60000);
        QElapsedTimer t;
        t.start();
        c.pause();
        QVERIFY(waitIdle(c));
        qInfo("pause took effect after %lld ms", t.elapsed());
        QVERIFY(t.elapsed() < 5000);
        QVERIFY(!c.searchFinished());
        const int done = c.stepsDone();
        QVERIFY(done < c.estimatedSteps());
        QVERIFY(stepped.count() >= 1); // the latest completed step is always delivered
        QCOMPARE(c.lastStep()->index, done - 1);
        c.stepOne(); // the engine goes on from where it stopped
        QVERIFY(waitIdle(c));
        QCOMPARE(c.stepsDone(), done + 1);
        QCOMPARE(c.lastStep()->index, done);
    }

    void staleResultsAreDroppedAfterReset() {
        SearchController c;
        c.load(source("stencil_chain", {}), test::testOptions(8, 3));
        QVERIFY(waitIdle(c));
        QSignalSpy stepped(&c, &SearchController::stepped);
        QSignalSpy reset(&c, &SearchController::searchReset);
        c.runToEnd();
        // Block the GUI thread: the worker's results for this generation pile up in the queue.
        QThread::msleep(400);
        c.reset();
        const int steppedBefore = stepped.count();
        QVERIFY(waitIdle(c));
        QCOMPARE(stepped.count(), steppedBefore); // nothing of the old run reached the views
        QVERIFY2(c.droppedResults() > 0, "the queued results of the old run are dropped");
        QCOMPARE(reset.count(), 1);
        QCOMPARE(c.stepsDone(), 0);
        QVERIFY(!c.lastStep());
        c.stepOne();
        QVERIFY(waitIdle(c));
        QCOMPARE(c.lastStep()->index, 0);
    }

    void errorsAreOneLine() {
        SearchController c;
        QSignalSpy error(&c, &SearchController::error);
        c.load(source("no_such_app", {}), test::testOptions(4, 1));
        QVERIFY(waitIdle(c));
        QCOMPARE(error.count(), 1);
        const QString message = error.front().front().toString();
        QVERIFY(message.contains("no_such_app"));
        QVERIFY(!message.contains('\n'));
        QVERIFY(!c.dag());

        SearchOptions pinned = test::testOptions(4, 1);
        Pin pin;
        pin.func = "output";
        pin.location = ComputeKind::Inline;
        pinned.pins = {pin};
        c.load(source("stencil_chain", {"length=3"}), pinned);
        QVERIFY(waitIdle(c));
        QCOMPARE(error.count(), 2);
        QVERIFY(error.last().front().toString().contains("output"));

        c.stepOne(); // no engine: an error, not a crash
        QVERIFY(waitIdle(c));
        QCOMPARE(error.count(), 3);
    }

    void pauseAndResumeGiveTheSameSearch() {
        // A pause inside a step must leave the engine as it was before that step.
        const SearchOptions options = test::testOptions(16, 2, 3);
        SearchController c;
        c.load(source("stencil_chain", {}), options);
        QVERIFY(waitIdle(c));
        for (int i = 0; i < 4 && !c.searchFinished(); ++i) {
            c.runToEnd();
            QTest::qWait(150);
            c.pause();
            QVERIFY(waitIdle(c));
        }
        c.runToEnd();
        QVERIFY(waitIdle(c));
        const test::RealSearch expected = test::runSearch("stencil_chain", {}, options);
        QCOMPARE(c.stepsDone(), int(expected.steps.size()));
        QCOMPARE(beamKey(*c.lastStep()), beamKey(*expected.steps.back()));
    }
};

QTEST_MAIN(SearchControllerTest)
#include "SearchControllerTest.moc"
