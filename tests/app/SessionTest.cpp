// Sessions: a saved session (pipeline, options, pins, step) reopened in a fresh controller
// replays to the same beam; files are written atomically; bad files give one-line errors.
#include "../views/RealSearch.h"

#include "controllers/SearchController.h"
#include "controllers/SessionController.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace beamscope;

namespace {
bool waitIdle(SearchController &c) {
    QElapsedTimer t;
    t.start();
    while (c.isBusy() && t.elapsed() < 120000)
        QTest::qWait(5);
    return !c.isBusy();
}
std::vector<std::pair<uint64_t, double>> beamKey(const SearchStep &step) {
    std::vector<std::pair<uint64_t, double>> out;
    for (const BeamEntry &e : step.beam)
        out.push_back({e.hash, e.cost.total});
    return out;
}
} // namespace

class SessionTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void reopeningReplaysTheSameBeam() {
        QTemporaryDir dir;
        const QString path = dir.filePath("session.json");
        PipelineSource source;
        source.name = "stencil_chain";
        source.params = {"length=5"};
        SearchOptions options = test::testOptions(8, 2, 11);
        options.sampling = true;
        options.freezing = false;
        Pin pin;
        pin.func = "stage_1";
        pin.location = ComputeKind::Root;
        options.pins = {pin};

        SearchController first;
        SessionController firstSessions(&first);
        firstSessions.setGpuName("v100");
        first.load(source, options);
        first.stepTo(7);
        QVERIFY(waitIdle(first));
        QCOMPARE(first.stepsDone(), 7);
        QSignalSpy saved(&firstSessions, &SessionController::saved);
        QVERIFY(firstSessions.save(path));
        QCOMPARE(saved.count(), 1);

        SearchController second;
        SessionController secondSessions(&second);
        QSignalSpy opened(&secondSessions, &SessionController::opened);
        QVERIFY(secondSessions.open(path));
        QCOMPARE(opened.count(), 1);
        QCOMPARE(opened.front().at(1).toString(), QStringLiteral("v100"));
        QVERIFY(waitIdle(second));
        QCOMPARE(second.stepsDone(), 7);
        QCOMPARE(second.options().seed, uint64_t(11));
        QCOMPARE(second.options().freezing, false);
        QCOMPARE(second.options().pins.size(), size_t(1));
        QCOMPARE(second.options().pins.front().func, std::string("stage_1"));
        QCOMPARE(second.lastStep()->index, first.lastStep()->index);
        QCOMPARE(beamKey(*second.lastStep()), beamKey(*first.lastStep()));
    }

    void jsonRoundTrip() {
        Session s;
        s.source.name = "harris";
        s.source.generatorLibrary = "/tmp/libgen.so";
        s.source.params = {"a=1"};
        s.source.estimates = {"out=0:64,0:32"};
        s.source.inputs = {"amount=0.5", "passes=3"};
        s.options = test::testOptions(3, 4, 99);
        s.options.memoization = false;
        s.options.freezeMinFuncs = 7;
        s.gpuName = "a100";
        s.steps = 12;
        const Session back = sessionFromJson(sessionToJson(s));
        QCOMPARE(back.options.freezeMinFuncs, 7);
        // A session saved before the freezing threshold froze every pipeline: it replays so.
        nlohmann::json old = sessionToJson(s);
        old["search"].erase("freeze_min_funcs");
        QCOMPARE(sessionFromJson(old).options.freezeMinFuncs, 0);
        QCOMPARE(back.source.generatorLibrary, s.source.generatorLibrary);
        QCOMPARE(back.source.params, s.source.params);
        QCOMPARE(back.source.estimates, s.source.estimates);
        QCOMPARE(back.source.inputs, s.source.inputs);
        QCOMPARE(back.options.beamSize, 3);
        QCOMPARE(back.options.passes, 4);
        QCOMPARE(back.options.seed, uint64_t(99));
        QCOMPARE(back.options.memoization, false);
        QVERIFY(back.options.gpu == s.options.gpu);
        QCOMPARE(back.steps, 12);
    }

    void badFilesGiveOneLineErrors() {
        QTemporaryDir dir;
        QString error;
        QVERIFY(!SessionController::readSession(dir.filePath("missing.json"), &error));
        QVERIFY(error.contains("cannot read"));
        QFile bad(dir.filePath("bad.json"));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("{\"format\": \"beamscope-session\", \"version\": 1}");
        bad.close();
        QVERIFY(!SessionController::readSession(bad.fileName(), &error));
        QVERIFY(error.contains("pipeline"));
        QVERIFY(!error.contains('\n'));
        QVERIFY(!SessionController::writeSession(dir.filePath("no/such/dir/s.json"), Session{},
                                                 &error));
        QVERIFY(error.contains("cannot write"));
    }
};

QTEST_MAIN(SessionTest)
#include "SessionTest.moc"
