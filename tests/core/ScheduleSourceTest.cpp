// ScheduleSource tests: the exported header names every Func with its decision and cost share,
// and, compiled by the system compiler into a driver library, schedules a fresh pipeline to
// exactly the lowered statement that ScheduleApplier produces in process.
#include "codegen/ScheduleSource.h"

#include "ScheduleTestUtil.h"
#include "codegen/ScheduleApplier.h"
#include "search/SearchEngine.h"
#include "util/Error.h"
#include "util/HalideInstall.h"

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

namespace beamscope {
namespace {

namespace fs = std::filesystem;
using namespace beamscope::testing;

const Halide::Target &cudaTarget() {
    static const Halide::Target target("host-cuda-cuda_capability_70");
    return target;
}

StatePtr greedySchedule(const std::shared_ptr<const FunctionDAG> &dag, StateCost *cost = nullptr) {
    SearchOptions options = SearchOptions::greedy();
    options.gpu = GpuSpec::load("v100");
    SearchEngine engine(dag, options);
    engine.run();
    if (!engine.best()) throw Error("greedy search found no schedule");
    if (cost) *cost = engine.best()->cost;
    return engine.best()->state;
}

std::string readFile(const fs::path &file) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

/// Writes the lowered statement for CUDA (host code and the kernels' PTX) to `file`.
void writeLoweredStmt(Halide::Pipeline p, const fs::path &file) {
    p.compile_to_lowered_stmt(file.string(), p.infer_arguments(), Halide::StmtOutputFormat::Text,
                              cudaTarget());
}

/// Runs `work` in a child forked from this process and returns its exit status (0: done). Both
/// sides of a comparison then start from the same Halide state: its unique-name counters,
/// which name Funcs ("$n"), temporaries and kernels, and so the order of what Halide sorts by
/// name. A failure's message goes to `errorFile`.
int runInChild(const std::function<void()> &work, const fs::path &errorFile) {
    std::fflush(nullptr);
    const pid_t pid = ::fork();
    if (pid == 0) {
        int code = 0;
        try {
            work();
        } catch (const Halide::Error &e) {
            std::ofstream(errorFile) << e.what();
            code = 1;
        } catch (const std::exception &e) {
            std::ofstream(errorFile) << e.what();
            code = 1;
        }
        ::_exit(code); // no atexit handlers or static destructors of the test process
    }
    if (pid < 0) return -1;
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/// "line N:\n  a\n  b" for the first line where `a` and `b` differ; empty when equal.
std::string firstDifference(const std::string &a, const std::string &b) {
    std::istringstream sa(a), sb(b);
    std::string la, lb;
    for (int line = 1;; ++line) {
        const bool more = bool(std::getline(sa, la));
        const bool moreB = bool(std::getline(sb, lb));
        if (!more && !moreB) return "";
        if (more != moreB || la != lb) {
            return "line " + std::to_string(line) + ":\n  applier: " + (more ? la : "<end>") +
                   "\n  exported: " + (moreB ? lb : "<end>");
        }
    }
}

/// A temporary directory removed at the end of the test.
struct TempDir {
    fs::path path;
    TempDir() {
        path = fs::temp_directory_path() / ("beamscope-source-" + std::to_string(::getpid()));
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

/// The compiler that built this test: CMake's, when the build says which; else by family.
std::string systemCompiler() {
#if defined(BEAMSCOPE_CXX_COMPILER)
    return BEAMSCOPE_CXX_COMPILER;
#elif defined(__clang__)
    return "clang++";
#else
    return "c++";
#endif
}

TEST(ScheduleSource, ExportNamesEveryFuncWithDecisionAndCostShare) {
    auto dag = stencilChainDag(3);
    const StatePtr state = handMadeStencilChain(dag);
    StateCost cost;
    cost.total = 8.0;
    StageCost outputCost;
    outputCost.node = dag->find("output");
    outputCost.stage = 0;
    outputCost.terms[size_t(CostTerm::Compute)] = 2.0;
    cost.stages.push_back(outputCost);

    const std::string src = scheduleSource(*state, &cost, "schedule_chain");
    EXPECT_NE(src.find("#ifndef BEAMSCOPE_SCHEDULE_SCHEDULE_CHAIN_H"), std::string::npos) << src;
    EXPECT_NE(src.find("#include \"Halide.h\""), std::string::npos);
    EXPECT_NE(src.find("inline void schedule_chain(Halide::Pipeline pipeline) {"),
              std::string::npos);
    for (const Node &n : dag->nodes()) {
        if (n.isInput) continue;
        EXPECT_NE(src.find("find_func(\"" + n.name + "\")"), std::string::npos) << n.name;
        EXPECT_NE(src.find("    // " + n.name + ": "), std::string::npos) << n.name;
    }
    EXPECT_NE(src.find("// output: root: blocks 48x160, threads 16x8, serial 2x2; 25.0% of the "
                       "predicted cost"),
              std::string::npos)
        << src;
    EXPECT_NE(src.find("// stage_3: block level of output, shared memory"), std::string::npos);
    EXPECT_NE(src.find("// stage_2: block level of output, shared memory"), std::string::npos) << src;
    EXPECT_NE(src.find("stage_3.compute_at(output, x_b)"), std::string::npos) << src;
    EXPECT_NE(src.find(".store_in(MemoryType::GPUShared)"), std::string::npos);
    // Without a cost there is no share.
    const std::string plain = scheduleSource(*state, nullptr, "schedule_chain");
    EXPECT_EQ(plain.find("predicted cost"), std::string::npos);
}

TEST(ScheduleSource, ExportStagesProducersWithTheirWrappers) {
    auto dag = stencilChainDag(3);
    const StatePtr state = stagedStencilChain(dag);
    const std::string src = scheduleSource(*state, nullptr, "schedule_chain");
    EXPECT_NE(src.find("// stage_2: root: blocks 49x321, threads 32x8, serial 1x1; staged in "
                       "registers of stage_3 (6x6 per thread)"),
              std::string::npos)
        << src;
    // The wrapper's statement follows stage_2's own and chains its calls.
    const size_t own = src.find("stage_2.compute_root()");
    const size_t wrapper = src.find("stage_2.in(stage_3)\n"
                                    "            .compute_at(stage_3, x_t)\n"
                                    "            .store_in(MemoryType::Register)\n"
                                    "            .bound_extent(x, 6)\n"
                                    "            .unroll(x)\n"
                                    "            .bound_extent(y, 6)\n"
                                    "            .unroll(y);");
    ASSERT_NE(own, std::string::npos) << src;
    EXPECT_NE(wrapper, std::string::npos) << src;
    EXPECT_LT(own, wrapper);
    // One wrapper only, and none with the switch off.
    EXPECT_EQ(src.find(".in(", wrapper + 8), std::string::npos) << src;
    ScheduleCallOptions off;
    off.stageProducers = false;
    const std::string plain = scheduleSource(*state, nullptr, "schedule_chain", off);
    EXPECT_EQ(plain.find(".in("), std::string::npos) << plain;
    EXPECT_EQ(plain.find("staged"), std::string::npos) << plain;
}

TEST(ScheduleSource, RejectsNamesThatAreNotIdentifiers) {
    auto dag = stencilChainDag(3);
    const StatePtr state = handMadeStencilChain(dag);
    EXPECT_THROW(scheduleSource(*state, nullptr, "2fast"), UsageError);
    EXPECT_THROW(scheduleSource(*state, nullptr, "my-schedule"), UsageError);
    EXPECT_THROW(scheduleSource(*state, nullptr, "int"), UsageError);
    EXPECT_THROW(scheduleSource(*ScheduleState::initial(dag), nullptr, "f"), Error);
}

/// One pipeline whose exported schedule is compiled and compared with the applier.
struct Case {
    std::string app;
    AppParams params;
    std::string function;
    /// A hand-made schedule of the short chain; the greedy schedule when empty.
    std::function<StatePtr(const std::shared_ptr<const FunctionDAG> &)> handMade;
    StatePtr state;
};

TEST(ScheduleSource, CompiledExportLowersLikeTheApplier) {
    using Clock = std::chrono::steady_clock;
    const auto stagedInline = [](const std::shared_ptr<const FunctionDAG> &dag) {
        return stagedStencilChain(dag, true);
    };
    std::vector<Case> cases = {
        {"stencil_chain", {}, "schedule_stencil_chain", nullptr, nullptr},
        {"unsharp_mask", {}, "schedule_unsharp_mask", nullptr, nullptr},
        {"matmul", {}, "schedule_matmul", nullptr, nullptr},
        // Greedy fuses block loops here (4-D) ...
        {"conv_layer", {}, "schedule_conv_layer", nullptr, nullptr},
        // ... and runs a scan (an RVar-only update) on one thread here.
        {"histogram_equalize", {}, "schedule_histogram", nullptr, nullptr},
        {"stencil_chain", kShortChain, "schedule_hand_made", handMadeStencilChain, nullptr},
        {"stencil_chain", kShortChain, "schedule_thread_fused", threadFusedStencilChain, nullptr},
        // Producers staged in registers (paper 4.7): one at root, one inlined.
        {"stencil_chain", kShortChain, "schedule_staged",
         [](const auto &dag) { return stagedStencilChain(dag); }, nullptr},
        {"stencil_chain", kShortChain, "schedule_staged_inline", stagedInline, nullptr}};
    TempDir dir;
    std::string driver = "// Driver: the exported schedules, callable from the test.\n";
    for (Case &c : cases) {
        auto dag = std::make_shared<const FunctionDAG>(buildApp(c.app, c.params));
        StateCost cost;
        c.state = c.handMade ? c.handMade(dag) : greedySchedule(dag, &cost);
        const std::string header = c.function + ".h";
        std::ofstream(dir.path / header)
            << scheduleSource(*c.state, c.handMade ? nullptr : &cost, c.function);
        driver += "#include \"" + header + "\"\n";
    }
    for (const Case &c : cases) {
        driver += "extern \"C\" void call_" + c.function + "(Halide::Pipeline *p) { " + c.function +
                  "(*p); }\n";
    }
    std::ofstream(dir.path / "driver.cpp") << driver;

    // Same compiler family, C++17 (what Halide requires of its users), warnings as errors.
    const HalideInstall halide = locateHalideInstall();
    const fs::path &halideLib = halide.libDir;
    const fs::path &halideInclude = halide.includeDir;
    const fs::path library = dir.path / "libdriver.so";
    const std::string command =
        systemCompiler() + " -std=c++17 -O0 -fPIC -shared -Wall -Wextra " + "-Werror -isystem " +
        halideInclude.string() + " " + (dir.path / "driver.cpp").string() + " -o " +
        library.string() + " -L" + halideLib.string() + " -lHalide -Wl,-rpath," +
        halideLib.string() + " > " + (dir.path / "cc.log").string() + " 2>&1";
    const auto start = Clock::now();
    const int status = std::system(command.c_str());
    const auto compiled = Clock::now();
    ASSERT_EQ(status, 0) << command << "\n" << readFile(dir.path / "cc.log");
    std::printf(
        "  compiling the exported schedules took %lld ms\n",
        (long long)std::chrono::duration_cast<std::chrono::milliseconds>(compiled - start).count());

    void *handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(handle, nullptr) << dlerror();
    for (const Case &c : cases) {
        SCOPED_TRACE(c.function);
        using Apply = void (*)(Halide::Pipeline *);
        auto apply = reinterpret_cast<Apply>(dlsym(handle, ("call_" + c.function).c_str()));
        ASSERT_NE(apply, nullptr) << dlerror();

        const fs::path viaApplier = dir.path / (c.function + ".applier.stmt");
        const fs::path viaSource = dir.path / (c.function + ".source.stmt");
        const fs::path error = dir.path / (c.function + ".error");
        ASSERT_EQ(runInChild(
                      [&] {
                          PipelineInstance fresh = buildApp(c.app, c.params);
                          applySchedule(*c.state, fresh, cudaTarget());
                          writeLoweredStmt(fresh.pipeline, viaApplier);
                      },
                      error),
                  0)
            << readFile(error);
        ASSERT_EQ(runInChild(
                      [&] {
                          PipelineInstance fresh = buildApp(c.app, c.params);
                          // The applier analyzes the fresh pipeline, which uses up unique
                          // names; do the same so that both sides name things alike.
                          const FunctionDAG same(fresh);
                          apply(&fresh.pipeline);
                          writeLoweredStmt(fresh.pipeline, viaSource);
                      },
                      error),
                  0)
            << readFile(error);
        const std::string expected = readFile(viaApplier);
        EXPECT_GT(expected.size(), 1000u);
        EXPECT_EQ(firstDifference(expected, readFile(viaSource)), "");
    }
    dlclose(handle);
}

} // namespace
} // namespace beamscope
