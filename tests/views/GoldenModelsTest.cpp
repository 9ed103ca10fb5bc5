// The item models' text dumps against golden files (tests/golden/models_*.txt) on a fixed small
// search (stencil_chain length 3, beam 2, one pass, the paper's V100, seed 0): the loop nest of
// the result, the final beam, and the buckets and pruned candidates of the first step that prunes.
// A mismatch prints a line diff; tests/golden/update.sh regenerates the files deliberately.
#include "GoldenFile.h"
#include "ModelDump.h"
#include "RealSearch.h"

#include "views/beam/BeamModel.h"
#include "views/buckets/BucketModel.h"
#include "views/buckets/PrunedModel.h"
#include "views/loopnest/LoopNestModel.h"

#include <QTest>

using namespace beamscope;

class GoldenModelsTest : public QObject {
    Q_OBJECT
private:
    test::RealSearch m_search;

    static void check(const std::string &name, const QAbstractItemModel &model) {
        const auto diff = golden::mismatch(BEAMSCOPE_GOLDEN_DIR, name, test::dumpModel(model));
        QVERIFY2(!diff, diff ? diff->c_str() : "");
    }
    /// The first step that pruned a candidate (the search prunes from its first steps).
    SearchStepPtr firstPruningStep() const {
        for (const SearchStepPtr &step : m_search.steps)
            if (!step->pruned.empty()) return step;
        return nullptr;
    }

private Q_SLOTS:
    void initTestCase() {
        m_search = test::runSearch("stencil_chain", {"length=3"}, test::testOptions(2, 1));
        QVERIFY(!m_search.steps.empty() && m_search.steps.back()->finished);
        QVERIFY(firstPruningStep());
    }

    void loopNestOfTheResult() {
        LoopNestModel model;
        const SearchStepPtr &last = m_search.steps.back();
        model.setState(cheapestEntry(last->beam)->state);
        check("models_loopnest_stencil_chain_3.txt", model);
    }

    void finalBeam() {
        BeamModel model;
        model.setStep(m_search.steps.back());
        check("models_beam_stencil_chain_3.txt", model);
    }

    void bucketsOfThePruningStep() {
        BucketModel model;
        model.setStep(firstPruningStep());
        check("models_buckets_stencil_chain_3.txt", model);
    }

    void prunedOfThePruningStep() {
        PrunedModel model;
        model.setStep(firstPruningStep());
        check("models_pruned_stencil_chain_3.txt", model);
    }
};

QTEST_MAIN(GoldenModelsTest)
#include "GoldenModelsTest.moc"
