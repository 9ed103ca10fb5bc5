// Item model tests on real search steps (stencil_chain, small): every model under
// QAbstractItemModelTester while it is reset step after step, and its rows checked against the
// snapshot they show (candidates, buckets, pruned, beam, the printed loop nest).
#include "RealSearch.h"

#include "schedule/ScheduleIO.h"
#include "views/beam/BeamModel.h"
#include "views/buckets/BucketModel.h"
#include "views/buckets/PrunedModel.h"
#include "views/common/SelectionHub.h"
#include "views/loopnest/LoopNestModel.h"

#include <QAbstractItemModelTester>
#include <QFont>
#include <QTest>

#include <cmath>
#include <functional>
#include <limits>
#include <sstream>

using namespace beamscope;

class ModelsTest : public QObject {
    Q_OBJECT
private:
    test::RealSearch m_search;

    /// Rows under `parent` at every depth whose column-0 text starts with `prefix`.
    static int countRows(const QAbstractItemModel &model, const QString &prefix,
                         const QModelIndex &parent = {}) {
        int n = 0;
        for (int r = 0; r < model.rowCount(parent); ++r) {
            const QModelIndex index = model.index(r, 0, parent);
            n += index.data().toString().startsWith(prefix);
            n += countRows(model, prefix, index);
        }
        return n;
    }

private Q_SLOTS:
    void initTestCase() {
        m_search = test::runSearch("stencil_chain", {"length=4"}, test::testOptions(4, 2));
        QVERIFY(m_search.steps.size() > 4);
        QVERIFY(m_search.steps.back()->finished);
    }

    void loopNestModelFollowsEveryStep() {
        LoopNestModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        for (const SearchStepPtr &step : m_search.steps) {
            const StatePtr &state = step->beam.front().state;
            model.setState(state);
            QCOMPARE(model.rowCount(), int(state->kernels().size()));
            std::ostringstream printed;
            state->printLoopNest(printed);
            const std::string text = printed.str();
            auto lines = [&](const std::string &word) {
                int n = 0;
                std::istringstream in(text);
                for (std::string line; std::getline(in, line);) {
                    const auto first = line.find_first_not_of(' ');
                    n += first != std::string::npos && line.compare(first, word.size(), word) == 0;
                }
                return n;
            };
            QCOMPARE(countRows(model, "for "), lines("for "));
            QCOMPARE(countRows(model, "compute "), lines("compute "));
            QCOMPARE(countRows(model, "allocate "), lines("allocate "));
        }
        model.setState(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    void loopNestModelShowsLevelsAndMemory() {
        LoopNestModel model;
        model.setState(m_search.steps.back()->beam.front().state);
        QStringList kinds, memories;
        std::function<void(const QModelIndex &)> walk = [&](const QModelIndex &parent) {
            for (int r = 0; r < model.rowCount(parent); ++r) {
                kinds << model.index(r, LoopNestModel::KindColumn, parent).data().toString();
                memories << model.index(r, LoopNestModel::KindColumn, parent).data().toString();
                walk(model.index(r, 0, parent));
            }
        };
        walk({});
        QVERIFY(kinds.contains("block"));
        QVERIFY(kinds.contains("thread"));
        QVERIFY(kinds.contains("serial") || kinds.contains("unrolled"));
        QVERIFY(memories.contains("global"));
        // Every row names a Func, so selecting it can select the Func elsewhere.
        for (int id = 0; id < model.totalRows(); ++id)
            QVERIFY(model.funcOfRow(id) >= 0);
    }

    void bucketModelMatchesCandidates() {
        BucketModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        for (const SearchStepPtr &step : m_search.steps) {
            model.setStep(step);
            int members = 0, sampled = 0, inBeam = 0;
            for (int b = 0; b < model.rowCount(); ++b) {
                const QModelIndex bucket = model.index(b, 0);
                members += model.rowCount(bucket);
                for (int m = 0; m < model.rowCount(bucket); ++m) {
                    const int c = model.candidateOfRow(model.rowId(model.index(m, 0, bucket)));
                    QVERIFY(c >= 0 && c < int(step->candidates.size()));
                    QCOMPARE(
                        model.index(m, BucketModel::HashColumn, bucket).data().toString().size(),
                        16);
                    sampled += !model.index(m, BucketModel::SampledColumn, bucket)
                                    .data()
                                    .toString()
                                    .isEmpty();
                    inBeam += !model.index(m, BucketModel::InBeamColumn, bucket)
                                   .data()
                                   .toString()
                                   .isEmpty();
                }
            }
            int expectSampled = 0, expectInBeam = 0;
            for (const StepCandidate &c : step->candidates) {
                expectSampled += c.sampled;
                expectInBeam += c.inBeam;
            }
            QCOMPARE(members, int(step->candidates.size()));
            QCOMPARE(sampled, expectSampled);
            QCOMPARE(inBeam, expectInBeam);
            QCOMPARE(inBeam, int(step->beam.size()));
            QVERIFY(model.rowCount() >= int(step->buckets.size()));
        }
    }

    void bucketModelSortsBucketsAndMembers() {
        BucketModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        SearchStepPtr biggest;
        for (const SearchStepPtr &step : m_search.steps) {
            if (!biggest || step->buckets.size() > biggest->buckets.size()) biggest = step;
        }
        QVERIFY(biggest && biggest->buckets.size() > 1);
        model.setStep(biggest);
        const int rows = model.totalRows();
        // Largest buckets first, and inside each the cheapest members first under cost order.
        model.sort(BucketModel::SizeColumn, Qt::DescendingOrder);
        QCOMPARE(model.totalRows(), rows); // nothing lost or duplicated
        int previous = std::numeric_limits<int>::max();
        for (int b = 0; b < model.rowCount(); ++b) {
            const QModelIndex bucket = model.index(b, 0);
            if (model.candidateOfRow(model.rowId(bucket)) >= 0) continue;
            const QString label = model.index(b, 0).data().toString();
            if (!label.startsWith(QStringLiteral("bucket"))) continue; // carried over: last
            const int size = model.index(b, BucketModel::SizeColumn).data().toInt();
            QVERIFY(size <= previous);
            previous = size;
        }
        model.sort(BucketModel::CostColumn, Qt::AscendingOrder);
        for (int b = 0; b < model.rowCount(); ++b) {
            const QModelIndex bucket = model.index(b, 0);
            double last = -1;
            for (int m = 0; m < model.rowCount(bucket); ++m) {
                const int c = model.candidateOfRow(model.rowId(model.index(m, 0, bucket)));
                const double cost = biggest->candidates[size_t(c)].cost;
                if (std::isnan(cost)) continue; // uncosted members sort last
                QVERIFY(cost >= last);
                last = cost;
            }
        }
        // Back to the step's own order: bucket 1 first, which holds children of beam state 0
        // (buckets are formed per parent).
        model.sort(BucketModel::DecisionColumn, Qt::AscendingOrder);
        QCOMPARE(model.index(0, 0).data().toString(),
                 QStringLiteral("bucket 1 of beam %1").arg(biggest->buckets[0].parent));
        QCOMPARE(biggest->buckets[0].parent, 0);
    }

    void prunedModelGroupsByReason() {
        PrunedModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        int seenPruned = 0;
        for (const SearchStepPtr &step : m_search.steps) {
            model.setStep(step);
            int leaves = 0;
            for (int r = 0; r < model.rowCount(); ++r) {
                const QModelIndex group = model.index(r, 0);
                QCOMPARE(model.index(r, PrunedModel::CountColumn).data().toInt(),
                         model.rowCount(group));
                leaves += model.rowCount(group);
            }
            QCOMPARE(leaves, int(step->pruned.size()));
            seenPruned += leaves;
        }
        QVERIFY2(seenPruned > 0, "the search should prune something");
    }

    void beamModelShowsDifferencesFromBest() {
        BeamModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        bool sawDifference = false;
        for (const SearchStepPtr &step : m_search.steps) {
            model.setStep(step);
            QCOMPARE(model.rowCount(), int(step->beam.size()));
            QCOMPARE(model.index(0, BeamModel::DiffColumn).data().toString(),
                     QStringLiteral("(best)"));
            for (int r = 0; r < model.rowCount(); ++r) {
                const BeamEntry *e = model.entryOfRow(r);
                QCOMPARE(e, &step->beam[size_t(r)]);
                for (const FuncDifference &d : model.differences(r)) {
                    QVERIFY(d.mine != d.theirs ||
                            e->state->placement(d.node).tilings !=
                                step->beam.front().state->placement(d.node).tilings);
                    sawDifference = true;
                }
            }
            // The search's result is marked on its row (and rows with the same schedule) only.
            int marked = 0;
            for (int r = 0; r < model.rowCount(); ++r) {
                const BeamEntry &e = step->beam[size_t(r)];
                const bool result =
                    step->best && (step->best->state == e.state ||
                                   (e.state->complete() && scheduleToJson(*e.state) ==
                                                               scheduleToJson(*step->best->state)));
                QCOMPARE(model.isResult(r), result);
                QCOMPARE(model.index(r, BeamModel::RankColumn).data().toString().endsWith(u'★'),
                         result);
                if (result) {
                    ++marked;
                    QCOMPARE(e.cost.total, step->best->cost.total);
                }
            }
            if (step == m_search.steps.back()) QCOMPARE(marked, 1); // one main pass: its beam
            model.setHighlightedFunc(step->node);
        }
        QVERIFY(sawDifference);
        model.setStep(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    // With several passes the known-bad penalty (4.5) can rank the cheapest entry below others
    // (matmul, V100, seed 0): the Beam view and the hub call that entry the best, as the
    // Timeline's Best and the search's result do, not the first row.
    void theBestOfTheBeamIsItsCheapestEntryNotItsFirstRow() {
        const test::RealSearch matmul = test::runSearch("matmul", {}, test::testOptions(32, 5));
        BeamModel model;
        SelectionHub hub;
        hub.setDag(matmul.dag);
        int penalizedBest = 0;
        for (const SearchStepPtr &step : matmul.steps) {
            model.setStep(step);
            int cheapest = 0; // the independent expectation: the first of the lowest costs
            for (int r = 1; r < int(step->beam.size()); ++r) {
                if (step->beam[size_t(r)].cost.total < step->beam[size_t(cheapest)].cost.total)
                    cheapest = r;
            }
            QCOMPARE(model.bestRow(), cheapest);
            const BeamEntry &best = step->beam[size_t(cheapest)];
            for (int r = 0; r < model.rowCount(); ++r) {
                const QString diff = model.index(r, BeamModel::DiffColumn).data().toString();
                QCOMPARE(diff == QStringLiteral("(best)"), r == cheapest);
                // No font (an invalid variant) reads as the default, not bold.
                const QVariant font = model.index(r, BeamModel::RankColumn).data(Qt::FontRole);
                QCOMPARE(font.value<QFont>().bold(), r == cheapest || model.isResult(r));
                for (const FuncDifference &d : model.differences(r)) {
                    QVERIFY(d.mine != d.theirs ||
                            step->beam[size_t(r)].state->placement(d.node).tilings !=
                                best.state->placement(d.node).tilings);
                }
            }
            QVERIFY(model.differences(cheapest).empty());
            if (cheapest > 0 && !step->finished) {
                ++penalizedBest;
                hub.setStep(step);
                QCOMPARE(hub.state(), best.state);
                QCOMPARE(hub.stateLabel(), QStringLiteral("best of the beam"));
            }
        }
        QVERIFY2(penalizedBest > 0, "the penalty should rank a cheaper state below the first");
    }
};

QTEST_MAIN(ModelsTest)
#include "ModelsTest.moc"
