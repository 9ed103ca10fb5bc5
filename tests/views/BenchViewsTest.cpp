// The benchmark views: BenchResultsModel under QAbstractItemModelTester while rows arrive one by
// one (candidates stay above the baselines), then a whole report replaces them; its cells say
// what a Halide user reads (times without units under a unit header, yes/NO, the chosen star);
// the chart plots measured candidates only and one line per measured baseline; the panel's Run
// button follows availability and busy state.
#include "bench/BenchRun.h"
#include "views/benchmark/BenchPanel.h"
#include "views/benchmark/BenchResultsModel.h"
#include "views/benchmark/PredictedMeasuredChart.h"

#include <QAbstractItemModelTester>
#include <QProgressBar>
#include <QPushButton>
#include <QTest>

using namespace beamscope;

namespace {

Measurement row(const std::string &label, double predicted, std::optional<double> measured,
                std::optional<bool> correct) {
    Measurement m;
    m.label = label;
    m.predicted = predicted;
    if (measured) m.measuredMs = RunTimes{*measured, *measured * 0.9, *measured * 1.2};
    m.correct = correct;
    m.maxError = 0;
    return m;
}

QString cell(const BenchResultsModel &model, int r, int column) {
    return model.data(model.index(r, column)).toString();
}

} // namespace

class BenchViewsTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void crashedRowLeadsWithTheTriageVerdict() {
        BenchResultsModel model;
        Measurement crashed = row("greedy#2", 0.8, std::nullopt, std::nullopt);
        crashed.failure = "crash: signal 11 (Segmentation fault); triage: device compiler "
                          "crashed (correct on the host with bounds checks; ...)";
        crashed.crashVerdict = "device compiler crashed";
        model.addMeasurement(crashed, false);
        QCOMPARE(cell(model, 0, BenchResultsModel::FailureColumn),
                 QStringLiteral("crash: device compiler crashed"));
        QCOMPARE(model.data(model.index(0, BenchResultsModel::FailureColumn), Qt::ToolTipRole)
                     .toString(),
                 QString::fromStdString(crashed.failure));
    }
    void rowsArriveInTwoSections() {
        BenchResultsModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        PredictedMeasuredChart chart(&model);
        model.addMeasurement(row("beam#0", 0.5, 1.25, true), false);
        Measurement naive = row("baseline:naive", Measurement::kUnknown, 3.0, true);
        naive.searchMs = 0.2;
        model.addMeasurement(naive, true);
        Measurement failed = row("beam#1", 0.7, std::nullopt, std::nullopt);
        failed.failure = "hang: timed out after 120 s";
        model.addMeasurement(failed, false);
        model.addMeasurement(row("greedy#0", 0.9, 2.0, false), false);
        Measurement reused = row("result", 0.4, 1.1, true);
        reused.reused = true; // taken from the measurement database, not run again
        model.addMeasurement(reused, false);

        QCOMPARE(model.rowCount(), 5);
        QCOMPARE(model.candidateCount(), 4);
        QCOMPARE(model.baselineCount(), 1);
        // A CLI report's 0-based labels read from 1, as the Beam dock counts.
        QCOMPARE(cell(model, 0, BenchResultsModel::ScheduleColumn), QStringLiteral("beam #1"));
        QCOMPARE(cell(model, 1, BenchResultsModel::ScheduleColumn), QStringLiteral("beam #2"));
        QCOMPARE(cell(model, 3, BenchResultsModel::ScheduleColumn),
                 QStringLiteral("result (reused)"));
        QCOMPARE(cell(model, 4, BenchResultsModel::ScheduleColumn), QStringLiteral("naive"));
        QCOMPARE(cell(model, 4, BenchResultsModel::KindColumn), QStringLiteral("baseline"));
        QCOMPARE(cell(model, 2, BenchResultsModel::KindColumn), QStringLiteral("greedy"));
        QCOMPARE(cell(model, 0, BenchResultsModel::MeasuredColumn), QStringLiteral("1.25"));
        QCOMPARE(cell(model, 4, BenchResultsModel::PredictedColumn), QString());
        QCOMPARE(cell(model, 4, BenchResultsModel::SearchColumn), QStringLiteral("0.2"));
        QCOMPARE(cell(model, 0, BenchResultsModel::CorrectColumn), QStringLiteral("yes"));
        QCOMPARE(cell(model, 2, BenchResultsModel::CorrectColumn), QStringLiteral("NO"));
        QCOMPARE(cell(model, 1, BenchResultsModel::FailureColumn),
                 QStringLiteral("hang: timed out after 120 s"));
        QVERIFY(model.data(model.index(0, BenchResultsModel::MeasuredColumn), Qt::ToolTipRole)
                    .toString()
                    .contains("min 1.125 ms"));
        QVERIFY(model.headerData(BenchResultsModel::MeasuredColumn, Qt::Horizontal)
                    .toString()
                    .endsWith(" ms"));
        // Measured candidates are points (the failed one is not); the baseline is a line.
        QCOMPARE(chart.candidatePointCount(), 3);
        QCOMPARE(chart.baselineLineCount(), 1);

        model.setChosen(0);
        // In words: ★ marks the search's result in the Beam dock.
        QCOMPARE(cell(model, 0, BenchResultsModel::ScheduleColumn),
                 QStringLiteral("beam #1 (chosen)"));
        model.setChosen(3);
        QCOMPARE(cell(model, 3, BenchResultsModel::ScheduleColumn),
                 QStringLiteral("result (reused, chosen)"));
        model.setChosen(0);
        QCOMPARE(model.chosenRow(), 0);
        QVERIFY(model.data(model.index(0, 0), Qt::FontRole).value<QFont>().bold());
    }

    void aReportReplacesTheRows() {
        BenchResultsModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.addMeasurement(row("beam#0", 0.5, 1.0, true), false);
        model.setResults({row("beam#0", 0.5, 1.0, true), row("beam#1", 0.6, 0.8, true)},
                         {row("baseline:anderson2021", Measurement::kUnknown, 0.9, true)}, 1);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.chosenRow(), 1);
        QVERIFY(model.isBaseline(2));
        model.clear();
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.chosenRow(), -1);
    }

    void panelFollowsAvailabilityAndReports() {
        BenchPanel panel;
        QVERIFY(!panel.runButton()->isEnabled());
        QVERIFY(!panel.hint().isEmpty());
        panel.setAvailable(true, QStringLiteral("ready"));
        QVERIFY(panel.runButton()->isEnabled());
        BenchSettings settings;
        settings.count = 3;
        settings.greedySamples = 2;
        // In the menu's order; anderson2021-paper is Halide's plugin with the paper's sampling
        // and freezing on.
        settings.baselines = {QStringLiteral("naive"), QStringLiteral("anderson2021-paper"),
                              QStringLiteral("li2018")};
        panel.setSettings(settings);
        const BenchSettings back = panel.settings();
        QCOMPARE(back.count, 3);
        QCOMPARE(back.greedySamples, 2);
        QCOMPARE(back.baselines, settings.baselines);

        panel.setBusy(true);
        QVERIFY(!panel.runButton()->isEnabled());
        QVERIFY(panel.cancelButton()->isEnabled());
        panel.beginRun(QStringLiteral("v100"));
        panel.addMeasurement(row("beam#0", 0.5, 1.0, true), false);
        QCOMPARE(panel.model()->rowCount(), 1);
        auto report = std::make_shared<BenchReport>();
        report->candidates = {row("beam#0", 0.5, 1.0, true)};
        report->baselines = {row("baseline:naive", Measurement::kUnknown, 2.5, true)};
        report->chosen = 0;
        // Searched for the V100 model, measured on an OpenCL CPU device: the verdict compares
        // with naive and says which model fits the device.
        report->gpu = GpuSpec::load("v100");
        report->device.kind = DeviceKind::OpenCL;
        report->device.openclType = "CPU";
        panel.showReport(report);
        QCOMPARE(panel.findChildren<QProgressBar *>().size(), 1);
        const QProgressBar *progress = panel.findChild<QProgressBar *>();
        QVERIFY2(progress->format().startsWith(QStringLiteral("done: 2 rows in ")),
                 qPrintable(progress->format()));
        QVERIFY2(panel.verdictText().contains(QStringLiteral("2.50× faster than naive")),
                 qPrintable(panel.verdictText()));
        QVERIFY2(
            panel.verdictText().contains(QString::fromStdString(GpuSpec::load("pocl-cpu").name)),
            qPrintable(panel.verdictText()));
        panel.setBusy(false);
        QCOMPARE(panel.model()->rowCount(), 2);
        QCOMPARE(panel.model()->chosenRow(), 0);
        QVERIFY(panel.runButton()->isEnabled());
        auto one = std::make_shared<BenchReport>(*report);
        one->baselines.clear();
        panel.showReport(one);
        QVERIFY2(progress->format().startsWith(QStringLiteral("done: 1 row in ")),
                 qPrintable(progress->format())); // not "1 rows"
        panel.showReport(nullptr);
        QCOMPARE(panel.model()->rowCount(), 0);
    }
};

QTEST_MAIN(BenchViewsTest)
#include "BenchViewsTest.moc"
