// The Tune dock's controller measuring through the Slurm runner on the real single-node test
// cluster (tests/slurm/cluster.sh: Debian's munged, slurmctld and slurmd; the node's one "gpu"
// GRES stands for the PoCL device): one round of two schedules of a small stencil chain is
// AOT-compiled here, submitted as a job array, run by beamscope-aot-runner on the node from the
// shipped artifact (the node compiles nothing) and recorded
// in a fresh SQLite file; the per-node progress signals name the cluster node and end with every
// job done and none pending or running; final states of finished tasks come from the cluster's
// job completion log through sacct --completion (no accounting storage there). FAILS (never skips)
// when the cluster cannot start or there is no OpenCL device: both are part of the test machine's
// set-up. A benchmark whose task 0 dies by SIGSEGV on the node (a wrapper around the real
// beamscope-aot-runner) is triaged here, and the Benchmark dock's row leads with the verdict.
// About 25-35 s on 2 cores.
#include "controllers/BenchmarkController.h"
#include "controllers/TuneController.h"
#include "measure/CrashTriage.h"
#include "measure/DeviceDetect.h"
#include "measure/slurm/SlurmAccounting.h"
#include "measure/slurm/SlurmCrashTriage.h"
#include "measure/slurm/SlurmQueue.h"
#include "store/MeasurementStore.h"
#include "views/benchmark/BenchResultsModel.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace beamscope;

namespace {

const QString kClusterScript = QStringLiteral(BEAMSCOPE_SLURM_CLUSTER_SCRIPT);

/// Runs cluster.sh with `args`; its stdout, or a null string (and `why`) when it failed.
QString clusterScript(const QStringList &args, QString *why = nullptr) {
    QProcess p;
    p.start(QStringLiteral("bash"), QStringList{kClusterScript} + args);
    if (!p.waitForFinished(120000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        if (why) *why = QString::fromLocal8Bit(p.readAllStandardError()).trimmed();
        return {};
    }
    return QString::fromLocal8Bit(p.readAllStandardOutput()).trimmed();
}

/// Waits (up to 4 minutes) until a run emits finished or error: "" once finished, else why not.
QString waitForFinish(const QSignalSpy &finished, const QSignalSpy &errors) {
    QElapsedTimer t;
    t.start();
    while (finished.isEmpty() && errors.isEmpty() && t.elapsed() < 240000)
        QTest::qWait(20);
    if (!finished.isEmpty()) return {};
    return errors.isEmpty() ? QStringLiteral("timed out") : errors.front().front().toString();
}

} // namespace

class SlurmControllerTest : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_cluster;
    bool m_started = false;

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_cluster = m_dir.filePath(QStringLiteral("cluster"));
        QString why;
        const QString env = clusterScript({QStringLiteral("start"), m_cluster}, &why);
        QVERIFY2(!env.isEmpty(),
                 qPrintable(QStringLiteral("the Slurm test cluster did not start "
                                           "(part of the test machine's set-up): ") +
                            why));
        m_started = true;
        // "export SLURM_CONF=DIR/slurm.conf": the runner's sbatch/squeue/scancel read it.
        const QString prefix = QStringLiteral("export SLURM_CONF=");
        QVERIFY2(env.startsWith(prefix), qPrintable(env));
        qputenv("SLURM_CONF", env.mid(prefix.size()).toLocal8Bit());
    }

    void cleanupTestCase() {
        if (m_started) clusterScript({QStringLiteral("stop"), m_cluster});
    }

    void finalStatesComeFromTheCompletionLog() {
        // A three-task array whose task 1 exits 3: once it is over, sacct --completion (the
        // cluster's jobcomp/filetxt; no accounting storage) gives each task's final state.
        const QString script = m_dir.filePath(QStringLiteral("exit.sh"));
        QFile file(script);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("#!/bin/sh\n[ \"$SLURM_ARRAY_TASK_ID\" = 1 ] && exit 3\nexit 0\n");
        file.close();
        const SlurmQueue queue;
        const long array = queue.submit({"--array=0-2", "--gres=gpu:1",
                                         "--output=" + m_dir.filePath("exit-%a.log").toStdString(),
                                         script.toStdString()});
        SlurmJobIds ids;
        QElapsedTimer t;
        t.start();
        for (bool over = false; !over && t.elapsed() < 60000; QTest::qWait(200)) {
            const std::vector<SlurmTask> tasks = queue.tasks({array});
            over = tasks.size() == 3;
            for (const SlurmTask &task : tasks) {
                over = over && task.finished();
                if (task.jobId != 0) ids[task.jobId] = {array, task.task};
            }
        }
        QCOMPARE(int(ids.size()), 3);
        const SlurmAccounting accounting;
        std::vector<SlurmTask> finals;
        for (int tries = 0; finals.size() < 3 && tries < 50; ++tries, QTest::qWait(100))
            finals = accounting.finalStates({array}, ids); // the log is written as tasks end
        QCOMPARE(int(finals.size()), 3);
        QCOMPARE(int(accounting.source()), int(SlurmAccountingSource::Completion));
        for (const SlurmTask &task : finals) {
            QCOMPARE(task.arrayJob, array);
            QCOMPARE(QString::fromStdString(task.state),
                     task.task == 1 ? QStringLiteral("FAILED") : QStringLiteral("COMPLETED"));
            QCOMPARE(task.exitStatus, task.task == 1 ? 3 : 0);
            QCOMPARE(QString::fromStdString(task.node), QStringLiteral("beamscope-node"));
        }
    }

    void tuneThroughSlurmShowsEveryJobDoneOnTheNode() {
        QVERIFY2(detectOpenClDevice().kind == DeviceKind::OpenCL,
                 "no OpenCL device: PoCL is part of the test machine's set-up");
        const QString db = m_dir.filePath(QStringLiteral("t.sqlite"));
        TuneOptions options;
        options.source = {"stencil_chain", "", {"length=2", "width=64", "height=64"}};
        options.device = DevicePreference::OpenCL;
        options.rounds = 1;
        options.batch = 2;
        options.search.beamSize = 4;
        options.search.passes = 1;
        options.repeats = 2;
        options.timeoutS = 120;
        options.compileJobs = 2;
        options.workerPath = BEAMSCOPE_TEST_WORKER;
        options.runner = RunnerKind::Slurm;
        options.slurm.dir = m_dir.filePath(QStringLiteral("jobs")).toStdString();
        options.slurm.pollS = 0.3;

        TuneController tune;
        tune.setDatabasePath(db);
        QSignalSpy progress(&tune, &TuneController::runnerProgress);
        QSignalSpy measured(&tune, &TuneController::measured);
        QSignalSpy finished(&tune, &TuneController::finished);
        QSignalSpy errors(&tune, &TuneController::error);
        QSignalSpy logs(&tune, &TuneController::logLine);
        tune.start(options);
        const QString ended = waitForFinish(finished, errors);
        QVERIFY2(ended.isEmpty(), qPrintable(ended));
        const TuneReportPtr report = finished.front().front().value<TuneReportPtr>();
        QVERIFY(!report->cancelled);
        QCOMPARE(int(report->rounds.size()), 1);
        QCOMPARE(report->rounds[0].measured, 2);

        bool submitted = false;
        for (const QList<QVariant> &line : logs)
            submitted = submitted || line.front().toString().contains(
                                         QStringLiteral("slurm: submitted array job"));
        QVERIFY(submitted);

        // Per-node progress: the local compile pass, then the cluster node, ending all done.
        QVERIFY(!progress.isEmpty());
        // A shipped artifact can start and finish between two polls, so the node is required
        // to show up with work (running or done), not to be caught running.
        bool sawCompile = false, sawNode = false;
        for (const QList<QVariant> &signal : progress) {
            const RunnerProgress p = signal.front().value<RunnerProgress>();
            for (const NodeProgress &n : p.nodes) {
                sawCompile = sawCompile || n.node == "compile (here)";
                sawNode = sawNode || (n.node == "beamscope-node" && n.running + n.done > 0);
            }
        }
        QVERIFY(sawCompile);
        QVERIFY(sawNode);
        const RunnerProgress last = progress.back().front().value<RunnerProgress>();
        QCOMPARE(last.pending(), 0);
        QCOMPARE(last.running(), 0);
        int onNode = 0;
        for (const NodeProgress &n : last.nodes)
            onNode += n.node == "beamscope-node" ? n.done : 0;
        QVERIFY(onNode >= 1);
        QCOMPARE(onNode, last.done());

        // Every measurement the node made is in the database, with the GUI's origin.
        MeasurementStore store(db.toStdString());
        RecordFilter mine;
        mine.runId = report->runId;
        const std::vector<MeasurementRecord> records = store.records(mine);
        QVERIFY(int(records.size()) >= 2);
        for (const MeasurementRecord &r : records)
            QCOMPARE(QString::fromStdString(r.origin), QStringLiteral("gui-tune"));
        QVERIFY(report->best && report->best->correct.value_or(false));

        // compile = local (the default) shipped the artifacts: the array ran the AOT runner.
        const QDir jobs(m_dir.filePath(QStringLiteral("jobs")));
        const QStringList batches = jobs.entryList({QStringLiteral("batch-*")}, QDir::Dirs);
        QVERIFY(!batches.isEmpty());
        for (const QString &batch : batches) {
            QFile script(jobs.filePath(batch + QStringLiteral("/run.sh")));
            QVERIFY(script.open(QIODevice::ReadOnly));
            QVERIFY(script.readAll().contains("beamscope-aot-runner"));
        }
    }

    void crashedTaskRowLeadsWithItsTriageVerdict() {
        QVERIFY2(detectOpenClDevice().kind == DeviceKind::OpenCL,
                 "no OpenCL device: PoCL is part of the test machine's set-up");
        // Task 0's program dies by SIGSEGV on the node; the others run the real AOT runner.
        const QString runner = QFileInfo(QStringLiteral(BEAMSCOPE_TEST_WORKER)).absolutePath() +
                               QStringLiteral("/../aot-runner/beamscope-aot-runner");
        const QString wrapper = m_dir.filePath(QStringLiteral("crash-aot.sh"));
        QFile file(wrapper);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("#!/bin/sh\ncase \"$1\" in */0.json) kill -SEGV $$ ;; esac\nexec '" +
                   runner.toLocal8Bit() + "' \"$@\"\n");
        file.close();
        QVERIFY(file.setPermissions(file.permissions() | QFileDevice::ExeOwner));

        BenchOptions options;
        options.source = {"stencil_chain", "", {"length=2", "width=64", "height=64"}};
        options.device = DevicePreference::OpenCL;
        options.mode = BenchMode::TopK;
        options.top = 1;
        options.repeats = 2;
        options.timeoutS = 120;
        options.jobs = 2;
        options.workerPath = BEAMSCOPE_TEST_WORKER;
        options.runner = RunnerKind::Slurm;
        options.slurm.dir = m_dir.filePath(QStringLiteral("crash-jobs")).toStdString();
        options.slurm.aotRunner = wrapper.toStdString();
        options.slurm.pollS = 0.3;

        BenchmarkController bench;
        bench.setDatabasePath(m_dir.filePath(QStringLiteral("b.sqlite")));
        BenchResultsModel model; // the Benchmark dock's rows, fed as BenchCoordinator feeds them
        connect(&bench, &BenchmarkController::measured, &model, &BenchResultsModel::addMeasurement);
        QSignalSpy finished(&bench, &BenchmarkController::finished);
        QSignalSpy errors(&bench, &BenchmarkController::error);
        bench.start(options);
        const QString ended = waitForFinish(finished, errors);
        QVERIFY2(ended.isEmpty(), qPrintable(ended));
        int crashed = 0;
        for (int r = 0; r < model.rowCount(); ++r) {
            const QModelIndex failure = model.index(r, BenchResultsModel::FailureColumn);
            const QString evidence = model.data(failure, Qt::ToolTipRole).toString();
            if (!evidence.startsWith(QStringLiteral("crash: signal 11"))) continue;
            ++crashed;
            QCOMPARE(model.data(failure).toString(),
                     QStringLiteral("crash: ") + QLatin1String(kVerdictToolchainCrash));
            QVERIFY2(evidence.contains(QString::fromStdString(
                         "triaged on " + submitHostName() +
                         ", the submit host; the task crashed on beamscope-node")),
                     qPrintable(evidence));
        }
        QCOMPARE(crashed, 1);
    }
};

QTEST_MAIN(SlurmControllerTest)
#include "SlurmControllerTest.moc"
