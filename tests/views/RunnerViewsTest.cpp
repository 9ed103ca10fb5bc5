// The runner controls of the Benchmark and Tune docks (views/runner): the per-node jobs model
// under QAbstractItemModelTester through a Slurm run's real sequence of reports (compile here,
// then queue, then the node, then a second batch adding to the first), the totals row;
// RunnerSettings to SlurmOptions (config file, then the fields over it; one-line errors) and its
// QSettings round trip per dock; the Slurm settings dialog refusing OK without a shared directory;
// both panels carrying the runner in their settings and showing per-node progress. Offscreen, no
// device; well under a second.
#include "views/benchmark/BenchPanel.h"
#include "views/runner/RunnerChoice.h"
#include "views/runner/RunnerProgressModel.h"
#include "views/runner/RunnerSettings.h"
#include "views/runner/SlurmSettingsDialog.h"
#include "views/tune/TunePanel.h"

#include "util/Error.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QFile>
#include <QLineEdit>
#include <QSettings>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace beamscope;

namespace {

RunnerProgress report(std::vector<NodeProgress> nodes) {
    RunnerProgress p;
    p.nodes = std::move(nodes);
    return p;
}

QString cell(const QAbstractItemModel &m, int row, int column) {
    return m.data(m.index(row, column), Qt::DisplayRole).toString();
}

} // namespace

class RunnerViewsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("BeamscopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("runner-views-test"));
        QSettings().clear();
    }
    void cleanupTestCase() { QSettings().clear(); }

    void progressModelFollowsASlurmRun() {
        RunnerProgressModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        // The Slurm runner compiles here first...
        model.setProgress(report({{"compile (here)", 3, 1, 0}}));
        QCOMPARE(model.rowCount(), 2); // the node and the totals
        QCOMPARE(cell(model, 0, RunnerProgressModel::Node), QStringLiteral("compile (here)"));
        QCOMPARE(cell(model, 1, RunnerProgressModel::Pending), QStringLiteral("3"));
        model.setProgress(report({{"compile (here)", 0, 0, 4}}));
        model.setProgress(report({{"compile (here)", 0, 0, 4}})); // repeated: counted once
        QCOMPARE(cell(model, 0, RunnerProgressModel::Done), QStringLiteral("4"));
        // ...then reports the queue from zero: the compile pass stays, with its 4 done.
        model.setProgress(report({{"(queue)", 4, 0, 0}}));
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(cell(model, 0, RunnerProgressModel::Done), QStringLiteral("4"));
        QCOMPARE(cell(model, 1, RunnerProgressModel::Node), QStringLiteral("(queue)"));
        QCOMPARE(cell(model, 1, RunnerProgressModel::Pending), QStringLiteral("4"));
        // A node appears: inserted before the totals row.
        model.setProgress(report({{"(queue)", 3, 0, 0}, {"beamscope-node", 0, 1, 0}}));
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(cell(model, 2, RunnerProgressModel::Node), QStringLiteral("beamscope-node"));
        QCOMPARE(cell(model, 3, RunnerProgressModel::Node), QStringLiteral("all nodes"));
        // All done: the empty queue row goes, the totals add up.
        model.setProgress(report({{"(queue)", 0, 0, 0}, {"beamscope-node", 0, 0, 4}}));
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(cell(model, 1, RunnerProgressModel::Node), QStringLiteral("beamscope-node"));
        QCOMPARE(cell(model, 1, RunnerProgressModel::Done), QStringLiteral("4"));
        QCOMPARE(cell(model, 2, RunnerProgressModel::Pending), QStringLiteral("0"));
        QCOMPARE(cell(model, 2, RunnerProgressModel::Running), QStringLiteral("0"));
        QCOMPARE(cell(model, 2, RunnerProgressModel::Done), QStringLiteral("8"));
        // A second batch (the next round) adds to the first.
        model.setProgress(report({{"(queue)", 1, 0, 0}, {"beamscope-node", 0, 1, 2}}));
        QCOMPARE(model.rowCount(), 4); // compile (here), (queue), beamscope-node, totals
        QCOMPARE(cell(model, 2, RunnerProgressModel::Node), QStringLiteral("beamscope-node"));
        QCOMPARE(cell(model, 2, RunnerProgressModel::Done), QStringLiteral("6"));
        QCOMPARE(cell(model, 2, RunnerProgressModel::Running), QStringLiteral("1"));
        QCOMPARE(model.headerData(RunnerProgressModel::Running, Qt::Horizontal, Qt::DisplayRole)
                     .toString(),
                 QStringLiteral("Running"));
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void settingsGiveSlurmOptions() {
        RunnerSettings s;
        s.kind = RunnerKind::Slurm;
        // No directory anywhere: one line naming what is missing.
        try {
            (void)s.slurm();
            QFAIL("no directory accepted");
        } catch (const UsageError &e) {
            QVERIFY(QString::fromUtf8(e.what()).contains(QStringLiteral("--slurm-dir")));
            QVERIFY(!QString::fromUtf8(e.what()).contains(QLatin1Char('\n')));
        }
        QTemporaryDir dir;
        const QString config = dir.filePath(QStringLiteral("slurm.conf"));
        QFile file(config);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("dir = /shared/jobs\npartition = a100\ngres = gpu:a100:1\noption = --qos=x\n");
        file.close();
        s.config = config;
        s.partition = QStringLiteral("v100"); // the field overrides the file
        s.options = {QStringLiteral("--constraint=big")};
        s.pollS = 0.5;
        const SlurmOptions o = s.slurm();
        QCOMPARE(QString::fromStdString(o.dir), QStringLiteral("/shared/jobs"));
        QCOMPARE(QString::fromStdString(o.partition), QStringLiteral("v100"));
        QCOMPARE(QString::fromStdString(o.gres), QStringLiteral("gpu:a100:1"));
        QCOMPARE(int(o.options.size()), 2);
        QCOMPARE(o.pollS, 0.5);
        QVERIFY(o.compileLocally);
        s.gres = QStringLiteral("none");
        s.compile = QStringLiteral("job");
        QVERIFY(s.slurm().gres.empty());
        QVERIFY(!s.slurm().compileLocally);
        s.compile = QStringLiteral("elsewhere");
        QVERIFY_THROWS_EXCEPTION(UsageError, s.slurm());
        s.compile.clear();
        s.config = dir.filePath(QStringLiteral("missing.conf"));
        QVERIFY_THROWS_EXCEPTION(UsageError, s.slurm());
    }

    void settingsPersistPerDock() {
        RunnerSettings s;
        s.kind = RunnerKind::Slurm;
        s.dir = QStringLiteral("/shared/jobs");
        s.account = QStringLiteral("lab");
        s.maxParallel = 4;
        s.pollS = 0.3;
        s.options = {QStringLiteral("--qos=short"), QStringLiteral("--constraint=a100")};
        s.save(QStringLiteral("tune"));
        QCOMPARE(RunnerSettings::load(QStringLiteral("tune")), s);
        QCOMPARE(RunnerSettings::load(QStringLiteral("bench")), RunnerSettings()); // its own
        QVERIFY(s.describe().contains(QStringLiteral("/shared/jobs")));
        QVERIFY(RunnerSettings().describe().startsWith(QStringLiteral("local")));
    }

    void dialogRefusesWithoutDirectory() {
        RunnerSettings s;
        SlurmSettingsDialog dialog(s);
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
        QVERIFY(dialog.problem().contains(QStringLiteral("--slurm-dir")));
        auto *dir = dialog.findChildren<QLineEdit *>().at(1); // config, then directory
        dir->setText(QStringLiteral("/shared/jobs"));
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QVERIFY(dialog.problem().isEmpty());
        QCOMPARE(dialog.settings().kind, RunnerKind::Slurm);
        QCOMPARE(dialog.settings().dir, QStringLiteral("/shared/jobs"));
    }

    void panelsCarryTheRunnerAndShowProgress() {
        RunnerSettings slurm;
        slurm.kind = RunnerKind::Slurm;
        slurm.dir = QStringLiteral("/shared/jobs");
        BenchPanel bench;
        BenchSettings b = bench.settings();
        QCOMPARE(b.runner.kind, RunnerKind::Local);
        b.runner = slurm;
        bench.setSettings(b);
        QCOMPARE(bench.settings().runner, slurm);
        QCOMPARE(bench.runnerChoice()->kindBox()->currentText(), QStringLiteral("Slurm cluster"));
        bench.setRunnerProgress(report({{"beamscope-node", 1, 1, 2}}));
        QCOMPARE(bench.runnerTable()->model()->rowCount(), 2);
        bench.beginRun(QStringLiteral("V100"));
        QCOMPARE(bench.runnerTable()->model()->rowCount(), 0);
        bench.setBusy(true);
        QVERIFY(!bench.runnerChoice()->isEnabled());

        TunePanel tune;
        TuneSettings t = tune.settings();
        t.runner = slurm;
        tune.setSettings(t);
        QCOMPARE(tune.settings().runner, slurm);
        tune.setRunnerProgress(report({{"(queue)", 2, 0, 0}, {"beamscope-node", 0, 1, 1}}));
        QCOMPARE(cell(*tune.runnerProgress(), 2, RunnerProgressModel::Pending),
                 QStringLiteral("2"));
    }
};

QTEST_MAIN(RunnerViewsTest)
#include "RunnerViewsTest.moc"
