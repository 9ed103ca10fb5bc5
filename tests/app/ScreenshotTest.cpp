// The beamscope executable as a user runs it: --screenshot renders the window offscreen after N
// steps and writes a PNG; bad input prints one line on stderr and exits non-zero.
#include <QColor>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Run {
    int exitCode = -1;
    QString err;
};

Run runBeamscope(const QStringList &args, int timeoutMs = 300000) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("QT_QPA_PLATFORM", "offscreen");
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(BEAMSCOPE_GUI_EXE), args);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return {};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromLocal8Bit(p.readAllStandardError())};
}

} // namespace

class ScreenshotTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void screenshotAfterSteps() {
        QTemporaryDir dir;
        const QString png = dir.filePath("shot.png");
        const Run run = runBeamscope(
            {"--app", "stencil_chain", "-p", "length=4", "--steps", "6", "--screenshot", png});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() >= 1200 && image.height() >= 700);
        // A real window: many colours (DAG fills, charts, text), not a blank grab.
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 7) {
            for (int x = 0; x < image.width(); x += 7)
                colours.insert(image.pixel(x, y));
        }
        QVERIFY2(colours.size() > 200, qPrintable(QString::number(colours.size())));
    }

    // --compare-with: the screenshot waits for the import (on the GUI's worker) once the search
    // has settled.
    void screenshotWithAnImportedSide() {
        QTemporaryDir dir;
        const QString png = dir.filePath("import.png");
        const Run run = runBeamscope({"--app", "stencil_chain", "-p", "length=4", "-p", "width=128",
                                      "-p", "height=96", "--beam", "1", "--passes", "1", "--steps",
                                      "10000", "--compare-with", "naive", "--screenshot", png});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY(!QImage(png).isNull());
    }

    void badInputIsOneLineAndNonZero_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expect");
        QTest::newRow("unknown app") << QStringList{"--app", "nope"} << "unknown app 'nope'";
        QTest::newRow("bad param")
            << QStringList{"--app", "stencil_chain", "-p", "length=0"} << "length";
        QTest::newRow("unknown param")
            << QStringList{"--app", "stencil_chain", "-p", "size=3"} << "no parameter 'size'";
        QTest::newRow("bad steps")
            << QStringList{"--app", "stencil_chain", "--steps", "x"} << "--steps";
        QTest::newRow("unknown option") << QStringList{"--frobnicate"} << "frobnicate";
        QTest::newRow("bad gpu") << QStringList{"--app", "stencil_chain", "--gpu", "tpu9000"}
                                 << "tpu9000";
        QTest::newRow("missing gpu file")
            << QStringList{"--app", "stencil_chain", "--gpu", "/missing/gpu.json"}
            << "--gpu: no such file '/missing/gpu.json'";
        QTest::newRow("missing model file")
            << QStringList{"--app", "stencil_chain", "--cost-model", "/missing/model.json"}
            << "--cost-model: no such file '/missing/model.json'";
        QTest::newRow("missing session")
            << QStringList{"/missing/MISSING.json", "--screenshot", "/tmp/never.png"}
            << "no such session file '/missing/MISSING.json'";
        QTest::newRow("unknown import") << QStringList{"--app",  "stencil_chain", "--compare-with",
                                                       "halide", "--screenshot",  "/tmp/n.png"}
                                        << "--compare-with: 'halide' is neither a baseline";
        QTest::newRow("unknown dock")
            << QStringList{"--app",  "stencil_chain", "--dock",
                           "Nosuch", "--screenshot",  "/tmp/n.png"}
            << "no dock 'Nosuch' (docks: Beam, Benchmark, Candidates, Compare, Cost, Export, Loop "
               "nest, Pipeline, Timeline, Tune)";
    }

    // A session that exists but is not one: the screenshot runner says so in one line and exits
    // (it used to print the line and wait forever, the error coming before the event loop ran).
    void aSessionThatIsNotJsonExitsWithOneLine() {
        QTemporaryDir dir;
        const QString session = dir.filePath("notes.json");
        QFile file(session);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("these are notes\n");
        file.close();
        const Run run = runBeamscope({session, "--screenshot", dir.filePath("x.png")}, 60000);
        QVERIFY2(run.exitCode == 1, qPrintable(run.err)); // -1: it hung
        QCOMPARE(run.err.count('\n'), 1);
        QVERIFY2(run.err.startsWith("beamscope: ") && run.err.contains("not valid JSON"),
                 qPrintable(run.err));
        QVERIFY(!QFile::exists(dir.filePath("x.png")));
    }

    void badInputIsOneLineAndNonZero() {
        QFETCH(QStringList, args);
        QFETCH(QString, expect);
        const Run run = runBeamscope(args, 60000);
        QVERIFY(run.exitCode != 0 && run.exitCode != -1);
        QCOMPARE(run.err.count('\n'), 1);
        QVERIFY2(run.err.startsWith("beamscope: ") && run.err.contains(expect),
                 qPrintable(run.err));
    }
};

QTEST_MAIN(ScreenshotTest)
#include "ScreenshotTest.moc"
