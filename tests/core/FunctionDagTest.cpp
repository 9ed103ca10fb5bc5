// FunctionDAG: nodes, edges, affine call sites and required regions of real Halide pipelines.
#include "dag/FunctionDAG.h"

#include "pipeline/AppCatalog.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace beamscope;

namespace {

/// A one-input, one-output pipeline instance around `output` for tests.
PipelineInstance instanceOf(const std::string &name, Halide::Func output,
                            Halide::ImageParam input, std::vector<int> outputExtents) {
    PipelineInstance instance;
    instance.name = name;
    std::vector<Halide::Var> args = output.args();
    for (size_t d = 0; d < outputExtents.size(); ++d) output.set_estimate(args[d], 0, outputExtents[d]);
    instance.pipeline = Halide::Pipeline(output);
    instance.inputs = {input.parameter()};
    return instance;
}

/// A 2-D input named "input" with estimates [0, extent) in both dimensions.
Halide::ImageParam squareInput(Halide::Type type, int extent) {
    Halide::ImageParam input(type, 2, "input");
    input.dim(0).set_estimate(0, extent);
    input.dim(1).set_estimate(0, extent);
    return input;
}

const Edge &edgeBetween(const FunctionDAG &dag, const std::string &producer,
                        const std::string &consumer) {
    for (const Edge &e : dag.edges()) {
        if (dag.node(e.producer).name == producer && dag.node(e.consumer).name == consumer) return e;
    }
    throw std::runtime_error("no edge " + producer + " -> " + consumer);
}

} // namespace

TEST(FunctionDag, StencilChainHasOneNodePerStageAndAChainOfEdges) {
    const FunctionDAG dag(buildApp("stencil_chain", {{"length", 4}, {"width", 64}, {"height", 48}}));
    // input + its wrapper + repeat_edge + stage_0..4 + output
    EXPECT_NE(dag.find("input"), -1);
    EXPECT_TRUE(dag.node(dag.find("input")).isInput);
    EXPECT_TRUE(dag.node(dag.find("output")).isOutput);
    for (int s = 0; s <= 4; ++s) EXPECT_NE(dag.find("stage_" + std::to_string(s)), -1) << s;

    const Edge &e = edgeBetween(dag, "stage_3", "stage_4");
    EXPECT_EQ(e.calls.size(), 25u);
    EXPECT_TRUE(e.allAffine);
    EXPECT_FALSE(e.pointwise);
    EXPECT_TRUE(edgeBetween(dag, "stage_4", "output").pointwise);

    // Outputs first: the output comes before every stage it depends on.
    const std::vector<int> &order = dag.outputsFirst();
    ASSERT_FALSE(order.empty());
    EXPECT_EQ(dag.node(order.front()).name, "output");
}

TEST(FunctionDag, StencilChainRegionsGrowByTheStencilRadiusPerStage) {
    const FunctionDAG dag(buildApp("stencil_chain", {{"length", 4}, {"width", 64}, {"height", 48}}));
    // Output 64x48; each 5x5 stage needs 2 more on each side than its consumer.
    EXPECT_EQ(dag.node(dag.find("output")).region, (Box{{0, 63}, {0, 47}}));
    EXPECT_EQ(dag.node(dag.find("stage_4")).region, (Box{{0, 63}, {0, 47}}));
    EXPECT_EQ(dag.node(dag.find("stage_3")).region, (Box{{-2, 65}, {-2, 49}}));
    EXPECT_EQ(dag.node(dag.find("stage_0")).region, (Box{{-8, 71}, {-8, 55}}));

    // A 16x8 tile of stage_4 at (32, 8) needs a 20x12 tile of stage_3.
    const Edge &e = edgeBetween(dag, "stage_3", "stage_4");
    EXPECT_EQ(e.requiredRegion({{32, 47}, {8, 15}}), (Box{{30, 49}, {6, 17}}));
}

TEST(FunctionDag, StridedAndTransposedAccessesHaveTheirCoefficients) {
    using namespace Halide;
    ImageParam input = squareInput(Float(32), 256);
    Var x("x"), y("y");
    Func in("in"), strided("strided"), transposed("transposed");
    in(x, y) = input(x, y) * 2.0f;
    strided(x, y) = in(2 * x + 1, y / 2);
    transposed(x, y) = strided(y, x) + in(x, y);
    const FunctionDAG dag(instanceOf("access", transposed, input, {64, 32}));

    const Edge &s = edgeBetween(dag, "in", "strided");
    ASSERT_EQ(s.calls.size(), 1u);
    const CallSite &site = s.calls[0];
    ASSERT_TRUE(site.args[0].affine && site.args[1].affine);
    EXPECT_DOUBLE_EQ(site.args[0].affine->coefficient(0), 2.0);
    EXPECT_DOUBLE_EQ(site.args[0].affine->coefficient(1), 0.0);
    EXPECT_EQ(site.args[0].affine->constant, 1);
    EXPECT_DOUBLE_EQ(site.args[1].affine->coefficient(0), 0.0);
    EXPECT_DOUBLE_EQ(site.args[1].affine->coefficient(1), 0.5);

    const Edge &t = edgeBetween(dag, "strided", "transposed");
    const CallSite &tsite = t.calls[0];
    EXPECT_DOUBLE_EQ(tsite.args[0].affine->coefficient(0), 0.0);
    EXPECT_DOUBLE_EQ(tsite.args[0].affine->coefficient(1), 1.0);
    EXPECT_DOUBLE_EQ(tsite.args[1].affine->coefficient(0), 1.0);
    EXPECT_FALSE(t.pointwise);
    const beamscope::Stage &consumer = dag.node(dag.find("transposed")).stages[0];
    EXPECT_EQ(consumer.features.accesses[size_t(AccessKind::LoadFunc)][size_t(AccessPattern::Transpose)], 1);

    // strided is 32x64 (transposed output 64x32), so in is needed over x in [1, 63], y in [0, 31].
    EXPECT_EQ(dag.node(dag.find("strided")).region, (Box{{0, 31}, {0, 63}}));
    EXPECT_EQ(dag.node(dag.find("in")).region, (Box{{0, 63}, {0, 31}}));
}

TEST(FunctionDag, ACallRepeatedByASubstitutedLetIsOneDistinctCall) {
    using namespace Halide;
    ImageParam input = squareInput(Float(32), 256);
    Var x("x"), y("y");
    Func in("in"), weight("weight"), taps("taps");
    in(x, y) = input(x, y) * 2.0f;
    // fast_exp binds its argument to a let and uses it many times: with lets substituted (as
    // the DAG reads definitions) the one call to `in` appears at every use.
    weight(x, y) = fast_exp(in(x, y));
    taps(x, y) = weight(x, y) + in(x - 1, y) + in(x + 1, y) + in(x - 1, y);
    const FunctionDAG dag(instanceOf("lets", taps, input, {64, 64}));

    const Edge &w = edgeBetween(dag, "in", "weight");
    EXPECT_GT(w.calls.size(), 1u);
    EXPECT_EQ(w.distinctCalls, 1);
    // Written twice, in(x - 1, y) is one load too.
    const Edge &t = edgeBetween(dag, "in", "taps");
    EXPECT_EQ(t.calls.size(), 3u);
    EXPECT_EQ(t.distinctCalls, 2);
}

TEST(FunctionDag, OnlyPointwiseChainsAreInlinedWithoutSearch) {
    // The authors' rule (worked by hand on this pipeline): a Func is inlined without search when
    // it is pointwise (no update, its Func producers read at its own coordinates), its producers
    // are pointwise and its one consumer is pointwise. Reading a Func pointwise is not enough:
    // `grad` is used only pointwise but is a stencil itself, so where it goes is searched.
    using namespace Halide;
    ImageParam input = squareInput(Float(32), 256);
    Var x("x"), y("y");
    Func scaled("scaled"), biased("biased"), blurred("blurred"), grad("grad"), squared("squared"),
        out("out");
    scaled(x, y) = input(x, y) * 2.0f;             // pointwise; consumer biased is pointwise
    biased(x, y) = scaled(x, y) + 1.0f;            // pointwise; consumer blurred is a stencil
    blurred(x, y) = biased(x - 1, y) + biased(x + 1, y);
    grad(x, y) = blurred(x + 1, y) - blurred(x, y); // a stencil, used pointwise only
    squared(x, y) = grad(x, y) * grad(x, y);
    out(x, y) = squared(x, y) + grad(x, y);        // grad has two consumers
    const FunctionDAG dag(instanceOf("chains", out, input, {64, 64}));
    const auto node = [&](const char *name) { return dag.node(dag.find(name)); };
    EXPECT_TRUE(node("scaled").inlinedWithoutSearch);
    EXPECT_FALSE(node("biased").inlinedWithoutSearch);
    EXPECT_FALSE(node("blurred").inlinedWithoutSearch);
    EXPECT_FALSE(node("grad").inlinedWithoutSearch);
    EXPECT_FALSE(node("squared").inlinedWithoutSearch) << "its producer grad is a stencil";
    EXPECT_FALSE(node("out").inlinedWithoutSearch);
    // The simple schedules' rule: every use pointwise.
    EXPECT_TRUE(node("scaled").pointwiseUsesOnly);
    EXPECT_FALSE(node("biased").pointwiseUsesOnly);
    EXPECT_TRUE(node("grad").pointwiseUsesOnly);
    EXPECT_TRUE(node("squared").pointwiseUsesOnly);
}

TEST(FunctionDag, DataDependentIndexIsNonAffineAndBoundedByItsRange) {
    using namespace Halide;
    ImageParam input = squareInput(UInt(8), 128);
    Var x("x"), y("y"), i("i");
    Func lut("lut"), mapped("mapped");
    lut(i) = cast<float>(i) * 0.5f;
    mapped(x, y) = lut(cast<int>(input(x, y)));
    const FunctionDAG dag(instanceOf("lut", mapped, input, {128, 128}));

    const Edge &e = edgeBetween(dag, "lut", "mapped");
    EXPECT_FALSE(e.allAffine);
    ASSERT_FALSE(e.calls[0].args[0].affine.has_value());
    EXPECT_EQ(dag.node(dag.find("lut")).region, (Box{{0, 255}}));
}

TEST(FunctionDag, AnUpsamplingTapIsBoundedPerTileLikeHalideBoundsIt) {
    // lens_blur's upsampling tap f(x / 2 - 1 + 2 * (x % 2)): not affine, but it reads no data.
    // Over a tile x in [16k, 16k + 15] it reads [8k - 1, 8k + 8] (hand computation: x / 2 in
    // [8k, 8k + 7], minus 1, plus 2 * (x % 2) in [0, 2]): 10 points per 16-wide tile, not the
    // producer's whole width, which the data-dependent rule (one point per point of the tile,
    // placed at the affine call) gave before.
    using namespace Halide;
    ImageParam input = squareInput(Float(32), 128);
    Var x("x"), y("y");
    Func f("f"), up("up");
    f(x, y) = input(x, y) * 2.0f;
    up(x, y) = 0.25f * f(x / 2 - 1 + 2 * (x % 2), y) + 0.75f * f(x / 2, y);
    const FunctionDAG dag(instanceOf("upsample", up, input, {128, 64}));

    const Edge &e = edgeBetween(dag, "f", "up");
    EXPECT_FALSE(e.allAffine); // still not affine: no load Jacobian for the tap
    const CallArg *tap = nullptr;
    for (const CallSite &site : e.calls)
        if (!site.args[0].affine) tap = &site.args[0];
    ASSERT_NE(tap, nullptr);
    ASSERT_TRUE(tap->bounded.has_value());
    EXPECT_EQ(tap->bounded->over({{0, 15}, {0, 0}}), (Interval{-1, 8}));
    EXPECT_EQ(tap->bounded->over({{16, 31}, {0, 0}}), (Interval{7, 16}));
    // One point: its remainder is known (x = 5: 2 - 1 + 2).
    EXPECT_EQ(tap->bounded->over({{5, 5}, {0, 0}}), (Interval{3, 3}));
    // Unless the point is a loop of one iteration that Halide bounds by its min and max symbols
    // (a block's thread loop): x % 2 is then [0, 1], so 2 - 1 + [0, 2].
    EXPECT_EQ(tap->bounded->over({{5, 5}, {0, 0}}, /*loopPointsAreSymbolic=*/true),
              (Interval{1, 3}));
    EXPECT_EQ(tap->bounded->over({{16, 31}, {0, 0}}, true), (Interval{7, 16}));
    EXPECT_EQ(e.requiredRegion({{16, 31}, {0, 3}}), (Box{{7, 16}, {0, 3}}));
    // The whole region: x in [0, 127] reads [-1, 64], as Halide's bounds inference says.
    EXPECT_EQ(dag.node(dag.find("f")).region, (Box{{-1, 64}, {0, 63}}));
}

TEST(FunctionDag, AClampedOrDataDependentIndexHasNoIntervalBounds) {
    using namespace Halide;
    ImageParam input = squareInput(UInt(8), 128);
    Var x("x"), y("y"), i("i");
    Func lut("lut"), mapped("mapped"), f("f"), clamped("clamped");
    lut(i) = cast<float>(i) * 0.5f;
    mapped(x, y) = lut(cast<int>(input(x, y)));
    EXPECT_FALSE(edgeBetween(FunctionDAG(instanceOf("lut", mapped, input, {128, 128})), "lut",
                             "mapped")
                     .calls[0]
                     .args[0]
                     .bounded.has_value());
    f(x, y) = cast<float>(input(x, y));
    clamped(x, y) = f(clamp(x % 7 + x / 3, 0, 127), y);
    const FunctionDAG dag(instanceOf("clamped", clamped, input, {128, 128}));
    const CallArg &arg = edgeBetween(dag, "f", "clamped").calls[0].args[0];
    EXPECT_FALSE(arg.affine.has_value());
    EXPECT_FALSE(arg.bounded.has_value());
}

TEST(FunctionDag, ReductionStagesHaveTheirRDomLoops) {
    const FunctionDAG dag(buildApp("matmul", {{"m", 64}, {"n", 64}, {"k", 64}}));
    bool sawReduction = false;
    for (const Node &n : dag.nodes()) {
        for (const Stage &s : n.stages) {
            for (const LoopVar &l : s.loops) {
                if (l.isReduction) {
                    sawReduction = true;
                    EXPECT_EQ(l.estimate.extent(), 64) << s.name << " " << l.name;
                }
            }
        }
    }
    EXPECT_TRUE(sawReduction);
}

TEST(FunctionDag, DumpNamesEveryFuncAndEdge) {
    const FunctionDAG dag(buildApp("stencil_chain", {{"length", 2}, {"width", 64}, {"height", 64}}));
    std::ostringstream os;
    dag.dump(os);
    const std::string text = os.str();
    EXPECT_NE(text.find("func stage_2"), std::string::npos);
    EXPECT_NE(text.find("calls stage_1 x25"), std::string::npos);
    EXPECT_NE(text.find("input input"), std::string::npos);
}

TEST(FunctionDag, EveryCatalogAppAnalyzes) {
    for (const AppDefinition &app : appCatalog()) {
        SCOPED_TRACE(app.name);
        const FunctionDAG dag(buildApp(app.name));
        EXPECT_GT(dag.funcCount(), 0);
        for (const Node &n : dag.nodes()) {
            for (const Interval &i : n.region) EXPECT_GT(i.extent(), 0) << n.name;
        }
    }
}
