// TuneController on the real OpenCL device (PoCL here): 2 rounds of 2 schedules of a small
// stencil chain are searched, measured in worker processes and recorded in a fresh SQLite file;
// progress, rows and rounds arrive as queued signals on the GUI thread; stopping after the first
// row and resuming the same run id measures nothing twice; no database, or one that cannot be
// opened, is one error line.
#include "controllers/TuneController.h"
#include "measure/DeviceDetect.h"
#include "store/MeasurementStore.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <set>

using namespace beamscope;

namespace {

const std::vector<std::string> kParams = {"length=2", "width=64", "height=64"};

bool haveOpenCl() {
    static const bool have = detectOpenClDevice().kind == DeviceKind::OpenCL;
    return have;
}

TuneOptions request(int rounds, int batch) {
    TuneOptions options;
    options.source = {"stencil_chain", "", kParams};
    options.device = DevicePreference::OpenCL;
    options.rounds = rounds;
    options.batch = batch;
    options.search.beamSize = 4;
    options.search.passes = 1;
    options.repeats = 2;
    options.timeoutS = 120;
    options.compileJobs = 2;
#ifdef BEAMSCOPE_TEST_WORKER
    options.workerPath = BEAMSCOPE_TEST_WORKER;
#endif
    return options;
}

bool waitEnd(QSignalSpy &finished, QSignalSpy &errors, int timeoutMs = 500000) {
    QElapsedTimer t;
    t.start();
    while (finished.isEmpty() && errors.isEmpty() && t.elapsed() < timeoutMs)
        QTest::qWait(20);
    return !finished.isEmpty();
}

} // namespace

class TuneControllerTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void tunesRecordsAndReportsRounds() {
        QVERIFY2(haveOpenCl(), "no OpenCL device: PoCL is part of the test machine's set-up");
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("t.sqlite"));
        TuneController tune;
        tune.setDatabasePath(db);
        QSignalSpy progress(&tune, &TuneController::progress);
        QSignalSpy measured(&tune, &TuneController::measured);
        QSignalSpy rounds(&tune, &TuneController::roundFinished);
        QSignalSpy finished(&tune, &TuneController::finished);
        QSignalSpy errors(&tune, &TuneController::error);
        QSignalSpy busy(&tune, &TuneController::busyChanged);
        tune.start(request(2, 2));
        QVERIFY(tune.isBusy());
        QVERIFY2(waitEnd(finished, errors),
                 errors.isEmpty() ? "timed out" : qPrintable(errors.front().front().toString()));
        QVERIFY(!tune.isBusy());
        QCOMPARE(busy.count(), 2);
        const TuneReportPtr report = finished.front().front().value<TuneReportPtr>();
        QCOMPARE(report, tune.lastReport());
        QVERIFY(!report->cancelled);
        QCOMPARE(rounds.count(), 2);
        QCOMPARE(int(report->rounds.size()), 2);
        for (int i = 0; i < 2; ++i)
            QCOMPARE(rounds.at(i).at(0).value<TuneRound>().round, i);
        QVERIFY(!progress.isEmpty());
        // Every row measured was signalled and recorded in the file, with the GUI's origin.
        MeasurementStore store(db.toStdString());
        RecordFilter mine;
        mine.runId = report->runId;
        const std::vector<MeasurementRecord> records = store.records(mine);
        int measuredInRounds = 0;
        for (const TuneRound &r : report->rounds)
            measuredInRounds += r.measured;
        QCOMPARE(measuredInRounds, 4);
        QVERIFY(int(records.size()) >= measuredInRounds);
        QVERIFY(measured.count() >= measuredInRounds);
        for (const MeasurementRecord &r : records)
            QCOMPARE(QString::fromStdString(r.origin), QStringLiteral("gui-tune"));
        QVERIFY(report->best && report->best->correct.value_or(false));
    }

    void stopThenResumeMeasuresNothingTwice() {
        QVERIFY2(haveOpenCl(), "no OpenCL device: PoCL is part of the test machine's set-up");
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("t.sqlite"));
        TuneController tune;
        tune.setDatabasePath(db);
        QSignalSpy measured(&tune, &TuneController::measured);
        QSignalSpy finished(&tune, &TuneController::finished);
        QSignalSpy errors(&tune, &TuneController::error);
        // Stop as soon as the first round is reported (the second one is under way by then).
        connect(&tune, &TuneController::roundFinished, &tune, &TuneController::cancel);
        tune.start(request(2, 2));
        QVERIFY(waitEnd(finished, errors));
        const TuneReportPtr stopped = finished.front().front().value<TuneReportPtr>();
        QVERIFY(stopped->cancelled);
        QCOMPARE(int(stopped->rounds.size()), 1);
        disconnect(&tune, &TuneController::roundFinished, &tune, &TuneController::cancel);

        finished.clear();
        TuneOptions again = request(2, 2);
        again.runId = stopped->runId;
        again.resume = true;
        tune.start(again);
        QVERIFY2(waitEnd(finished, errors),
                 errors.isEmpty() ? "timed out" : qPrintable(errors.front().front().toString()));
        const TuneReportPtr resumed = finished.front().front().value<TuneReportPtr>();
        QVERIFY(!resumed->cancelled);
        QCOMPARE(resumed->runId, stopped->runId);
        QCOMPARE(int(resumed->rounds.size()), 1); // only the round still to do
        QCOMPARE(resumed->rounds.front().round, 1);
        // Each schedule of the run is in the database once: the resume measured none again.
        MeasurementStore store(db.toStdString());
        RecordFilter mine;
        mine.runId = stopped->runId;
        std::set<std::string> hashes;
        for (const MeasurementRecord &r : store.records(mine))
            QVERIFY2(hashes.insert(r.scheduleHash).second, r.scheduleHash.c_str());
    }

    void noDatabaseIsOneErrorLine() {
        TuneController tune; // no database path set
        QSignalSpy finished(&tune, &TuneController::finished);
        QSignalSpy errors(&tune, &TuneController::error);
        tune.start(request(1, 1));
        QTRY_COMPARE_WITH_TIMEOUT(errors.count(), 1, 30000);
        QVERIFY(finished.isEmpty());
        QVERIFY(!errors.front().front().toString().contains(QLatin1Char('\n')));
        QVERIFY(!tune.isBusy());

        QTemporaryDir dir; // a directory where the file should be: cannot be opened
        tune.setDatabasePath(dir.path());
        tune.start(request(1, 1));
        QTRY_COMPARE_WITH_TIMEOUT(errors.count(), 2, 30000);
        QVERIFY(errors.at(1).at(0).toString().contains(QStringLiteral("measurement database")));
    }
};

QTEST_GUILESS_MAIN(TuneControllerTest)
#include "TuneControllerTest.moc"
