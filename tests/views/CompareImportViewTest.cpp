// The Compare dock with an imported side, through the real CompareCoordinator: the import runs
// on a worker (importSide returns at once), side B is the naive GPU schedule read back from the
// Funcs of a fresh stencil_chain (16x16 threads per root Func, as applyNaiveGpuSchedule writes
// it), costed with the search's model beside the search's result on A; CompareModel under
// QAbstractItemModelTester all along; "Why not B's decision?" asks the hub about B's decision;
// "B in Loop nest" inspects it. Mullapudi2016 on bilateral_grid is not representable (its
// histogram update puts GPU thread loops inside serial ones): the dock names the Func and
// leaves B empty. A file that cannot be read is one line. --compare-with is checked before the
// window opens. Small sizes (about a second). A real benchmark on PoCL (the search's result and
// the naive baseline, 64x64) gives both captions their measured medians: A's matched by its
// schedule, when the benchmark finishes after the import and when the import follows it.
#include "RealSearch.h"

#include "CommandLine.h"
#include "CompareCoordinator.h"
#include "bench/CandidateSampler.h"
#include "controllers/BenchmarkController.h"
#include "controllers/SearchController.h"
#include "measure/DeviceDetect.h"
#include "util/Error.h"
#include "views/common/Format.h"
#include "views/common/SelectionHub.h"
#include "views/compare/CompareModel.h"
#include "views/compare/CompareView.h"

#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include <cmath>
#include <functional>

using namespace beamscope;

Q_DECLARE_METATYPE(beamscope::Pin)

namespace {

bool waitFor(const std::function<bool()> &done, int timeoutMs = 120000) {
    QElapsedTimer t;
    t.start();
    while (!done() && t.elapsed() < timeoutMs)
        QTest::qWait(10);
    return done();
}

/// A search controller wired to a hub as the main window wires them, with the Compare dock and
/// its coordinator.
struct Dock {
    SelectionHub hub;
    SearchController search;
    CompareView view{&hub};
    CompareCoordinator coordinator{&view, &hub, &search, {}};
    QAbstractItemModelTester tester{view.model(),
                                    QAbstractItemModelTester::FailureReportingMode::Fatal};

    Dock() {
        QObject::connect(&search, &SearchController::loaded, &hub, &SelectionHub::setDag);
        QObject::connect(&search, &SearchController::stepped, &hub, &SelectionHub::setStep);
    }
    bool load(const std::string &app, std::vector<std::string> params, bool runSearch) {
        PipelineSource source;
        source.name = app;
        source.params = std::move(params);
        search.load(source, test::testOptions(1, 1));
        if (!waitFor([this] { return !search.isBusy() && hub.dag(); })) return false;
        if (!runSearch) return true;
        search.runToEnd();
        return waitFor([this] { return !search.isBusy() && hub.step() && hub.step()->finished; });
    }
    bool import(const QString &with) {
        coordinator.importSide(with);
        return waitFor([this] { return !coordinator.isImporting(); });
    }
};

} // namespace

class CompareImportViewTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void importedSideIsShownBesideTheSearch() {
        qRegisterMetaType<beamscope::Pin>("beamscope::Pin");
        Dock dock;
        QVERIFY(dock.load("stencil_chain", {"length=3", "width=128", "height=96"}, true));

        dock.coordinator.importSide(QStringLiteral("naive"));
        // On a worker: the call returns before the schedule is read, saying so.
        QVERIFY(dock.coordinator.isImporting());
        QVERIFY2(dock.view.importStatus().contains("Importing"),
                 qPrintable(dock.view.importStatus()));
        QVERIFY(waitFor([&] { return !dock.coordinator.isImporting(); }));

        const CompareModel *model = dock.view.model();
        QVERIFY2(model->side(1).isSet(), qPrintable(dock.view.importStatus()));
        QVERIFY(model->comparable());
        QVERIFY2(dock.view.importStatus().contains("Funcs representable"),
                 qPrintable(dock.view.importStatus()));
        // A is the search's result, costed by the same model as B (same terms).
        QCOMPARE(model->side(0).state, dock.hub.step()->best->state);
        QVERIFY(model->side(1).cost.has_value());
        QCOMPARE(model->side(1).termNames, model->side(0).termNames);
        QVERIFY(model->side(1).label.contains("naive"));
        QVERIFY(std::isfinite(model->cost(1, dock.hub.dag()->find("output"))));

        // The output is root with 16x16 threads on B, as the naive schedule writes it.
        const int output = dock.hub.dag()->find("output");
        dock.hub.selectFunc(output);
        const QString bText =
            model->indexOfRow(model->rowOfFunc(output), CompareModel::BColumn).data().toString();
        QVERIFY2(bText.contains(QStringLiteral("threads 16×16")), qPrintable(bText));

        // Why not B's decision? asks the search on screen about exactly that decision.
        QSignalSpy why(&dock.hub, &SelectionHub::whyRequested);
        auto *whyB = dock.view.findChild<QPushButton *>(QStringLiteral("compareWhyB"));
        QVERIFY(whyB && whyB->isEnabled());
        whyB->click();
        QCOMPARE(why.count(), 1);
        const Pin pin = why.last().front().value<Pin>();
        QCOMPARE(pin.func, std::string("output"));
        QVERIFY(pin.location == ComputeKind::Root);
        QCOMPARE(pin.threads, (std::vector<int64_t>{16, 16}));

        // B in Loop nest: the hub inspects B's state.
        auto *loops = dock.view.findChild<QPushButton *>(QStringLiteral("compareLoopNestB"));
        QVERIFY(loops && loops->isEnabled());
        loops->click();
        QCOMPARE(dock.hub.state(), model->side(1).state);
        QVERIFY(dock.hub.stateLabel().contains("naive"));
    }

    void measuredTimesComeFromTheBenchmarkDock() {
        QVERIFY2(detectOpenClDevice().kind == DeviceKind::OpenCL,
                 "no OpenCL device: PoCL is part of the test machine's set-up");
        Dock dock;
        const std::vector<std::string> params = {"length=3", "width=64", "height=64"};
        QVERIFY(dock.load("stencil_chain", params, true));
        BenchmarkController bench;
        QTableView table;
        dock.coordinator.watchBenchTable(&table, &bench);
        auto *captionA = dock.view.findChild<QLabel *>(QStringLiteral("compareCaptionA"));
        auto *captionB = dock.view.findChild<QLabel *>(QStringLiteral("compareCaptionB"));
        QVERIFY(captionA && captionB);

        // Imported before any benchmark: neither side has a measured time.
        QVERIFY(dock.import(QStringLiteral("naive")));
        const CompareModel *model = dock.view.model();
        QVERIFY2(model->side(1).isSet(), qPrintable(dock.view.importStatus()));
        QVERIFY(!captionA->text().contains("measured"));
        QVERIFY(!captionB->text().contains("measured"));

        // The Benchmark dock measures the search's result and the naive baseline on PoCL.
        BenchOptions options;
        options.source = {"stencil_chain", "", params};
        options.search = dock.search.options();
        options.dag = dock.hub.dag();
        options.device = DevicePreference::OpenCL;
        options.mode = BenchMode::TopK;
        const SearchStepPtr step = dock.hub.step();
        options.candidates = topOfBeam(&*step->best, step->beam, 1, Measurement::kUnknown);
        options.baselines = {Baseline::Naive};
        options.repeats = 2;
        QSignalSpy finished(&bench, &BenchmarkController::finished);
        bench.start(options);
        QVERIFY(waitFor([&] { return !finished.isEmpty(); }, 300000));
        const BenchReportPtr report = bench.lastReport();
        // The expected medians, read from the report's rows by label.
        std::optional<double> result, naive;
        for (const Measurement &m : report->candidates)
            if (m.label == "result" && m.measuredMs) result = m.measuredMs->median;
        for (const Measurement &m : report->baselines)
            if (m.label == "baseline:naive" && m.measuredMs) naive = m.measuredMs->median;
        QVERIFY2(result && naive, "the benchmark measured no result or no baseline");

        // Finished after the import: A (the search's result, matched by its schedule) and B
        // (the plugin's own application) carry their medians.
        QCOMPARE(model->side(0).measuredMs, result);
        QCOMPARE(model->side(1).measuredMs, naive);
        const QString measuredA = QStringLiteral("measured %1").arg(format::ms(*result));
        QVERIFY2(captionA->text().contains(measuredA), qPrintable(captionA->text()));
        QVERIFY2(captionB->text().contains(QStringLiteral("measured %1").arg(format::ms(*naive))),
                 qPrintable(captionB->text()));
        // Where and as what each was measured, in the tooltip: PoCL's times are a CPU's.
        QCOMPARE(captionA->toolTip(), QStringLiteral("Measured %1: OpenCL CPU, Benchmark dock: "
                                                     "result")
                                          .arg(format::ms(*result)));
        QVERIFY2(captionB->toolTip().contains("OpenCL CPU, Benchmark dock: the plugin's own"),
                 qPrintable(captionB->toolTip()));

        // Imported after the benchmark: A has its measured time at once.
        dock.view.setSide(0, CompareSide{});
        QVERIFY(dock.import(QStringLiteral("naive")));
        QCOMPARE(model->side(0).measuredMs, result);
        QVERIFY2(captionA->text().contains(measuredA), qPrintable(captionA->text()));

        // The pipeline loaded again is another DAG: the same schedule is not taken as measured
        // by a run of the old one (it may have had another size).
        QVERIFY(dock.load("stencil_chain", params, true));
        dock.view.setSide(0, CompareSide{});
        QVERIFY(dock.import(QStringLiteral("naive")));
        QVERIFY(model->side(0).isSet() && model->side(1).isSet());
        QVERIFY(!model->side(0).measuredMs && !model->side(1).measuredMs);
    }

    void unrepresentableImportNamesTheConstructs() {
        Dock dock;
        QVERIFY(dock.load("bilateral_grid", {"width=128", "height=96"}, false));
        QVERIFY(dock.import(QStringLiteral("mullapudi2016")));
        const QString status = dock.view.importStatus();
        QVERIFY2(status.contains("not representable") && status.contains("histogram") &&
                     status.contains("thread"),
                 qPrintable(status));
        QVERIFY(!dock.view.model()->side(1).isSet());
        auto *label = dock.view.findChild<QLabel *>(QStringLiteral("compareImportStatus"));
        QVERIFY(label && !label->isHidden());
        QVERIFY2(label->toolTip().contains("histogram"), qPrintable(label->toolTip()));
    }

    void unreadableFileIsOneLine() {
        Dock dock;
        QVERIFY(dock.load("stencil_chain", {"length=3", "width=128", "height=96"}, false));
        QVERIFY(dock.import(QStringLiteral("/nonexistent/schedule.json")));
        const QString status = dock.view.importStatus();
        QVERIFY2(status.startsWith("Could not import") && status.contains("schedule.json") &&
                     !status.contains('\n'),
                 qPrintable(status));
        QVERIFY(!dock.view.model()->side(1).isSet());
    }

    void compareWithIsCheckedOnTheCommandLine() {
        const QStringList base = {"beamscope", "--app", "unsharp_mask", "--steps", "100"};
        const GuiArguments a =
            parseGuiArguments(base + QStringList{"--compare-with", "Anderson2021-Paper",
                                                 "--screenshot", "/tmp/s.png"});
        QCOMPARE(a.compareWith, QStringLiteral("anderson2021-paper"));
        const auto fails = [&](const QStringList &args, const char *expected) {
            try {
                parseGuiArguments(base + args);
            } catch (const UsageError &e) {
                const QString message = QString::fromUtf8(e.what());
                if (message.contains(QLatin1String(expected)) && !message.contains('\n'))
                    return true;
                qWarning("message: %s", e.what());
            }
            return false;
        };
        QVERIFY(fails({"--compare-with", "halide", "--screenshot", "/tmp/s.png"}, "mullapudi2016"));
        QVERIFY(fails({"--compare-with", "/nonexistent/s.json", "--screenshot", "/tmp/s.png"},
                      "no such file"));
        QVERIFY(fails({"--compare-with", "li2018"}, "--compare-with needs --screenshot"));
        QVERIFY(
            fails({"--compare-with", "li2018", "--compare", "1,2", "--screenshot", "/tmp/s.png"},
                  "not both"));
    }
};

QTEST_MAIN(CompareImportViewTest)
#include "CompareImportViewTest.moc"
