// Beamscope's kernels are Halide's: for each catalog app's greedy schedule (h100 preset), every
// kernel the featurizer prices is one CUDA kernel in the PTX Halide emits for the applied
// schedule, named after the same root stage, and there is no other. A stage Halide lowers no loop
// for (iir_blur's undef pure definitions) is priced as nothing, not as a kernel.
#include "ScheduleTestUtil.h"
#include "codegen/ScheduleApplier.h"
#include "cost/Featurizer.h"
#include "measure/Compiler.h"
#include "pipeline/PipelineSource.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>

using namespace beamscope;
using namespace beamscope::testing;

namespace {

/// The `.entry` names of a PTX module.
std::vector<std::string> entries(const std::string &ptx) {
    std::vector<std::string> names;
    const std::regex entry(R"(\.entry\s+([A-Za-z0-9_$]+))");
    for (auto it = std::sregex_iterator(ptx.begin(), ptx.end(), entry);
         it != std::sregex_iterator(); ++it)
        names.push_back((*it)[1]);
    return names;
}

class KernelCountCatalog : public ::testing::TestWithParam<std::string> {};

} // namespace

TEST_P(KernelCountCatalog, EveryPricedKernelIsOneCudaKernelOfItsRootStage) {
    const std::string app = GetParam();
    // max_filter at its default radius takes Halide 100 s to lower (its unrolled slices).
    const PipelineSource source{app, "",
                                app == "max_filter"
                                    ? std::vector<std::string>{"width=128", "height=96", "radius=3"}
                                    : std::vector<std::string>{}};
    auto dag = std::make_shared<const FunctionDAG>(loadPipeline(source));
    const StatePtr state = greedySchedule(dag, "h100");
    PipelineInstance fresh = loadPipeline(source);
    const GpuSpec gpu = GpuSpec::load("h100");
    applySchedule(*state, fresh, cudaTarget(75), ScheduleCallOptions::forGpu(gpu));
    const std::vector<std::string> cuda = entries(compileToPtx(fresh, 75));

    Featurizer featurizer(gpu);
    std::set<std::string> matched;
    int priced = 0;
    for (const auto &kernel : featurizer.featurize(*state)) {
        if (kernel->empty()) continue; // only undefined stages: no loop, no launch
        ++priced;
        // Rows are children first: the kernel's root stage is the last.
        const StageFeatureRow &root = kernel->back();
        const std::regex name("_kernel_" + dag->node(root.node).name + "(_{1,2}[0-9]+)?_s" +
                              std::to_string(root.stage) + "_.*");
        std::vector<std::string> hits;
        for (const std::string &c : cuda)
            if (std::regex_match(c, name)) hits.push_back(c);
        ASSERT_EQ(hits.size(), 1u)
            << app << ": " << dag->node(root.node).stages[size_t(root.stage)].name;
        EXPECT_TRUE(matched.insert(hits[0]).second) << hits[0];
    }
    EXPECT_EQ(priced, int(cuda.size())) << app;
}

INSTANTIATE_TEST_SUITE_P(KernelCount, KernelCountCatalog, ::testing::ValuesIn([] {
                             std::vector<std::string> names;
                             for (const AppDefinition &app : appCatalog())
                                 names.push_back(app.name);
                             return names;
                         }()),
                         [](const ::testing::TestParamInfo<std::string> &info) {
                             return info.param;
                         });
