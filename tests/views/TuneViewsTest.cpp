// Tune dock views offscreen: the rounds model under QAbstractItemModelTester (append, replace a
// round, reset), its cells; the charts follow the rounds (best-so-far points, one scatter series
// per round named with its tau); the panel's buttons follow availability, busy and resumability,
// a resumed run keeps the rounds shown, and the summary compares the best with the one-shot
// choice and the baselines (hand-computed ratios).
#include "views/tune/TuneCharts.h"
#include "views/tune/TunePanel.h"
#include "views/tune/TuneRoundsModel.h"

#include <QAbstractItemModelTester>
#include <QChart>
#include <QChartView>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QValueAxis>

using namespace beamscope;

namespace {

TuneRound round(int index, double best, double roundBest, double tau,
                std::vector<std::pair<double, double>> points) {
    TuneRound r;
    r.round = index;
    r.measured = int(points.size());
    r.failures = 1;
    r.model = index == 0 ? "analytic" : "learned";
    r.bestMs = best;
    r.roundBestMs = roundBest;
    r.tau = tau;
    r.pairwiseAccuracy = 0.75;
    r.predictedVsMeasured = std::move(points);
    r.searchMs = 500;
    r.measureMs = 2000;
    r.trainMs = 100;
    return r;
}

Measurement timed(const std::string &label, double ms) {
    Measurement m;
    m.label = label;
    m.measuredMs = RunTimes{ms, ms, ms};
    m.correct = true;
    return m;
}

} // namespace

class TuneViewsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void roundsModelPassesTheTesterAndShowsRounds() {
        TuneRoundsModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.addRound(round(0, 2.0, 2.0, Measurement::kUnknown, {{1, 2}, {2, 3}}));
        model.addRound(round(1, 1.5, 1.5, 0.6, {{1, 1.5}, {3, 4}, {2, 2.5}}));
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), int(TuneRoundsModel::ColumnCount));
        auto cell = [&](int row, int column) { return model.index(row, column).data().toString(); };
        QCOMPARE(cell(1, TuneRoundsModel::RoundColumn), QStringLiteral("2")); // 1-based
        QCOMPARE(cell(1, TuneRoundsModel::ModelColumn), QStringLiteral("learned"));
        QCOMPARE(cell(1, TuneRoundsModel::MeasuredColumn), QStringLiteral("3"));
        QCOMPARE(cell(1, TuneRoundsModel::BestColumn), QStringLiteral("1.5"));
        QCOMPARE(cell(1, TuneRoundsModel::TauColumn), QStringLiteral("0.60"));
        QCOMPARE(cell(0, TuneRoundsModel::TauColumn), QStringLiteral("-"));    // unknown tau
        QCOMPARE(cell(1, TuneRoundsModel::TimeColumn), QStringLiteral("2.6")); // 0.5+2+0.1 s
        // The same round again replaces its row instead of adding one.
        model.addRound(round(1, 1.2, 1.2, 0.8, {{1, 1.2}}));
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(cell(1, TuneRoundsModel::BestColumn), QStringLiteral("1.2"));
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void chartsFollowTheRounds() {
        TuneRoundsModel model;
        TuneCharts charts(&model);
        charts.resize(900, 300);
        QCOMPARE(charts.bestPointCount(), 0);
        model.addRound(round(0, 2.0, 2.0, 0.5, {{1, 2}, {2, 3}}));
        model.addRound(round(1, Measurement::kUnknown, Measurement::kUnknown, Measurement::kUnknown,
                             {})); // a round with no correct row: no best point
        model.addRound(round(2, 1.5, 1.5, 0.6, {{1, 1.5}}));
        QCOMPARE(charts.bestPointCount(), 2);
        // Axes end on round numbers with round ticks, 4 at most in a short dock: the best
        // (1.5-2 ms, padded 8%) runs 1 to 2.5 by 0.5, the measured times (1.5-3 ms) 1 to 4 by 1.
        const auto yAxis = [](QChartView *view) {
            return qobject_cast<QValueAxis *>(view->chart()->axes(Qt::Vertical).front());
        };
        const QValueAxis *bestY = yAxis(charts.bestChart());
        QCOMPARE(bestY->min(), 1.0);
        QCOMPARE(bestY->max(), 2.5);
        QCOMPARE(bestY->tickCount(), 4);
        const QValueAxis *measuredY = yAxis(charts.scatterChart());
        QCOMPARE(measuredY->min(), 1.0);
        QCOMPARE(measuredY->max(), 4.0);
        QCOMPARE(measuredY->tickCount(), 4);
        QCOMPARE(charts.scatterNames(),
                 QStringList({QStringLiteral("round 1 (τ 0.50)"), QStringLiteral("round 2 (τ -)"),
                              QStringLiteral("round 3 (τ 0.60)")}));
        model.clear();
        QCOMPARE(charts.bestPointCount(), 0);
        QVERIFY(charts.scatterNames().isEmpty());
        // Two bests equal to three digits (0.28612, 0.28608 ms): ticks at least 0.01 apart, so
        // that their three-digit labels differ (a run on PoCL read "0.286" twice).
        model.addRound(round(0, 0.28612, 0.28612, 0.1, {}));
        model.addRound(round(1, 0.28608, 0.28608, 0.1, {}));
        const QValueAxis *tinyY = yAxis(charts.bestChart());
        QVERIFY2((tinyY->max() - tinyY->min()) / (tinyY->tickCount() - 1) >= 0.01 - 1e-12,
                 qPrintable(QStringLiteral("%1 to %2 in %3 ticks")
                                .arg(tinyY->min())
                                .arg(tinyY->max())
                                .arg(tinyY->tickCount())));
    }

    void panelButtonsAndResume() {
        TunePanel panel;
        QVERIFY(!panel.startButton()->isEnabled());
        panel.setAvailable(true, QStringLiteral("ready"));
        QVERIFY(panel.startButton()->isEnabled());
        QVERIFY(!panel.resumeButton()->isEnabled());
        QVERIFY(!panel.stopButton()->isEnabled());
        TuneSettings s;
        s.rounds = 3;
        s.batch = 8;
        panel.setSettings(s);
        QSignalSpy start(&panel, &TunePanel::startRequested);
        QSignalSpy stop(&panel, &TunePanel::stopRequested);
        QSignalSpy resume(&panel, &TunePanel::resumeRequested);
        QTest::mouseClick(panel.startButton(), Qt::LeftButton);
        QCOMPARE(start.count(), 1);
        QCOMPARE(start.front().front().value<TuneSettings>().batch, 8);
        panel.setBusy(true);
        panel.beginRun(false);
        QVERIFY(!panel.startButton()->isEnabled());
        QVERIFY(panel.stopButton()->isEnabled());
        panel.addRound(round(0, 2.0, 2.0, 0.5, {{1, 2}}));
        QTest::mouseClick(panel.stopButton(), Qt::LeftButton);
        QCOMPARE(stop.count(), 1);

        auto report = std::make_shared<TuneReport>();
        report->runId = "tune-abc";
        report->cancelled = true;
        report->rounds = {round(0, 2.0, 2.0, 0.5, {{1, 2}})};
        report->best = timed("r0:beam#1", 0.5); // the tuner's labels: round and rank from 0
        report->oneShot = timed("r0:beam#0", 0.8);
        report->baselines = {timed("baseline:naive", 2.0)};
        panel.setBusy(false);
        panel.setResumable(true);
        panel.showReport(report);
        QVERIFY(panel.resumeButton()->isEnabled());
        const QString summary = panel.summary();
        QVERIFY2(summary.contains(QStringLiteral("tune-abc")), qPrintable(summary));
        // Counted from 1, as the rounds table and the Beam dock count.
        QVERIFY2(summary.contains(QStringLiteral("Best 0.5 ms (round 1, beam #2)")),
                 qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("1.60× faster than the analytic one-shot")),
                 qPrintable(summary)); // 0.8 / 0.5
        QVERIFY2(summary.contains(QStringLiteral("4.00× faster than naive")), qPrintable(summary));
        QTest::mouseClick(panel.resumeButton(), Qt::LeftButton);
        QCOMPARE(resume.count(), 1);
        panel.beginRun(true); // a resumed run keeps the rounds shown
        QCOMPARE(panel.model()->rowCount(), 1);
        panel.addRound(round(1, 0.4, 0.4, 0.7, {{1, 0.4}}));
        QCOMPARE(panel.model()->rowCount(), 2);
        panel.beginRun(false); // a new run starts over
        QCOMPARE(panel.model()->rowCount(), 0);
    }
};

QTEST_MAIN(TuneViewsTest)
#include "TuneViewsTest.moc"
