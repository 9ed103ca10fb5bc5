// JobTracker tests: work runs off the GUI thread and its results arrive on it, in order; a
// result of an older generation or for a dead context is dropped; cancel() reaches running work
// but keeps its results; busy follows the jobs; a tracker destroyed with work queued joins cleanly.
#include "controllers/JobTracker.h"

#include <QSemaphore>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <memory>

#include <sys/resource.h>
#include <unistd.h>

using namespace beamscope;

/// Receives delivered results as a signal, so QSignalSpy can wait for them.
class Sink : public QObject {
    Q_OBJECT
Q_SIGNALS:
    void value(int v);
};

class JobTrackerTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void workRunsOnTheWorkerAndResultsArriveOnTheGuiThreadInOrder() {
        Sink sink;
        JobTracker jobs(&sink, QStringLiteral("test-worker"));
        QSignalSpy spy(&sink, &Sink::value);
        std::atomic<QThread *> workThread{nullptr};
        QThread *deliveredOn = nullptr;
        for (int i = 0; i < 5; ++i) {
            jobs.post([&, i](const JobTracker::Job &job) {
                workThread = QThread::currentThread();
                job.deliver([&, i] {
                    deliveredOn = QThread::currentThread();
                    Q_EMIT sink.value(i);
                });
            });
        }
        QTRY_COMPARE(spy.count(), 5);
        for (int i = 0; i < 5; ++i)
            QCOMPARE(spy.at(i).at(0).toInt(), i);
        QVERIFY(workThread.load() != nullptr);
        QVERIFY(workThread.load() != QThread::currentThread());
        QCOMPARE(deliveredOn, QThread::currentThread());
        QCOMPARE(jobs.droppedResults(), 0);
    }

    void aBelowGuiWorkerYieldsTheCoresToTheGuiThread() {
        // Its thread's nice value is 4 above the GUI thread's (at most 19); a Normal one's equal.
        const int guiNice = getpriority(PRIO_PROCESS, gettid());
        Sink sink;
        QSignalSpy spy(&sink, &Sink::value);
        JobTracker background(&sink, QStringLiteral("test-background"),
                              JobTracker::Priority::BelowGui);
        JobTracker normal(&sink, QStringLiteral("test-normal"));
        for (JobTracker *jobs : {&background, &normal}) {
            jobs->post([&](const JobTracker::Job &job) {
                const int nice = getpriority(PRIO_PROCESS, gettid());
                job.deliver([&, nice] { Q_EMIT sink.value(nice); });
            });
            QTRY_COMPARE(spy.count(), jobs == &background ? 1 : 2);
        }
        QCOMPARE(spy.at(0).at(0).toInt(), std::min(guiNice + 4, 19));
        QCOMPARE(spy.at(1).at(0).toInt(), guiNice);
        QCOMPARE(getpriority(PRIO_PROCESS, gettid()), guiNice); // the GUI thread's own is kept
    }

    void restartDropsTheStaleResultAndCancelsItsWork() {
        Sink sink;
        JobTracker jobs(&sink, QStringLiteral("test-worker"));
        QSignalSpy spy(&sink, &Sink::value);
        QSemaphore started, release;
        std::atomic<bool> sawCancel{false};
        jobs.post([&](const JobTracker::Job &job) {
            started.release();
            release.acquire();
            sawCancel = job.isCancelled();
            job.deliver([&] { Q_EMIT sink.value(1); });
        });
        started.acquire(); // the old job is running
        const quint64 before = jobs.generation();
        QCOMPARE(jobs.restart(), before + 1);
        jobs.post([&](const JobTracker::Job &job) {
            QVERIFY(!job.isCancelled());
            job.deliver([&] { Q_EMIT sink.value(2); });
        });
        release.release();
        QTRY_VERIFY(!jobs.isBusy());
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toInt(), 2);
        QCOMPARE(jobs.droppedResults(), 1);
        QVERIFY(sawCancel.load());
    }

    void deadContextGetsNothing() {
        auto *context = new Sink;
        Sink witness; // outlives the context: counts what would have been delivered
        JobTracker jobs(context, QStringLiteral("test-worker"));
        QSignalSpy spy(&witness, &Sink::value);
        QSemaphore started, release;
        std::atomic<bool> sawCancel{false};
        bool delivered = false;
        bool droppedSeen = false;
        jobs.post([&](const JobTracker::Job &job) {
            started.release();
            release.acquire();
            sawCancel = job.isCancelled();
            job.deliver(
                [&] {
                    delivered = true;
                    Q_EMIT witness.value(1);
                },
                [&] { droppedSeen = true; });
        });
        started.acquire();
        delete context; // on the GUI thread, while the job runs
        release.release();
        QTRY_VERIFY(!jobs.isBusy());
        QVERIFY(!delivered);
        QVERIFY(droppedSeen);
        QCOMPARE(spy.count(), 0);
        QCOMPARE(jobs.droppedResults(), 1);
        QVERIFY(sawCancel.load()); // the dead context's work was told to stop
    }

    void cancelStopsRunningWorkButKeepsItsResult() {
        Sink sink;
        JobTracker jobs(&sink, QStringLiteral("test-worker"));
        QSignalSpy spy(&sink, &Sink::value);
        QSemaphore started;
        jobs.post([&](const JobTracker::Job &job) {
            started.release();
            int spins = 0;
            // Runs until cancelled (a 20 s bound keeps a broken cancel from hanging the test).
            while (!job.cancelFlag().load() && spins < 20000) {
                QThread::msleep(1);
                ++spins;
            }
            const int result = job.cancelFlag().load() ? 7 : -1;
            job.deliver([&, result] { Q_EMIT sink.value(result); });
        });
        started.acquire();
        const quint64 generation = jobs.generation();
        jobs.cancel();
        QCOMPARE(jobs.generation(), generation); // cancel is not a new generation
        QVERIFY(spy.wait(20000));
        QCOMPARE(spy.at(0).at(0).toInt(), 7);
        // Work posted after the cancel gets a fresh flag.
        std::atomic<int> later{-1};
        jobs.post([&](const JobTracker::Job &job) { later = job.isCancelled() ? 1 : 0; });
        QTRY_VERIFY(!jobs.isBusy());
        QCOMPARE(later.load(), 0);
        QCOMPARE(jobs.droppedResults(), 0);
    }

    void busyFollowsJobsAndResultsComeFirst() {
        Sink sink;
        JobTracker jobs(&sink, QStringLiteral("test-worker"));
        QStringList events;
        jobs.setBusyCallback([&](bool busy) { events << (busy ? "busy" : "idle"); });
        QVERIFY(!jobs.isBusy());
        jobs.post([&](const JobTracker::Job &job) { job.deliver([&] { events << "a"; }); });
        jobs.post([&](const JobTracker::Job &job) { job.deliver([&] { events << "b"; }); });
        QVERIFY(jobs.isBusy());
        QTRY_VERIFY(!jobs.isBusy());
        QCOMPARE(events, QStringList({"busy", "a", "b", "idle"}));
    }

    void finishCountsTheJobDoneBeforeItsLastResultRuns() {
        Sink sink;
        JobTracker jobs(&sink, QStringLiteral("test-worker"));
        QStringList events;
        jobs.setBusyCallback([&](bool busy) { events << (busy ? "busy" : "idle"); });
        bool busyInResult = true;
        jobs.post([&](const JobTracker::Job &job) {
            job.deliver([&] { events << "partial"; });
            job.finish([&] {
                busyInResult = jobs.isBusy();
                events << "last";
            });
        });
        QTRY_COMPARE(events.size(), 4);
        QVERIFY(!busyInResult); // a receiver of the last result sees the tracker idle
        QCOMPARE(events, QStringList({"busy", "partial", "idle", "last"}));
    }

    void destroyedWithWorkQueuedJoinsWithoutDelivering() {
        Sink sink;
        QSignalSpy spy(&sink, &Sink::value);
        std::atomic<int> ran{0};
        {
            JobTracker jobs(&sink, QStringLiteral("test-worker"));
            QSemaphore started;
            jobs.post([&](const JobTracker::Job &job) {
                started.release();
                while (!job.isCancelled())
                    QThread::msleep(1);
                ++ran;
                job.deliver([&] { Q_EMIT sink.value(1); });
            });
            for (int i = 0; i < 3; ++i)
                jobs.post([&](const JobTracker::Job &) { ++ran; });
            started.acquire();
        } // cancels the running job, never starts the queued ones, drops every result
        QCOMPARE(ran.load(), 1);
        QCoreApplication::processEvents();
        QCOMPARE(spy.count(), 0);
    }
};

QTEST_GUILESS_MAIN(JobTrackerTest)
#include "JobTrackerTest.moc"
