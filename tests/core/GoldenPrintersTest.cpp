// The core printers against golden files (tests/golden/): FunctionDAG::dump of two catalog apps
// (a stencil chain; matmul with its reduction) and ScheduleState::printLoopNest of hand-made
// stencil-chain schedules (shared memory, thread-level fusion, register staging) and of a small
// search's result.
// A mismatch prints a line diff; tests/golden/update.sh regenerates the files deliberately.
#include "../GoldenFile.h"
#include "ScheduleTestUtil.h"

#include "search/SearchEngine.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace beamscope;
using namespace beamscope::testing;

namespace {

void expectGolden(const std::string &name, const std::string &actual) {
    const auto diff = golden::mismatch(BEAMSCOPE_GOLDEN_DIR, name, actual);
    EXPECT_FALSE(diff) << *diff;
}

std::string dagDump(const FunctionDAG &dag) {
    std::ostringstream out;
    dag.dump(out);
    return out.str();
}

std::string loopNest(const ScheduleState &state) {
    std::ostringstream out;
    state.printLoopNest(out);
    return out.str();
}

} // namespace

TEST(GoldenPrinters, DagDumpOfAStencilChain) {
    expectGolden("dag_stencil_chain_3.txt", dagDump(*stencilChainDag(3)));
}

TEST(GoldenPrinters, DagDumpOfMatmul) {
    expectGolden("dag_matmul.txt", dagDump(FunctionDAG(buildApp("matmul"))));
}

TEST(GoldenPrinters, LoopNestOfHandMadeSchedules) {
    auto dag = stencilChainDag(3);
    expectGolden("loopnest_stencil_chain_3_shared.txt", loopNest(*handMadeStencilChain(dag)));
    expectGolden("loopnest_stencil_chain_3_thread_fused.txt",
                 loopNest(*threadFusedStencilChain(dag)));
    expectGolden("loopnest_stencil_chain_3_staged.txt", loopNest(*stagedStencilChain(dag)));
}

TEST(GoldenPrinters, LoopNestOfASearchResult) {
    auto dag = std::make_shared<const FunctionDAG>(buildApp("matmul"));
    SearchOptions options;
    options.beamSize = 2;
    options.passes = 1;
    options.gpu = GpuSpec::load("v100");
    SearchEngine engine(dag, options);
    engine.run();
    ASSERT_TRUE(engine.best() && engine.best()->state->complete());
    expectGolden("loopnest_matmul_search.txt", loopNest(*engine.best()->state));
}
