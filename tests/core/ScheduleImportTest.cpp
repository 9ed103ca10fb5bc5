// ScheduleImport tests: a Beamscope schedule applied by the applier and read back from the
// Funcs is the same state (the greedy schedule of every catalog app; hand-made schedules with
// shared-memory and register fusion and register staging); the naive GPU schedule imports as
// the 16x16 root tilings Baselines.h documents; Halide scheduling calls outside Beamscope's
// space are each reported with the Func and the directive, never dropped; Anderson2021's
// schedule, where the import finds it representable with no lowering difference, lowers to
// the same loop nest when Beamscope's applier applies the imported state.
#include "codegen/ScheduleImport.h"

#include "ConceptualStmt.h"
#include "ScheduleTestUtil.h"
#include "bench/BaselineImport.h"
#include "codegen/ScheduleApplier.h"
#include "schedule/ScheduleIO.h"
#include "search/SearchEngine.h"
#include "util/Error.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace beamscope {
namespace {

using namespace beamscope::testing;

const Halide::Target &cudaTarget() {
    static const Halide::Target target("host-cuda-cuda_capability_70");
    return target;
}

std::string constructsOf(const ScheduleImport &imported) {
    std::string out;
    for (const ImportedFunc &f : imported.funcs) {
        for (const std::string &c : f.constructs)
            out += f.name + ": " + c + "\n";
    }
    return out;
}

/// An app, its parameters and the configuration of Anderson2021 that schedules it.
struct AndersonCase {
    std::string app;
    std::vector<std::string> params;
    Baseline baseline = Baseline::Anderson2021Paper;
    /// Where the import names loop differences elsewhere too: the Func whose loops must be
    /// the same, but for `unrolledByThem`, a serial loop of 16 points of Beamscope's that
    /// Anderson2021 unrolls (Beamscope unrolls fewer than 16; the statement has no loop left).
    std::string focus = {};
    std::string unrolledByThem = {};
};

/// Apps (at small sizes) whose Anderson2021 schedule (the paper's configuration, h100) the
/// import finds representable: every Func, as `beamscope-cli compare --with` lists them.
const std::vector<AndersonCase> kAndersonRepresentable = {
    {"unsharp_mask", {"width=128", "height=96"}},
    {"stencil_chain", {"length=4", "width=128", "height=96"}},
    {"bilateral_grid", {"width=128", "height=96"}},
    // prod and conv, with their updates, in shared memory at their consumer's block level.
    {"matmul", {"m=64", "n=64", "k=64"}},
    {"conv_layer", {"batch=1", "in_channels=8", "out_channels=8", "width=16", "height=12"}},
    // Sxx, Sxy and Syy root, their updates tiled 16x2 like their pure stages.
    {"harris", {"width=128", "height=96"}},
    // At its default size (1536x2560; Halide's default configuration, about 20 s of its
    // search) histogram and its scattering update in shared memory at blurz's block level.
    // (blurz's fourth thread loop of one iteration: fused by Beamscope, left serial by
    // Anderson2021; blurx staged in blury's registers by Beamscope only.)
    {"bilateral_grid", {}, Baseline::Anderson2021, "histogram", "4 for histogram.s0 16"},
    // hist_rows' update with no GPU thread loop: a block per row, one thread, the row's RVar
    // serial (read as threads 1, serial the RVar).
    {"histogram_equalize", {"width=128", "height=96"}},
    // dc, blur_d_y, blur_d and non_local_means_sum's updates guarded by Beamscope (copied by
    // Halide's loop partitioning) where Anderson2021 rounds up (the import names those tails).
    {"nl_means", {"width=64", "height=48", "patch_size=3", "search_area=3"}},
    // At 192x128 with 8 slices (at the small size Halide refuses Anderson2021's own schedule: a
    // loop of cost_pyramid_push_5_downy left between its block loops; docs/import.md):
    // worst_case_bokeh_radius in blurred's update tiles (BlockLevelInUpdateTilesTest). The
    // import names loop differences (fused and unrolled loops, register staging), which the
    // statements show.
    {"lens_blur",
     {"width=192", "height=128", "slices=8", "aperture_samples=8", "max_blur_radius=3"}},
    {"max_filter", {"width=128", "height=96", "radius=3"}},
    {"iir_blur", {"width=128", "height=96", "channels=3"}},
    {"depthwise_separable_conv",
     {"batch=1", "in_channels=8", "out_channels=8", "width=16", "height=12"}},
    {"interpolate", {"width=128", "height=96", "levels=3"}},
    {"camera_pipe", {"width=128", "height=96"}},
    {"bgu", {"width=128", "height=96", "low_width=32", "low_height=24", "s_sigma=4"}},
    {"local_laplacian", {"width=128", "height=96", "levels=3", "intensity_levels=4"}},
};

/// Apps whose updates Beamscope's applier guards (GuardWithIf) where Anderson2021 splits some
/// with RoundUp: the same loops, but Halide's loop partitioning copies a guarded loop nest for
/// the tails (docs/import.md), which the import does not name because the splits leave no tail
/// at the estimated sizes. (harris: only Beamscope's nests are copied; max_filter and iir_blur:
/// Anderson2021 guards some of its own too, and both sides have copies; nl_means: the import
/// names its tails, RoundUp against GuardWithIf, which the estimates leave.)
const std::set<std::string> kGuardedUpdateTails = {"harris", "max_filter", "iir_blur",
                                                    "nl_means"};

/// The skeleton's lines of `func`'s loops.
std::vector<std::string> loopsOf(const std::vector<std::string> &skeleton,
                                 const std::string &func) {
    std::vector<std::string> out;
    for (const std::string &line : skeleton)
        if (line.find(" " + func + ".s") != std::string::npos) out.push_back(line);
    return out;
}

/// A difference in the loops a schedule lowers to (not a tail, a layout, or a register copy,
/// whose loops are unrolled away).
bool changesLoops(const std::string &difference) {
    return difference.rfind("loops:", 0) == 0;
}

/// Applies `state` to a fresh instance of `app` and reads it back.
ScheduleImport roundTrip(const ScheduleState &state, const std::string &app,
                         const AppParams &params = {}) {
    return importApplied(state, buildApp(app, params), cudaTarget(),
                         ScheduleCallOptions::forGpu(GpuSpec::load("h100")));
}

class ScheduleImportCatalog : public ::testing::TestWithParam<std::string> {};

TEST_P(ScheduleImportCatalog, GreedyScheduleRoundTripsThroughTheFuncs) {
    const std::string app = GetParam();
    auto dag = std::make_shared<const FunctionDAG>(buildApp(app));
    const StatePtr state = greedySchedule(dag, "h100");
    const ScheduleImport imported = roundTrip(*state, app);
    ASSERT_TRUE(imported.state) << constructsOf(imported);
    EXPECT_EQ(imported.unrepresentable(), 0);
    EXPECT_EQ(scheduleToJson(*imported.state).dump(1), scheduleToJson(*state).dump(1));
}

std::vector<std::string> catalogNames() {
    std::vector<std::string> names;
    for (const AppDefinition &app : appCatalog())
        names.push_back(app.name);
    return names;
}

INSTANTIATE_TEST_SUITE_P(ScheduleImport, ScheduleImportCatalog,
                         ::testing::ValuesIn(catalogNames()),
                         [](const ::testing::TestParamInfo<std::string> &info) {
                             return info.param;
                         });

TEST(ScheduleImport, FusedAndStagedSchedulesRoundTrip) {
    auto dag = std::make_shared<const FunctionDAG>(buildApp("stencil_chain", kShortChain));
    for (const StatePtr &state :
         {handMadeStencilChain(dag), threadFusedStencilChain(dag), stagedStencilChain(dag)}) {
        const ScheduleImport imported = roundTrip(*state, "stencil_chain", kShortChain);
        ASSERT_TRUE(imported.state) << constructsOf(imported);
        EXPECT_EQ(scheduleToJson(*imported.state).dump(1), scheduleToJson(*state).dump(1));
    }
    // The hand-made one fuses stage_3 into output's blocks with serial 1x2: 16x8 threads over
    // a 16x2 tile plus the 5x5 stencil's halo of 2 on each side (20x20 region: 20 x 10 threads).
    const ScheduleImport hand = roundTrip(*handMadeStencilChain(dag), "stencil_chain", kShortChain);
    const FuncPlacement &p = hand.state->placement(dag->find("stage_3"));
    EXPECT_EQ(p.kind, ComputeKind::Block);
    EXPECT_EQ(p.tilings[0].serial, (std::vector<int64_t>{1, 2}));
}

TEST(ScheduleImport, NaiveScheduleIsRootTilesOf16x16Threads) {
    PipelineSource source{"stencil_chain", "", {"length=3", "width=128", "height=96"}};
    const ForeignSchedule naive = importBaseline(Baseline::Naive, source, GpuSpec::load("h100"));
    ASSERT_TRUE(naive.imported.state) << constructsOf(naive.imported);
    const FunctionDAG &dag = naive.imported.state->dag();
    for (const ImportedFunc &f : naive.imported.funcs) {
        const FuncPlacement &p = naive.imported.state->placement(f.node);
        if (dag.node(f.node).pointwiseUsesOnly && !dag.node(f.node).isOutput) {
            EXPECT_EQ(p.kind, ComputeKind::Inline) << f.name;
            continue;
        }
        ASSERT_EQ(p.kind, ComputeKind::Root) << f.name;
        EXPECT_EQ(p.tilings[0].threads, (std::vector<int64_t>{16, 16})) << f.name;
        EXPECT_EQ(p.tilings[0].serial, (std::vector<int64_t>{1, 1})) << f.name;
        // The Func's region (128x96 for the output, more with the stencils' halos) in 16x16
        // tiles.
        const Box &region = dag.node(f.node).region;
        EXPECT_EQ(p.tilings[0].blocks, (std::vector<int64_t>{(region[0].extent() + 15) / 16,
                                                             (region[1].extent() + 15) / 16}))
            << f.name;
    }
}

TEST(ScheduleImport, NamesEveryConstructOutsideTheSpace) {
    PipelineInstance instance = buildApp("stencil_chain", kShortChain);
    auto dag = std::make_shared<const FunctionDAG>(instance);
    using Halide::Func;
    using Halide::Var;
    const auto func = [&](const std::string &name) {
        return Func(dag->node(dag->find(name)).function);
    };
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi"), ys("ys");
    // output: a serial loop of 4 tiles around its blocks.
    func("output").split(y, ys, y, 640).gpu_tile(x, y, xo, yo, xi, yi, 16, 16);
    // stage_3: computed per block of output but stored at root.
    func("stage_3").store_root().compute_at(func("output"), xo);
    func("stage_2").compute_root().gpu_tile(x, y, xo, yo, xi, yi, 32, 8);
    func("stage_1").compute_root().gpu_tile(x, y, xo, yo, xi, yi, 32, 8).vectorize(xi);
    const ScheduleImport imported = importSchedule(dag);
    EXPECT_FALSE(imported.state);
    std::map<std::string, std::string> byFunc;
    for (const ImportedFunc &f : imported.funcs) {
        for (const std::string &c : f.constructs)
            byFunc[f.name] += c + "\n";
        EXPECT_EQ(f.representable, f.constructs.empty()) << f.name;
    }
    EXPECT_NE(byFunc["output"].find("'ys' (serial, extent 4): a serial loop outside the GPU "
                                    "thread loops"),
              std::string::npos)
        << byFunc["output"];
    EXPECT_NE(byFunc["stage_3"].find("store_at(root) outside compute_at(output"),
              std::string::npos)
        << byFunc["stage_3"];
    EXPECT_NE(byFunc["stage_1"].find("vectorized"), std::string::npos) << byFunc["stage_1"];
    EXPECT_EQ(byFunc["stage_2"], "");
}

/// Declared below with the lowering test's helpers.
std::vector<std::string> loopSkeleton(Halide::Pipeline p);
std::string joinLines(const std::vector<std::string> &lines);

TEST(ScheduleImport, ABlockLevelFuncWithoutThreadLoopsIsOneThreadsSerialLoops) {
    // interpolate's interpolated_7 as Anderson2021 computes it at the default size: at its
    // consumer's block level with no GPU thread loop, its points serial on one thread. Here
    // stage_3 in output's 16x16 blocks with no directive of its own: its 16x16 region per
    // block (output reads it pointwise) serial.
    const AppParams params = {{"length", 3}, {"width", 128}, {"height", 96}};
    PipelineInstance theirs = buildApp("stencil_chain", params);
    auto dag = std::make_shared<const FunctionDAG>(theirs);
    const auto func = [&](const std::string &name) {
        return Halide::Func(dag->node(dag->find(name)).function);
    };
    Halide::Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    func("output").gpu_tile(x, y, xo, yo, xi, yi, 16, 16);
    func("stage_3").compute_at(func("output"), xo);
    func("stage_2").compute_root().gpu_tile(x, y, xo, yo, xi, yi, 32, 8);
    func("stage_1").compute_root().gpu_tile(x, y, xo, yo, xi, yi, 32, 8);
    const ScheduleImport imported = importSchedule(dag);
    ASSERT_TRUE(imported.state) << constructsOf(imported);
    const FuncPlacement &p = imported.state->placement(dag->find("stage_3"));
    EXPECT_EQ(p.kind, ComputeKind::Block);
    EXPECT_EQ(p.tilings[0].threads, (std::vector<int64_t>{1, 1}));
    EXPECT_EQ(p.tilings[0].serial, (std::vector<int64_t>{16, 16}));
    // Beamscope's application of the state lowers to the same loops as the calls above.
    PipelineInstance ours = buildApp("stencil_chain", params);
    applySchedule(*imported.state, ours, cudaTarget(),
                  ScheduleCallOptions::forGpu(GpuSpec::load("h100")));
    EXPECT_EQ(joinLines(loopSkeleton(theirs.pipeline)), joinLines(loopSkeleton(ours.pipeline)));
}

TEST(ScheduleImport, UpsamplingFuncsAtABlockLevelAreRepresentable) {
    // lens_blur's pull pyramid as Anderson2021 schedules it at the default size: the upsampling
    // Funcs computed at filtered_cost's block level, a chain of them through the inlined pull
    // levels. Their taps (x / 2 - 1 + 2 * (x % 2)) are not affine; Halide bounds them per block
    // by interval arithmetic, and so does Beamscope (IndexBounds), where it used to take the
    // producer's whole height and read "GPU threads inside serial loops".
    const AppParams params = {{"width", 64}, {"height", 48}, {"slices", 4},
                              {"aperture_samples", 4}, {"max_blur_radius", 2}};
    PipelineInstance theirs = buildApp("lens_blur", params);
    auto dag = std::make_shared<const FunctionDAG>(theirs);
    const auto func = [&](const std::string &name) {
        return Halide::Func(dag->node(dag->find(name)).function);
    };
    Halide::Var x("x"), y("y"), z("z"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Halide::Func filtered = func("filtered_cost");
    const auto dims = filtered.args();
    filtered.compute_root().gpu_tile(dims[0], dims[1], xo, yo, xi, yi, 16, 16).gpu_blocks(dims[2]);
    Halide::Func upx0 = func("cost_pyramid_pull_0_upx");
    const auto u = upx0.args(); // x, y, z (slice), c
    upx0.compute_at(filtered, xo).reorder(u[3], u[0], u[1], u[2]).gpu_threads(u[0], u[1], u[2]);
    Halide::Func upy1 = func("cost_pyramid_pull_1_upy");
    const auto v = upy1.args();
    upy1.compute_at(filtered, xo).reorder(v[1], v[0], v[2], v[3]).gpu_threads(v[0], v[2], v[3]);
    const ScheduleImport imported = importSchedule(dag);
    const auto importedFunc = [&](const std::string &name) -> const ImportedFunc & {
        for (const ImportedFunc &f : imported.funcs)
            if (f.name == name) return f;
        throw Error("no imported Func " + name);
    };
    const ImportedFunc &a = importedFunc("cost_pyramid_pull_0_upx");
    ASSERT_TRUE(a.representable) << a.name << ": " << (a.constructs.empty() ? "" : a.constructs[0]);
    EXPECT_EQ(a.placement->kind, ComputeKind::Block);
    // Per block of filtered_cost (16 x 16 points of one slice; its first block starts at
    // (-2, -2), the bokeh's samples reaching max_blur_radius = 2 past the image): x 16 (read
    // pointwise), y 10 (the tap over rows [-2, 13]: -2 / 2 - 1 = -2 to 13 / 2 - 1 + 2 = 7),
    // one slice, both channels serial on each thread.
    EXPECT_EQ(a.placement->region, (Box{{-2, 13}, {-2, 7}, {0, 0}, {0, 1}}));
    EXPECT_EQ(a.placement->tilings[0].threads, (std::vector<int64_t>{16, 10, 1, 1}));
    EXPECT_EQ(a.placement->tilings[0].serial, (std::vector<int64_t>{1, 1, 1, 2}));
    // One level down, reached through the inlined cost_pyramid_pull_1: 10 x 10 per block.
    const ImportedFunc &b = importedFunc("cost_pyramid_pull_1_upy");
    ASSERT_TRUE(b.representable) << b.name << ": " << (b.constructs.empty() ? "" : b.constructs[0]);
    EXPECT_EQ(b.placement->kind, ComputeKind::Block);
    EXPECT_EQ(b.placement->tilings[0].threads, (std::vector<int64_t>{10, 1, 1, 2}));
    EXPECT_EQ(b.placement->tilings[0].serial, (std::vector<int64_t>{1, 10, 1, 1}));
}

/// The loops of a lowered statement (before GPU loops become kernels), one line per loop:
/// nesting depth, kind (for, gpu_block, gpu_thread, unrolled, ...), the Func and stage it
/// iterates, and its extent when constant. Loop names are left out: the schedules name their
/// splits differently.
std::vector<std::string> loopSkeleton(Halide::Pipeline p) {
    std::istringstream in(conceptualStmtText(p, cudaTarget()));
    std::vector<std::string> skeleton;
    std::vector<size_t> open; // indentation of the loops enclosing the current line
    const std::regex loop(R"(^(\s*)(for|gpu_block|gpu_thread|unrolled|vectorized|parallel)(<\w+>)? ?\(([^,]+),.*?(, (-?\d+))?\) \{$)");
    std::string line;
    while (std::getline(in, line)) {
        // Every line closes the loops it is not inside (a closing brace at a loop's indentation
        // included), so a nest that sits deeper behind a `consume` block or a loop of one
        // iteration does not count the loops of the nest before it as its own.
        const size_t indent = line.find_first_not_of(' ');
        if (indent == std::string::npos) continue;
        while (!open.empty() && open.back() >= indent)
            open.pop_back();
        std::smatch m;
        if (!std::regex_match(line, m, loop)) continue;
        // A loop of one iteration (a GPU dimension of size 1) runs its body once.
        if (m[6].matched && std::string(m[6]) == "1") continue;
        const std::string name = m[4];
        const size_t stage = name.find(".s");
        const size_t stageEnd = name.find('.', stage + 1);
        skeleton.push_back(std::to_string(open.size()) + " " + std::string(m[2]) + " " +
                           name.substr(0, stageEnd) + " " +
                           (m[6].matched ? std::string(m[6]) : std::string("?")));
        open.push_back(indent);
    }
    return skeleton;
}

std::string joinLines(const std::vector<std::string> &lines) {
    std::string out;
    for (const std::string &l : lines)
        out += l + "\n";
    return out;
}

/// `skeleton` without the copies Halide's loop partitioning makes of a guarded loop nest (the
/// steady state, then one copy per tail): a nest identical to the sibling nest just before it
/// is dropped.
std::vector<std::string> withoutPartitionCopies(const std::vector<std::string> &skeleton) {
    const auto depth = [](const std::string &line) { return std::stoi(line); };
    std::vector<std::string> out;
    size_t i = 0;
    while (i < skeleton.size()) {
        size_t end = i + 1;
        while (end < skeleton.size() && depth(skeleton[end]) > depth(skeleton[i]))
            ++end;
        const size_t length = end - i;
        if (out.size() >= length &&
            std::equal(skeleton.begin() + std::ptrdiff_t(i), skeleton.begin() + std::ptrdiff_t(end),
                       out.end() - std::ptrdiff_t(length))) {
            i = end; // the same nest again, right after itself
            continue;
        }
        out.push_back(skeleton[i++]);
    }
    return out;
}

/// One app of kAndersonRepresentable: Anderson2021's schedule applied by Halide and the imported
/// state applied by Beamscope lower to the same loops (ASSERTs end this app only).
void expectTheSameLoops(const AndersonCase &c) {
    const std::string &app = c.app;
    const GpuSpec gpu = GpuSpec::load("h100");
    PipelineSource source{app, "", c.params};
    PipelineInstance theirs = loadPipeline(source);
    auto dag = std::make_shared<const FunctionDAG>(theirs);
    applyHalideAutoscheduler(c.baseline, theirs, importTarget(gpu), gpu);
    ScheduleImport imported = importSchedule(dag);
    ASSERT_TRUE(imported.state) << app << "\n" << constructsOf(imported);
    compareWithApplier(imported, loadPipeline(source), importTarget(gpu),
                       ScheduleCallOptions::forGpu(gpu));
    PipelineInstance ours = loadPipeline(source);
    applySchedule(*imported.state, ours, importTarget(gpu), ScheduleCallOptions::forGpu(gpu));
    std::string differences;
    for (const ImportedFunc &f : imported.funcs)
        for (const std::string &d : f.differences)
            if (changesLoops(d)) differences += f.name + ": " + d + "\n";
    const std::vector<std::string> a = loopSkeleton(theirs.pipeline);
    const std::vector<std::string> b = loopSkeleton(ours.pipeline);
    ASSERT_FALSE(a.empty()) << app;
    if (kGuardedUpdateTails.count(app)) {
        // Beamscope's guarded update nests come in copies (Anderson2021's come in copies too
        // where it guards them); once the copies are dropped the loops are the same.
        EXPECT_TRUE(differences.empty()) << app << "\n" << differences;
        EXPECT_NE(joinLines(withoutPartitionCopies(b)), joinLines(b)) << app;
        EXPECT_EQ(joinLines(withoutPartitionCopies(a)), joinLines(withoutPartitionCopies(b)))
            << app;
    } else if (differences.empty()) {
        EXPECT_EQ(joinLines(a), joinLines(b)) << app;
    } else if (!c.focus.empty()) {
        std::vector<std::string> mine = loopsOf(b, c.focus);
        const auto unrolled = std::find(mine.begin(), mine.end(), c.unrolledByThem);
        ASSERT_NE(unrolled, mine.end()) << app << "\n" << joinLines(mine);
        mine.erase(unrolled);
        EXPECT_FALSE(mine.empty()) << app;
        EXPECT_EQ(joinLines(loopsOf(a, c.focus)), joinLines(mine)) << app << "\n" << differences;
    } else {
        // The loop differences the import names show in the lowered loops.
        EXPECT_NE(joinLines(a), joinLines(b)) << app << "\n" << differences;
    }
}

TEST(ScheduleImport, RepresentableAnderson2021ScheduleLowersToTheSameLoops) {
    for (const AndersonCase &c : kAndersonRepresentable) {
        SCOPED_TRACE(c.app);
        try {
            expectTheSameLoops(c);
        } catch (const std::exception &e) {
            ADD_FAILURE() << c.app << ": " << e.what();
        } catch (const Halide::Error &e) {
            ADD_FAILURE() << c.app << ": Halide: " << e.what();
        } catch (...) {
            ADD_FAILURE() << c.app << ": an exception not derived from std::exception";
        }
    }
}

TEST(ScheduleImport, RefusesACppHeaderAsAScheduleFile) {
    const std::filesystem::path file =
        std::filesystem::temp_directory_path() /
        ("beamscope-import-" + std::to_string(::getpid()) + ".h");
    std::ofstream(file) << "inline void apply(Halide::Pipeline) {}\n";
    PipelineSource source{"stencil_chain", "", {"length=3"}};
    try {
        importForeign(file.string(), source, GpuSpec::load("h100"));
        ADD_FAILURE() << "a C++ header was imported";
    } catch (const Error &e) {
        EXPECT_NE(std::string(e.what()).find("is C++"), std::string::npos) << e.what();
    }
    std::filesystem::remove(file);
}

} // namespace
} // namespace beamscope
