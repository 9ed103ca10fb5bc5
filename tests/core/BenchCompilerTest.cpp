// Compiler: ptxas report parsing, real spill detection on a register-heavy schedule, the
// post-compile filter of paper 6.1, and lowering a naive schedule for CUDA and OpenCL.
#include "measure/Baselines.h"
#include "measure/Compiler.h"
#include "pipeline/AppCatalog.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>

using namespace beamscope;

namespace {

/// out(x, y) = sum_i f(x, y, i) * f(x, y, (7i + 3) mod n), with f computed per thread and
/// unrolled over i: n values of f are live at once, so a large n must spill.
PipelineInstance registerHeavy(int n) {
    using namespace Halide;
    Var x("x"), y("y"), c("c"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func f("f"), out("out");
    f(x, y, c) = sqrt(cast<float>(x * 17 + y * 31 + c * 7));
    Expr e = 0.0f;
    for (int i = 0; i < n; ++i)
        e += f(x, y, i) * f(x, y, (i * 7 + 3) % n);
    out(x, y) = e;
    out.set_estimate(x, 0, 256).set_estimate(y, 0, 256);
    out.gpu_tile(x, y, xo, yo, xi, yi, 8, 8);
    f.compute_at(out, xi).unroll(c);
    PipelineInstance instance;
    instance.name = "register_heavy";
    instance.pipeline = Pipeline(out);
    return instance;
}

/// The most threads of one GPU block among the kernel launches of the lowered `module`: its
/// halide_cuda_run calls (state, entry, 3 block extents, 3 thread extents, shared bytes, ...);
/// -1 when a thread extent is not a constant.
int64_t largestThreadBlock(const Halide::Module &module) {
    namespace hi = Halide::Internal;
    struct Visitor : hi::IRVisitor {
        using hi::IRVisitor::visit;
        int64_t largest = 0;
        void visit(const hi::Call *op) override {
            hi::IRVisitor::visit(op);
            if (op->name != "halide_cuda_run" || op->args.size() < 8 || largest < 0) return;
            int64_t threads = 1;
            for (size_t i = 5; i < 8; ++i) {
                const auto extent = hi::as_const_int(op->args[i]);
                if (!extent) {
                    largest = -1;
                    return;
                }
                threads *= *extent;
            }
            largest = std::max(largest, threads);
        }
    } visitor;
    for (const hi::LoweredFunc &function : module.functions())
        function.body.accept(&visitor);
    return visitor.largest;
}

Measurement candidate(double predicted, int64_t spills, const std::string &failure = "") {
    Measurement m;
    m.predicted = predicted;
    m.spillBytes = spills;
    m.failure = failure;
    return m;
}

} // namespace

TEST(BenchCompiler, ParsesPtxasVerboseOutput) {
    const std::string log =
        "ptxas info    : 0 bytes gmem\n"
        "ptxas info    : Compiling entry function '_kernel_a' for 'sm_75'\n"
        "ptxas info    : Function properties for _kernel_a\n"
        "    384 bytes stack frame, 1168 bytes spill stores, 768 bytes spill loads\n"
        "ptxas info    : Used 255 registers, used 0 barriers, 384 bytes cumulative stack size\n"
        "ptxas info    : Compiling entry function '_kernel_b' for 'sm_75'\n"
        "ptxas info    : Function properties for _kernel_b\n"
        "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
        "ptxas info    : Used 28 registers, 388 bytes cmem[0]\n";
    const std::vector<KernelResources> kernels = parsePtxasLog(log);
    ASSERT_EQ(kernels.size(), 2u);
    EXPECT_EQ(kernels[0], (KernelResources{"_kernel_a", 255, 1168, 768, 384}));
    EXPECT_EQ(kernels[1], (KernelResources{"_kernel_b", 28, 0, 0, 0}));
}

TEST(BenchCompiler, DetectsSpillsOfARegisterHeavySchedule) {
    if (ptxasPath().empty()) GTEST_SKIP() << "no ptxas";
    const PtxReport heavy = compileForCuda(registerHeavy(400), 75);
    ASSERT_TRUE(heavy.ptxasRan()) << heavy.log;
    ASSERT_EQ(heavy.kernels.size(), 1u) << heavy.log;
    EXPECT_EQ(heavy.arch, "sm_75");
    EXPECT_GT(heavy.spillBytes(), 0) << heavy.log;
    EXPECT_GE(heavy.maxRegisters(), 200) << heavy.log;

    const PtxReport light = compileForCuda(registerHeavy(16), 75);
    ASSERT_TRUE(light.ptxasRan());
    EXPECT_EQ(light.spillBytes(), 0) << light.log;
    EXPECT_LT(light.maxRegisters(), 128);
}

TEST(BenchCompiler, OldArchitecturesFallBackToTheOldestPtxasSupports) {
    if (ptxasPath().empty()) GTEST_SKIP() << "no ptxas";
    // V100 is sm_70; CUDA 13's ptxas starts at sm_75, older toolkits take sm_70 as is.
    const PtxReport report = compileForCuda(registerHeavy(4), 70);
    EXPECT_TRUE(report.arch == "sm_70" || report.arch == "sm_75") << report.arch;
    EXPECT_EQ(report.kernels.size(), 1u);
}

TEST(BenchCompiler, NaiveScheduleLowersForCudaAndOpenCl) {
    PipelineInstance cuda =
        buildApp("stencil_chain", {{"length", 2}, {"width", 64}, {"height", 48}});
    applyNaiveGpuSchedule(cuda);
    const std::string ptx = compileToPtx(cuda, 75);
    EXPECT_NE(ptx.find(".entry"), std::string::npos);
    EXPECT_EQ(ptx.find('\0'), std::string::npos);
    PipelineInstance opencl =
        buildApp("stencil_chain", {{"length", 2}, {"width", 64}, {"height", 48}});
    applyNaiveGpuSchedule(opencl);
    const std::string source = compileForTarget(opencl, Halide::Target("host-opencl"));
    EXPECT_NE(source.find("__kernel"), std::string::npos);
}

// Mullapudi2016's GPU mode makes each cache-sized tile one thread block: sized for the L2 it
// asked for 256x256 threads, which CUDA refuses at launch (seen on an H100); sized for a
// block's shared memory, as the plugin means it, the blocks fit.
TEST(BenchCompiler, Mullapudi2016GpuBlocksFitTheGpu) {
    const GpuSpec gpu = GpuSpec::load("h100");
    const Halide::Target target("host-cuda-cuda_capability_86");
    for (const char *app : {"harris", "unsharp_mask"}) {
        PipelineInstance instance = buildApp(app, {});
        applyHalideAutoscheduler(Baseline::Mullapudi2016, instance, target, gpu);
        const int64_t threads = largestThreadBlock(
            instance.pipeline.compile_to_module(instance.pipeline.infer_arguments(), app, target));
        EXPECT_GT(threads, 0) << app;
        EXPECT_LE(threads, gpu.maxThreadsPerBlock) << app;
    }
}

// "anderson2021-paper" runs Halide's Anderson2021 as the paper does: its freezing pre-pass
// (which says "Freezing <Func>" on stderr for every stage it freezes) and hierarchical
// sampling; "anderson2021" keeps Halide's defaults, where neither runs. The plugin must really
// run, so the baseline schedule cache (which a user's earlier run may have filled) is off.
TEST(BenchCompiler, Anderson2021PaperBaselineRunsThePapersFreezing) {
    const GpuSpec gpu = GpuSpec::load("v100");
    const Halide::Target target("host-cuda-cuda_capability_70");
    ::setenv("BEAMSCOPE_BASELINE_CACHE", "off", 1);
    std::map<Baseline, std::string> logs;
    for (Baseline baseline : {Baseline::Anderson2021, Baseline::Anderson2021Paper}) {
        PipelineInstance instance = buildApp("unsharp_mask", {});
        testing::internal::CaptureStderr();
        bool fromCache = true;
        const AutoschedulerRun run =
            applyHalideAutoscheduler(baseline, instance, target, gpu, &fromCache);
        logs[baseline] = testing::internal::GetCapturedStderr();
        EXPECT_FALSE(fromCache);
        EXPECT_NE(run.scheduleSource.find("gpu_blocks"), std::string::npos) << run.scheduleSource;
    }
    EXPECT_NE(logs[Baseline::Anderson2021Paper].find("Freezing "), std::string::npos)
        << logs[Baseline::Anderson2021Paper];
    EXPECT_EQ(logs[Baseline::Anderson2021].find("Freezing "), std::string::npos)
        << logs[Baseline::Anderson2021];
    EXPECT_EQ(parseBaseline("Anderson2021-Paper"), Baseline::Anderson2021Paper);
    ::unsetenv("BEAMSCOPE_BASELINE_CACHE");
}

TEST(BenchCompiler, FilterDropsSpillingAndFailedCandidates) {
    const std::vector<Measurement> c = {candidate(3, 0), candidate(1, 64), candidate(2, 0),
                                        candidate(0.5, 0, "wrong output"), candidate(4, -1)};
    EXPECT_EQ(postCompileFilter(c), (std::vector<size_t>{2, 0, 4}));
}

TEST(BenchCompiler, FilterKeepsBestPredictedNearTheLeastSpillingWhenAllSpill) {
    // Least spilling: 100 bytes; within 50%: 100, 140 (not 151, 400). Best predicted of those.
    const std::vector<Measurement> c = {candidate(1.0, 400), candidate(3.0, 100),
                                        candidate(2.0, 140), candidate(1.5, 151)};
    EXPECT_EQ(postCompileFilter(c), (std::vector<size_t>{2}));
    EXPECT_TRUE(postCompileFilter({}).empty());
    EXPECT_TRUE(postCompileFilter({candidate(1, 0, "crash")}).empty());
}
