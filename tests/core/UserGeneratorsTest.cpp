// Pipelines users bring (tests/data/generators/UserGenerators.cpp): scalar inputs bound from
// --input, the estimate or the default (every Halide scalar type, one-line errors); the DAG and
// the store identity of pipelines with several and Tuple-valued outputs; and for every user
// generator, greedy and beam schedules exported as C++, compiled by the system compiler, lower
// to exactly the statement the applier gives.
#include "ExportRoundTrip.h"
#include "codegen/ScheduleApplier.h"
#include "codegen/ScheduleSource.h"
#include "dag/FunctionDAG.h"
#include "measure/BenchData.h"
#include "pipeline/PipelineSource.h"
#include "pipeline/ScalarInputs.h"
#include "search/SearchEngine.h"
#include "store/Identity.h"
#include "util/Error.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>

namespace beamscope {
namespace {

using namespace beamscope::testing;

PipelineSource userSource(const std::string &name, std::vector<std::string> inputs = {}) {
    PipelineSource source;
    source.name = name;
    source.generatorLibrary = BEAMSCOPE_TEST_USER_GENERATOR_LIB;
    source.inputs = std::move(inputs);
    return source;
}

/// The one-line message loadPipeline throws for `source`, with the exception's kind.
std::string loadError(const PipelineSource &source, bool *usage = nullptr) {
    try {
        loadPipeline(source);
    } catch (const UsageError &e) {
        if (usage) *usage = true;
        return e.what();
    } catch (const Error &e) {
        if (usage) *usage = false;
        return e.what();
    }
    return "";
}

TEST(ScalarInputs, BoundFromDefaultEstimateAndOverride) {
    // gain and offset have defaults, threshold and invert only estimates.
    PipelineInstance plain = loadPipeline(userSource("user_tone_map"));
    EXPECT_EQ(scalarInputAssignments(plain),
              (std::vector<std::string>{"gain=0.9", "offset=6", "threshold=100", "invert=false"}));
    PipelineInstance given = loadPipeline(
        userSource("user_tone_map", {"invert=1", "gain=2.5", "threshold=255", "offset=-40"}));
    EXPECT_EQ(scalarInputAssignments(given),
              (std::vector<std::string>{"gain=2.5", "offset=-40", "threshold=255", "invert=true"}));
    // The bound value is also the estimate the search and the autoschedulers see.
    EXPECT_EQ(scalarValueText(given.scalars[0]), "2.5");
    const auto estimate = Halide::Internal::as_const_float(given.scalars[0].estimate());
    ASSERT_TRUE(estimate.has_value());
    EXPECT_EQ(*estimate, 2.5);

    PipelineInstance stats =
        loadPipeline(userSource("user_box_stats", {"scale=0.125", "bias=-32768", "cap=65535"}));
    EXPECT_EQ(scalarInputAssignments(stats),
              (std::vector<std::string>{"bias=-32768", "cap=65535", "scale=0.125"}));
}

TEST(ScalarInputs, BadValuesAreOneLineErrorsNamingTheInput) {
    bool usage = false;
    // No --input, no estimate, no default.
    std::string message = loadError(userSource("user_box_stats"), &usage);
    EXPECT_FALSE(usage);
    EXPECT_NE(message.find("scalar input 'scale' (float32) has no value"), std::string::npos)
        << message;
    struct Case {
        std::vector<std::string> inputs;
        std::string expected;
    };
    const std::vector<Case> cases = {
        {{"scale=1", "bias=32768"}, "'32768' (from --input) is not a int16 value"},
        {{"scale=1", "cap=-1"}, "'-1' (from --input) is not a uint16 value"},
        {{"scale=1e39"}, "is not a float32 value"},
        {{"scale=abc"}, "is not a float32 value"},
        {{"scale=0.5x"}, "is not a float32 value"},
        {{"scale=nan"}, "is not a float32 value"},
        {{"scale=1", "volume=3"}, "no scalar input 'volume' (scalar inputs: bias, cap, scale)"},
        {{"scale"}, "not of the form NAME=VALUE"},
        {{"=1"}, "not of the form NAME=VALUE"},
    };
    for (const Case &c : cases) {
        message = loadError(userSource("user_box_stats", c.inputs), &usage);
        EXPECT_TRUE(usage) << message;
        EXPECT_NE(message.find(c.expected), std::string::npos) << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
    message = loadError(userSource("user_tone_map", {"gain=4.5"}), &usage);
    EXPECT_NE(message.find("4.5 (from --input) is outside its range [0, 4]"), std::string::npos)
        << message;
    message = loadError(userSource("user_tone_map", {"invert=yes"}), &usage);
    EXPECT_NE(message.find("is not a bool value"), std::string::npos) << message;
    PipelineSource catalog;
    catalog.name = "stencil_chain";
    catalog.inputs = {"amount=1"};
    message = loadError(catalog, &usage);
    EXPECT_TRUE(usage);
    EXPECT_NE(message.find("'stencil_chain' has no scalar input 'amount' (it has none)"),
              std::string::npos)
        << message;
}

TEST(UserGenerators, DagHasEveryOutputAndTheIdentityCarriesTheInputs) {
    const PipelineSource source = userSource("user_box_stats", {"scale=0.5"});
    const FunctionDAG dag(loadPipeline(source));
    int outputs = 0;
    for (const Node &node : dag.nodes()) {
        if (!node.isOutput) continue;
        ++outputs;
        if (node.name == "stats") {
            EXPECT_EQ(node.types, (std::vector<Halide::Type>{Halide::Int(32), Halide::Float(32)}));
        }
    }
    EXPECT_EQ(outputs, 2);
    EXPECT_EQ(dag.scalarInputs(), (std::vector<std::string>{"bias=-3", "cap=900", "scale=0.5"}));

    const PipelineIdentity id = PipelineIdentity::of(source, dag);
    EXPECT_EQ(id.inputs, dag.scalarInputs());
    EXPECT_NE(id.key().find(" in:bias=-3 in:cap=900 in:scale=0.5 dag:"), std::string::npos)
        << id.key();
    EXPECT_EQ(PipelineIdentity::inputsOfKey(id.key()), id.inputs);
    // Another value is another pipeline; the identity rebuilds the pipeline it names.
    const FunctionDAG other(loadPipeline(userSource("user_box_stats", {"scale=0.25"})));
    EXPECT_NE(PipelineIdentity::of(source, other).key(), id.key());
    EXPECT_EQ(scalarInputAssignments(loadPipeline(id.source())), id.inputs);
}

TEST(UserGenerators, EveryOutputAndTupleElementIsComparedAndNamed) {
    const PipelineInstance stats = loadPipeline(userSource("user_box_stats", {"scale=0.5"}));
    const std::vector<std::string> names = outputNames(stats);
    EXPECT_EQ(names, (std::vector<std::string>{"stats[0]", "stats[1]", "peak"}));
    std::vector<Halide::Buffer<>> expected = makeOutputs(stats);
    ASSERT_EQ(expected.size(), 3u);
    EXPECT_EQ(expected[0].type(), Halide::Int(32));
    EXPECT_EQ(expected[1].type(), Halide::Float(32));
    EXPECT_EQ(expected[2].dimensions(), 3);
    for (Halide::Buffer<> &b : expected)
        std::memset(b.data(), 0, b.size_in_bytes());
    std::vector<Halide::Buffer<>> actual;
    for (const Halide::Buffer<> &b : expected)
        actual.push_back(b.copy());
    EXPECT_TRUE(compareOutputs(actual, expected, 1e-3, 1e-3, names).ok());
    perturbFirstElement(actual[2], 5); // only the last output is wrong
    Comparison c = compareOutputs(actual, expected, 1e-3, 1e-3, names);
    EXPECT_EQ(c.mismatches, 1);
    EXPECT_EQ(c.firstMismatch, "output 'peak' at (0, 0, 0): 5 vs 0");
    perturbFirstElement(actual[1], 0.5); // and a Tuple element
    c = compareOutputs(actual, expected, 1e-3, 1e-3, names);
    EXPECT_EQ(c.mismatches, 2);
    EXPECT_EQ(c.firstMismatch, "output 'stats[1]' at (0, 0, 0): 0.5 vs 0");

    const PipelineInstance tone = loadPipeline(userSource("user_tone_map"));
    EXPECT_EQ(outputNames(tone), (std::vector<std::string>{"toned", "mask"}));
}

StatePtr searched(const std::shared_ptr<const FunctionDAG> &dag, bool greedy) {
    SearchOptions options = greedy ? SearchOptions::greedy() : SearchOptions();
    options.gpu = GpuSpec::load("v100");
    if (!greedy) {
        options.beamSize = 4;
        options.passes = 1;
    }
    SearchEngine engine(dag, options);
    engine.run();
    if (!engine.best()) throw Error("the search found no schedule");
    return engine.best()->state;
}

TEST(UserGenerators, CompiledExportLowersLikeTheApplier) {
    std::vector<RoundTripCase> cases;
    for (const bool greedy : {true, false}) {
        const std::string kind = greedy ? "_greedy" : "_beam";
        const std::vector<std::pair<PipelineSource, std::string>> sources = {
            {userSource("user_tone_map", {"gain=1.5"}), "tone"},
            {userSource("user_box_stats", {"scale=0.5"}), "stats"},
            {userSource("user_pyramid_4d"), "pyramid"}};
        for (const auto &[source, stem] : sources) {
            auto dag = std::make_shared<const FunctionDAG>(loadPipeline(source));
            cases.push_back({stem + kind,
                             [source = source] { return loadPipeline(source); },
                             searched(dag, greedy),
                             {}});
        }
    }
    expectExportsLowerLikeTheApplier(cases);
}

} // namespace
} // namespace beamscope
