// Beamscope's kernels are Halide's. For each catalog app's greedy schedule (h100 preset), and for
// three H100 rows whose blocks fuse stages of different thread shapes (tests/data/block-shapes),
// every kernel the featurizer prices is one CUDA kernel in the PTX Halide emits for the applied
// schedule, named after the same root stage, there is no other, and its block has the threads
// Halide launches it with (per thread dimension the largest extent of any of its stages). A stage
// Halide lowers no loop for (iir_blur's undef pure definitions) is priced as nothing.
#include "ConceptualStmt.h"
#include "ScheduleTestUtil.h"
#include "codegen/ScheduleApplier.h"
#include "cost/Featurizer.h"
#include "measure/Compiler.h"
#include "pipeline/PipelineSource.h"
#include "schedule/ScheduleIO.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
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

/// Threads per block of a kernel: the product of its thread loops' constant extents, and how
/// many of its thread loops Halide sizes at run time instead.
struct BlockThreads {
    int64_t constant = 1;
    int runtimeSized = 0;
};

/// Threads per block of each kernel of a conceptual statement, by its root stage ("f s0")
/// (Halide has fused each dimension to its largest).
std::map<std::string, BlockThreads> blockThreads(const std::string &stmt) {
    std::map<std::string, BlockThreads> out;
    const std::regex block(R"(^\s*gpu_block<CUDA> \(([A-Za-z0-9_]+)\.s([0-9]+)\..*)");
    const std::regex thread(R"(^\s*gpu_thread<CUDA> \(\.thread_id_[xyz], 0, (.+)\) \{)");
    const std::regex number("[0-9]+");
    std::istringstream lines(stmt);
    std::string line, kernel;
    bool afterBlock = false;
    while (std::getline(lines, line)) {
        std::smatch m;
        const bool isBlock = std::regex_match(line, m, block);
        if (isBlock && !afterBlock) { // the outermost block loop of a kernel
            kernel = std::string(m[1]) + " s" + std::string(m[2]);
            out[kernel] = {};
        } else if (!kernel.empty() && std::regex_match(line, m, thread)) {
            const std::string extent = m[1];
            if (std::regex_match(extent, number)) {
                out[kernel].constant *= std::stoll(extent);
            } else {
                ++out[kernel].runtimeSized;
            }
        }
        afterBlock = isBlock;
    }
    return out;
}

void expectHalidesKernels(const std::string &app, const std::vector<std::string> &params,
                          const nlohmann::json *schedule) {
    SCOPED_TRACE(app);
    const PipelineSource source{app, "", params};
    auto dag = std::make_shared<const FunctionDAG>(loadPipeline(source));
    const GpuSpec gpu = GpuSpec::load("h100");
    const StatePtr state =
        schedule ? scheduleFromJson(dag, *schedule) : greedySchedule(dag, "h100");
    PipelineInstance fresh = loadPipeline(source);
    applySchedule(*state, fresh, cudaTarget(75), ScheduleCallOptions::forGpu(gpu));
    const std::vector<std::string> cuda = entries(compileToPtx(fresh, 75));
    const std::map<std::string, BlockThreads> threads =
        blockThreads(conceptualStmtText(fresh.pipeline, cudaTarget(75)));

    Featurizer featurizer(gpu);
    std::set<std::string> matched;
    int priced = 0;
    for (const auto &kernel : featurizer.featurize(*state)) {
        if (kernel->empty()) continue; // only undefined stages: no loop, no launch
        ++priced;
        // Rows are children first: the kernel's root stage is the last.
        const StageFeatureRow &root = kernel->back();
        const Node &node = dag->node(root.node);
        const std::string stageName = node.stages[size_t(root.stage)].name;
        // Halide numbers its lambdas per process: the fresh instance's may not be the DAG's.
        const std::string func = node.name.rfind("lambda_", 0) == 0 ? "lambda_[0-9]+" : node.name;
        const std::regex name("_kernel_" + func + "(_{1,2}[0-9]+)?_s" + std::to_string(root.stage) +
                              "_.*");
        std::vector<std::string> hits;
        for (const std::string &c : cuda)
            if (std::regex_match(c, name)) hits.push_back(c);
        ASSERT_EQ(hits.size(), 1u)
            << stageName << " (" << node.halideName << ") among " << ::testing::PrintToString(cuda);
        EXPECT_TRUE(matched.insert(hits[0]).second) << hits[0];

        const std::regex key(func + " s" + std::to_string(root.stage));
        auto it = threads.begin();
        while (it != threads.end() && !std::regex_match(it->first, key))
            ++it;
        ASSERT_NE(it, threads.end()) << stageName;
        std::string phases;
        for (const StageFeatureRow &row : *kernel) {
            const FuncPlacement &p = state->placement(row.node);
            const StageTiling &t = p.tilings[size_t(row.stage)];
            phases += " " + dag->node(row.node).stages[size_t(row.stage)].name + " kind " +
                      std::to_string(int(p.kind)) + " threads";
            for (int64_t v : t.threads)
                phases += " " + std::to_string(v);
            phases += " serial";
            for (int64_t v : t.serial)
                phases += " " + std::to_string(v);
            phases += ";";
        }
        const double ours = root.features[Feature::block_occupancy] * gpu.maxThreadsPerBlock;
        const BlockThreads &halide = it->second;
        if (halide.runtimeSized > 0) {
            // A thread loop sized at run time (nl_means' non_local_means_sum in its consumer's
            // blocks reads channels c and 3: their hull depends on the output's min channel).
            // The estimates fix it for Beamscope; the constant loops must divide its count.
            const auto oursThreads = int64_t(ours + 0.5);
            EXPECT_EQ(oursThreads % halide.constant, 0) << stageName << phases;
            EXPECT_GE(oursThreads, halide.constant) << stageName << phases;
        } else if (app == "interpolate" || app == "local_laplacian") {
            // Their upsampling phases take a thread per point of the region a block reads, and
            // Halide's hull of that region can be a row or column wider than the tiles' (the
            // taps bounded per tile, docs/design-notes.md): the block at most as wide
            // (local_laplacian's inGPyramid_7 in outGPyramid_6's 16x2 blocks: 16x3 in Halide).
            EXPECT_LE(ours, double(halide.constant)) << stageName << phases;
        } else {
            EXPECT_DOUBLE_EQ(ours, double(halide.constant)) << stageName << phases;
        }
    }
    EXPECT_EQ(priced, int(cuda.size()));
}

class KernelCountCatalog : public ::testing::TestWithParam<std::string> {};

} // namespace

TEST_P(KernelCountCatalog, EveryPricedKernelIsOneCudaKernelWithHalidesBlock) {
    const std::string app = GetParam();
    // max_filter at its default radius takes Halide 100 s to lower (its unrolled slices).
    expectHalidesKernels(app,
                         app == "max_filter"
                             ? std::vector<std::string>{"width=128", "height=96", "radius=3"}
                             : std::vector<std::string>{},
                         nullptr);
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

// Rows of the H100 data whose blocks fuse phases of different shapes, e.g. camera_pipe's `b`
// (threads 32x1 beside a phase of 16x3: Halide launches 32x3 = 96, not 48).
TEST(KernelCount, BlocksOfDifferentlyShapedPhasesHaveHalidesThreads) {
    for (const std::string file :
         {"camera_pipe-h100-row27", "stencil_chain-h100-row183", "bilateral_grid-h100-row17"}) {
        std::ifstream in(std::string(BEAMSCOPE_TEST_DATA_DIR) + "/block-shapes/" + file + ".json");
        ASSERT_TRUE(in) << file;
        const nlohmann::json schedule = nlohmann::json::parse(in);
        expectHalidesKernels(file.substr(0, file.find("-h100")), {}, &schedule);
    }
}
