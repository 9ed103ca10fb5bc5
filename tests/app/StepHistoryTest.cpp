// Step history on real searches: going back to step k shows exactly what step k produced (every
// field the views read, compared with a fresh engine stopped at k), at once from the compact
// record and then whole from the replay; going back never moves the search, and Step continues
// from the newest; the replayer moves forward without starting again; an opened trace is kept as
// compact records, shown read-only, and its revisited steps equal the live run's (a record its
// replay does not match is one line naming the trace's line). stencil_chain, beam 4, 2 passes
// (about 1 s in all).
#include "../views/RealSearch.h"

#include "controllers/SearchController.h"
#include "controllers/SearchReplayer.h"
#include "controllers/StepHistory.h"
#include "search/SearchReport.h"
#include "search/TraceReader.h"
#include "util/Error.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

using namespace beamscope;

namespace {

PipelineSource source(const std::string &app, std::vector<std::string> params) {
    PipelineSource s;
    s.name = app;
    s.params = std::move(params);
    return s;
}

bool waitIdle(SearchController &c, int timeoutMs = 120000) {
    QElapsedTimer t;
    t.start();
    while (c.isBusy() && t.elapsed() < timeoutMs)
        QTest::qWait(5);
    return !c.isBusy();
}

std::string num(double v) {
    if (std::isnan(v)) return "nan";
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.17g", v);
    return buffer;
}

void dumpEntry(std::ostream &os, const BeamEntry &e) {
    os << "  entry hash " << e.hash << " cost " << num(e.cost.total) << " rank " << num(e.rankCost)
       << " decision '" << e.decision << "'\n";
    for (const StageCost &s : e.cost.stages) {
        os << "    stage " << s.node << "." << s.stage;
        for (double t : s.terms)
            os << ' ' << num(t);
        os << '\n';
    }
    e.state->dump(os);
}

/// The header, beam, best, frozen, counters and terms of a step: what the record keeps.
std::string recordDump(const SearchStep &s) {
    std::ostringstream os;
    os << "step " << s.index << " pass " << s.pass << "/" << s.passes << " depth " << s.hashDepth
       << " node " << s.node << " func " << s.func << " phase " << int(s.phase) << " passFinished "
       << s.passFinished << " finished " << s.finished << '\n';
    for (const BeamEntry &e : s.beam)
        dumpEntry(os, e);
    os << "best " << s.best.has_value() << '\n';
    if (s.best) dumpEntry(os, *s.best);
    os << "frozen";
    for (int f : s.frozen)
        os << ' ' << f;
    os << "\ncounters " << s.counters.enumerated << ' ' << s.counters.pruned << ' '
       << s.counters.evaluated << ' ' << s.counters.featurizations << ' ' << s.counters.memoHits
       << ' ' << s.counters.memoMisses << "\nterms";
    for (const std::string &t : s.termNames)
        os << ' ' << t;
    os << '\n';
    return os.str();
}

/// Everything the views read of a step (all but the wall times).
std::string wholeDump(const SearchStep &s) {
    std::ostringstream os;
    os << recordDump(s);
    for (const StepCandidate &c : s.candidates) {
        os << "cand '" << c.label << "' parent " << c.parent << " hash " << c.hash << " sampled "
           << c.sampled << " penalized " << c.penalized << " inBeam " << c.inBeam << " cost "
           << num(c.cost) << " has state " << (c.state != nullptr) << '\n';
        c.materialize()->dump(os);
    }
    for (const Bucket &b : s.buckets) {
        os << "bucket " << b.hash << " parent " << b.parent << " members";
        for (int m : b.members)
            os << ' ' << m;
        os << " sampled";
        for (int m : b.sampled)
            os << ' ' << m;
        os << '\n';
    }
    for (const PrunedCandidate &p : s.pruned)
        os << "pruned '" << p.label << "' " << int(p.reason) << " '" << p.detail << "' "
           << p.child.has_value() << '\n';
    return os.str();
}

/// Shows step k and waits for its whole snapshot; returns (first shown, whole shown).
std::pair<SearchStepPtr, SearchStepPtr> show(SearchController &c, int k) {
    QSignalSpy shown(&c, &SearchController::stepShown);
    c.showStep(k);
    auto whole = [&] {
        return !shown.isEmpty() && shown.last().at(3).toBool() && shown.last().at(1).toInt() == k;
    };
    if (!QTest::qWaitFor(whole, 60000)) return {};
    return {shown.first().at(0).value<SearchStepPtr>(), shown.last().at(0).value<SearchStepPtr>()};
}

} // namespace

class StepHistoryTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void revisitingStepKShowsWhatStepKProduced() {
        const SearchOptions options = test::testOptions(4, 2, 5);
        SearchController c;
        QSignalSpy appended(&c, &SearchController::historyAppended);
        c.load(source("stencil_chain", {"length=4"}), options);
        c.runToEnd();
        QVERIFY(waitIdle(c));
        QVERIFY(c.searchFinished());
        const test::RealSearch fresh = test::runSearch("stencil_chain", {"length=4"}, options);
        const int n = int(fresh.steps.size());
        QCOMPARE(c.history().size(), n);
        QCOMPARE(appended.count(), n);
        const SearchStepPtr newest = c.lastStep();
        for (int k : {0, 1, n / 2, n - 2, n - 1}) {
            // A fresh engine stopped at k, independently of the controller's own.
            const test::RealSearch stopped =
                test::runSearch("stencil_chain", {"length=4"}, options, k + 1);
            const SearchStep &expected = *stopped.steps.back();
            QCOMPARE(expected.index, k);
            const HistoryRecord &record = c.history().at(k);
            QCOMPARE(record.candidates, int(expected.candidates.size()));
            QCOMPARE(record.pruned, int(expected.pruned.size()));
            QCOMPARE(record.buckets, int(expected.buckets.size()));
            const auto [first, whole] = show(c, k);
            QVERIFY2(whole, "the whole step arrives");
            QCOMPARE(recordDump(*first), recordDump(expected));
            QCOMPARE(wholeDump(*whole), wholeDump(expected));
            QCOMPARE(c.shownStep(), k == n - 1 ? -1 : k);
            // Going back never moves the search.
            QCOMPARE(c.stepsDone(), n);
            QCOMPARE(c.lastStep(), newest);
        }
    }

    void stepContinuesFromTheNewest() {
        const SearchOptions options = test::testOptions(4, 2, 1);
        SearchController c;
        c.load(source("stencil_chain", {"length=4"}), options);
        c.stepTo(8);
        QVERIFY(waitIdle(c));
        QCOMPARE(c.stepsDone(), 8);
        QVERIFY(show(c, 2).second);
        QCOMPARE(c.shownStep(), 2);
        QSignalSpy stepped(&c, &SearchController::stepped);
        c.stepOne();
        QVERIFY(waitIdle(c));
        QCOMPARE(stepped.count(), 1);
        QCOMPARE(c.lastStep()->index, 8);
        QCOMPARE(c.shownStep(), -1); // the views are back at the newest
        const test::RealSearch fresh = test::runSearch("stencil_chain", {"length=4"}, options, 9);
        QCOMPARE(wholeDump(*c.lastStep()), wholeDump(*fresh.steps.back()));
        // A step shown again comes from the cache, not from another replay.
        const int replays = c.replaysDone();
        QVERIFY(show(c, 2).second);
        QCOMPARE(c.replaysDone(), replays);
    }

    void replayerMovesForwardWithoutStartingAgain() {
        const SearchOptions options = test::testOptions(4, 2, 2);
        const test::RealSearch fresh = test::runSearch("stencil_chain", {"length=4"}, options);
        SearchReplayer r;
        r.reset(fresh.dag, options);
        QCOMPARE(wholeDump(*r.stepAt(3)), wholeDump(*fresh.steps[3]));
        QCOMPARE(r.stepsDone(), 4);
        QCOMPARE(wholeDump(*r.stepAt(6)), wholeDump(*fresh.steps[6]));
        QCOMPARE(r.stepsDone(), 7); // went on from step 4
        QCOMPARE(wholeDump(*r.stepAt(1)), wholeDump(*fresh.steps[1]));
        QCOMPARE(r.stepsDone(), 2); // started again from the seed
        QVERIFY_THROWS_EXCEPTION(Error, r.stepAt(int(fresh.steps.size())));
    }

    void compactRecordsDropTheCandidates() {
        const test::RealSearch fresh =
            test::runSearch("stencil_chain", {"length=4"}, test::testOptions(4, 2), 6);
        const SearchStepPtr &step = fresh.steps.back();
        QVERIFY(!step->candidates.empty());
        const HistoryRecord r = StepHistory::record(step, false);
        QVERIFY(!r.complete);
        QVERIFY(r.step->candidates.empty() && r.step->buckets.empty() && r.step->pruned.empty());
        QCOMPARE(recordDump(*r.step), recordDump(*step));
        int sampled = 0;
        for (const StepCandidate &cand : step->candidates)
            sampled += cand.sampled;
        QCOMPARE(r.sampled, sampled);
        QCOMPARE(r.bestCost, step->beam.front().cost.total);
        StepHistory h;
        QVERIFY_THROWS_EXCEPTION(Error, h.append(r)); // step 5 cannot come first
    }

    void anOpenedTraceIsKeptCompactlyAndReplayedOnDemand() {
        // A trace written as `beamscope-cli search --trace` writes it, opened as File > Open
        // trace… does: every step checked against its line, kept as a compact record.
        const SearchOptions options = test::testOptions(4, 2, 3);
        const PipelineSource src = source("stencil_chain", {"length=4"});
        const test::RealSearch live = test::runSearch("stencil_chain", {"length=4"}, options);
        const int n = int(live.steps.size());
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("t.jsonl")).toStdString();
        {
            std::ofstream out(path);
            for (const SearchStepPtr &step : live.steps) {
                nlohmann::json line = stepToJson(*step, *live.dag);
                if (step->index == 0) line["search"] = traceSearchToJson(src, options);
                out << line.dump() << "\n";
            }
        }
        std::vector<HistoryRecord> records;
        SearchStepPtr newest;
        const TraceReplay replay =
            TraceReader(path).replay(nullptr, {}, [&](const SearchStepPtr &step) {
                records.push_back(StepHistory::record(step, false));
                newest = step;
            });
        QVERIFY(replay.steps.empty()); // the sink took them
        QCOMPARE(int(records.size()), n);
        const std::vector<HistoryRecord> kept = records;

        SearchController c;
        QSignalSpy stepped(&c, &SearchController::stepped);
        QSignalSpy costs(&c, &SearchController::bestCostRecorded);
        QSignalSpy error(&c, &SearchController::error);
        c.setReadOnlyHistory(replay.dag, replay.search.options, std::move(records), newest,
                             QStringLiteral("trace 't.jsonl'"));
        QVERIFY(c.isReadOnly());
        QCOMPARE(c.history().size(), n);
        QCOMPARE(costs.count(), n);
        QCOMPARE(stepped.count(), 1);
        QCOMPARE(wholeDump(*c.lastStep()), wholeDump(*live.steps.back()));
        for (int k = 0; k < n; ++k)
            QVERIFY(!c.history().at(k).complete && c.history().at(k).step->candidates.empty());
        // A revisited step of the trace is the live run's step k, field by field: the record at
        // once, then the whole step replayed from the trace's search.
        for (int k : {0, 2, n / 2, n - 2}) {
            const auto [first, whole] = show(c, k);
            QVERIFY2(whole, "the whole step arrives");
            QCOMPARE(recordDump(*first), recordDump(*live.steps[size_t(k)]));
            QCOMPARE(wholeDump(*whole), wholeDump(*live.steps[size_t(k)]));
            QCOMPARE(c.shownStep(), k);
        }
        QCOMPARE(error.count(), 0);
        // The newest step is whole at once.
        QSignalSpy shown(&c, &SearchController::stepShown);
        c.showNewest();
        QCOMPARE(shown.count(), 1);
        QVERIFY(shown.front().at(3).toBool());
        QCOMPARE(shown.front().at(0).value<SearchStepPtr>(), c.lastStep());
        // Read-only: stepping is refused in one line.
        c.stepOne();
        QCOMPARE(error.count(), 1);
        QVERIFY(!error.front().front().toString().contains('\n'));

        // A record that its replayed step does not match: one line naming the trace's line.
        std::vector<HistoryRecord> tampered = kept;
        auto changed = std::make_shared<SearchStep>(*tampered[2].step);
        changed->beam.front().hash ^= 1;
        tampered[2].step = changed;
        c.setReadOnlyHistory(replay.dag, replay.search.options, std::move(tampered), newest,
                             QStringLiteral("trace 't.jsonl'"));
        error.clear();
        c.showStep(2);
        QTRY_COMPARE_WITH_TIMEOUT(error.count(), 1, 60000);
        const QString message = error.front().front().toString();
        QVERIFY2(message.startsWith(QStringLiteral("trace 't.jsonl' line 3: step 2 replayed")),
                 qPrintable(message));
        QVERIFY(message.contains(QStringLiteral("'beam' differs")));

        // Records out of order, or a newest step that is not the last record, are refused.
        std::vector<HistoryRecord> gap{kept[0], kept[2]};
        QVERIFY_THROWS_EXCEPTION(Error, c.setReadOnlyHistory(live.dag, options, gap, live.steps[2],
                                                             QStringLiteral("t")));
        std::vector<HistoryRecord> two{kept[0], kept[1]};
        QVERIFY_THROWS_EXCEPTION(
            Error, c.setReadOnlyHistory(live.dag, options, two, newest, QStringLiteral("t")));
    }
};

QTEST_MAIN(StepHistoryTest)
#include "StepHistoryTest.moc"
