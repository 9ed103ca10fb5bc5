// BenchmarkController on the real OpenCL device (PoCL here): the beam's top 2 schedules of a small
// stencil chain and the naive baseline are measured in worker processes, rows arrive one by one
// and are all correct, progress only goes forward; cancelling after the first row ends the run
// with fewer rows and the controller idle; a bad request is one error line; the measurements
// survive saving and reopening the session.
#include "../views/RealSearch.h"

#include "bench/CandidateSampler.h"
#include "controllers/BenchmarkController.h"
#include "controllers/SearchController.h"
#include "controllers/SessionController.h"
#include "measure/DeviceDetect.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace beamscope;

namespace {

const std::vector<std::string> kParams = {"length=3", "width=64", "height=64"};

bool haveOpenCl() {
    static const bool have = detectOpenClDevice().kind == DeviceKind::OpenCL;
    return have;
}

/// The beam of a short real search and a request measuring its top `k` plus the naive baseline.
BenchOptions request(int k) {
    static const test::RealSearch search =
        test::runSearch("stencil_chain", kParams, test::testOptions(8, 1, 3));
    BenchOptions options;
    options.source = {"stencil_chain", "", kParams};
    options.search = test::testOptions(8, 1, 3);
    options.dag = search.dag;
    options.device = DevicePreference::OpenCL;
    options.mode = BenchMode::TopK;
    options.candidates = topOfBeam(nullptr, search.steps.back()->beam, k, Measurement::kUnknown);
    options.baselines = {Baseline::Naive};
    options.repeats = 2;
    options.timeoutS = 120;
#ifdef BEAMSCOPE_TEST_WORKER
    options.workerPath = BEAMSCOPE_TEST_WORKER;
#endif
    return options;
}

bool waitFinished(QSignalSpy &finished, QSignalSpy &errors, int timeoutMs = 300000) {
    QElapsedTimer t;
    t.start();
    while (finished.isEmpty() && errors.isEmpty() && t.elapsed() < timeoutMs)
        QTest::qWait(20);
    return !finished.isEmpty();
}

} // namespace

class BenchmarkControllerTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(haveOpenCl(), "no OpenCL device: PoCL is part of the test machine's set-up");
    }

    void measuresTheBeamAndABaseline() {
        BenchmarkController bench;
        QSignalSpy measured(&bench, &BenchmarkController::measured);
        QSignalSpy progress(&bench, &BenchmarkController::progress);
        QSignalSpy finished(&bench, &BenchmarkController::finished);
        QSignalSpy errors(&bench, &BenchmarkController::error);
        QSignalSpy busy(&bench, &BenchmarkController::busyChanged);
        BenchOptions options = request(2);
        QCOMPARE(options.candidates->size(), size_t(2));
        bench.start(options);
        QVERIFY(bench.isBusy());
        QVERIFY2(waitFinished(finished, errors),
                 errors.isEmpty() ? "timed out" : qPrintable(errors.front().at(0).toString()));
        QVERIFY(!bench.isBusy());
        QCOMPARE(busy.count(), 2);

        QCOMPARE(measured.count(), 3);
        for (const QList<QVariant> &row : measured) {
            const auto m = row.at(0).value<Measurement>();
            QVERIFY2(m.correct.value_or(false), m.failure.c_str());
            QVERIFY(m.measuredMs);
        }
        QCOMPARE(measured.back().at(1).toBool(), true); // the baseline comes last
        int lastDone = -1;
        for (const QList<QVariant> &p : progress) {
            QVERIFY(p.at(0).toInt() >= lastDone);
            QCOMPARE(p.at(1).toInt(), 3);
            lastDone = p.at(0).toInt();
        }
        QCOMPARE(lastDone, 3);

        const auto report = finished.front().at(0).value<BenchReportPtr>();
        QVERIFY(!report->cancelled);
        QCOMPARE(report->candidates.size(), size_t(2));
        QCOMPARE(report->baselines.size(), size_t(1));
        QVERIFY(report->chosen >= 0);
        QCOMPARE(report->device.kind, DeviceKind::OpenCL);
        QVERIFY(std::isfinite(report->candidates.front().predicted));
        QCOMPARE(bench.lastReport(), report);

        // The measurements are saved with the session and come back when it is reopened.
        QTemporaryDir dir;
        const QString path = dir.filePath("bench-session.json");
        SearchController search;
        SessionController sessions(&search);
        // load builds the pipeline on the worker first (user code may crash there); the session
        // names the search once it has loaded.
        QSignalSpy loaded(&search, &SearchController::loaded);
        search.load(options.source, options.search);
        QVERIFY(loaded.count() > 0 || loaded.wait(60000));
        sessions.setBenchmark(report);
        QVERIFY(sessions.save(path));
        SearchController search2;
        SessionController sessions2(&search2);
        QSignalSpy restored(&sessions2, &SessionController::benchmarkOpened);
        QVERIFY(sessions2.open(path));
        QCOMPARE(restored.count(), 1);
        const auto back = restored.front().at(0).value<std::shared_ptr<const BenchReport>>();
        QVERIFY(back);
        QCOMPARE(back->candidates.size(), report->candidates.size());
        QCOMPARE(back->baselines.front().label, report->baselines.front().label);
        QCOMPARE(back->candidates.front().measuredMs, report->candidates.front().measuredMs);
        QCOMPARE(back->chosen, report->chosen);
        QCOMPARE(back->device.name, report->device.name);
        QVERIFY(back->schedules.front() == report->schedules.front());
    }

    void cancelAfterTheFirstRow() {
        BenchmarkController bench;
        QSignalSpy finished(&bench, &BenchmarkController::finished);
        QSignalSpy errors(&bench, &BenchmarkController::error);
        int rows = 0;
        connect(&bench, &BenchmarkController::measured, &bench, [&] {
            if (++rows == 1) bench.cancel();
        });
        bench.start(request(2));
        QVERIFY(waitFinished(finished, errors));
        const auto report = finished.front().at(0).value<BenchReportPtr>();
        QVERIFY(report->cancelled);
        QVERIFY(report->candidates.size() + report->baselines.size() < 3);
        QVERIFY(!report->candidates.empty()); // the finished row is kept
        QVERIFY(report->candidates.front().correct.value_or(false));
        QVERIFY(!bench.isBusy());
        QCOMPARE(rows, int(report->candidates.size() + report->baselines.size()));
    }

    void aMissingDeviceIsOneErrorLine() {
        if (detectCudaDevice().kind == DeviceKind::Cuda) QSKIP("a CUDA device is present");
        BenchmarkController bench;
        QSignalSpy finished(&bench, &BenchmarkController::finished);
        QSignalSpy errors(&bench, &BenchmarkController::error);
        BenchOptions options = request(1);
        options.device = DevicePreference::Cuda;
        bench.start(options);
        QVERIFY(!waitFinished(finished, errors, 60000));
        QCOMPARE(errors.count(), 1);
        const QString message = errors.front().at(0).toString();
        QVERIFY(message.contains("CUDA"));
        QVERIFY(!message.contains('\n'));
        QVERIFY(!bench.isBusy());
    }
};

QTEST_MAIN(BenchmarkControllerTest)
#include "BenchmarkControllerTest.moc"
