// The item models' text against golden files (tests/golden/model_*.txt): what the Loop nest,
// Beam, Candidates (buckets), Pruned, Benchmark and Tune docks show, dumped row by row
// (ModelDump.h) for small fixed cases: a real search of stencil_chain (length 4, V100, beam 4,
// 2 passes, seed 0) and hand-made benchmark and tune rows. The expectation is the file, not
// core's printers: a change to a model's text, or to what it shows, fails with a line diff.
// tests/golden/update.sh regenerates the files deliberately.
#include "../GoldenFile.h"
#include "ModelDump.h"
#include "RealSearch.h"

#include "views/beam/BeamModel.h"
#include "views/benchmark/BenchResultsModel.h"
#include "views/buckets/BucketModel.h"
#include "views/buckets/PrunedModel.h"
#include "views/loopnest/LoopNestModel.h"
#include "views/tune/TuneRoundsModel.h"

#include <QTest>

#include <optional>

using namespace beamscope;

namespace {

/// Fails the test with the line diff when `model`'s dump differs from golden file `name`.
#define COMPARE_GOLDEN(name, model)                                                                \
    do {                                                                                           \
        const auto diff = golden::mismatch(BEAMSCOPE_GOLDEN_DIR, name, test::dumpModel(model));    \
        if (diff) QFAIL(diff->c_str());                                                            \
    } while (false)

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

TuneRound round(int number, double roundBest, double best, double tau) {
    TuneRound r;
    r.round = number;
    r.model = number == 0 ? "analytic" : "learned";
    r.measured = 16;
    r.failures = number;
    r.reused = 2 * number;
    r.roundBestMs = roundBest;
    r.bestMs = best;
    r.tau = tau;
    r.pairwiseAccuracy = (tau + 1) / 2;
    r.searchMs = 1200 + 100 * number;
    r.measureMs = 8400;
    r.trainMs = number == 0 ? 0 : 350;
    return r;
}

} // namespace

class GoldenModelsTest : public QObject {
    Q_OBJECT
private:
    test::RealSearch m_search;

    /// The first of the smallest steps (fewest candidates) where hierarchical sampling left
    /// candidates out: the Candidates dock showing buckets and what was sampled from them.
    SearchStepPtr sampledStep() const {
        SearchStepPtr chosen;
        for (const SearchStepPtr &step : m_search.steps) {
            bool leftOut = false;
            for (const StepCandidate &c : step->candidates)
                leftOut = leftOut || !c.sampled;
            if (leftOut && (!chosen || step->candidates.size() < chosen->candidates.size()))
                chosen = step;
        }
        return chosen;
    }

    /// The first of the steps that pruned the fewest candidates (at least one).
    SearchStepPtr prunedStep() const {
        SearchStepPtr chosen;
        for (const SearchStepPtr &step : m_search.steps) {
            if (!step->pruned.empty() && (!chosen || step->pruned.size() < chosen->pruned.size()))
                chosen = step;
        }
        return chosen;
    }

private Q_SLOTS:
    void initTestCase() {
        m_search = test::runSearch("stencil_chain", {"length=4"}, test::testOptions(4, 2));
        QVERIFY(m_search.steps.size() > 4);
        QVERIFY(m_search.steps.back()->finished);
    }

    void loopNestOfTheResult() {
        LoopNestModel model;
        model.setState(m_search.steps.back()->best->state);
        COMPARE_GOLDEN("model_loopnest_stencil_chain_4.txt", model);
    }

    void beamAtTheEnd() {
        BeamModel model;
        model.setStep(m_search.steps.back());
        COMPARE_GOLDEN("model_beam_stencil_chain_4.txt", model);
    }

    void candidatesOfASampledStep() {
        const SearchStepPtr step = sampledStep();
        QVERIFY(step);
        BucketModel model;
        model.setStep(step);
        COMPARE_GOLDEN("model_candidates_stencil_chain_4.txt", model);
    }

    void prunedOfAStep() {
        const SearchStepPtr step = prunedStep();
        QVERIFY(step);
        PrunedModel model;
        model.setStep(step);
        COMPARE_GOLDEN("model_pruned_stencil_chain_4.txt", model);
    }

    void benchmarkRows() {
        BenchResultsModel model;
        Measurement best = row("beam#0", 0.5, 1.25, true);
        best.registers = 40;
        best.spillBytes = 0;
        Measurement hung = row("beam#1", 0.7, std::nullopt, std::nullopt);
        hung.failure = "hang: timed out after 120 s";
        Measurement crashed = row("greedy#1", 0.8, std::nullopt, std::nullopt);
        crashed.failure = "crash: signal 11 (Segmentation fault); triage: device compiler "
                          "crashed (correct on the host with bounds checks)";
        crashed.crashVerdict = "device compiler crashed";
        Measurement naive = row("baseline:naive", Measurement::kUnknown, 3.0, true);
        naive.searchMs = 0.2;
        Measurement li = row("baseline:li2018", Measurement::kUnknown, 1.5, true);
        li.searchMs = 41.5;
        model.setResults({best, hung, row("greedy#0", 0.9, 2.0, false), crashed}, {naive, li}, 0);
        COMPARE_GOLDEN("model_benchmark.txt", model);
    }

    void tuneRounds() {
        TuneRoundsModel model;
        model.setRounds({round(0, 2.5, 2.5, Measurement::kUnknown), round(1, 1.75, 1.75, 0.42),
                         round(2, 1.9, 1.75, 0.61)});
        COMPARE_GOLDEN("model_tune_rounds.txt", model);
    }
};

QTEST_MAIN(GoldenModelsTest)
#include "GoldenModelsTest.moc"
