// Random pipelines (core/pipeline/random): the random:SEED[:STAGES] names, determinism (the DAG
// of a seed is the same in every build of it and equals stored hashes: a change of the generator
// shows here and must come with new hashes), the stage budget, the size parameter, and that the
// building blocks the issue lists all occur over a range of seeds.
#include "pipeline/random/RandomPipeline.h"
#include "dag/FunctionDAG.h"
#include "pipeline/PipelineSource.h"
#include "util/Error.h"
#include "util/Hash.h"

#include <gtest/gtest.h>

#include <set>
#include <sstream>

namespace beamscope {
namespace {

std::string dagText(const std::string &name, std::vector<std::string> params = {}) {
    PipelineSource source;
    source.name = name;
    source.params = std::move(params);
    std::ostringstream os;
    FunctionDAG(loadPipeline(source)).dump(os);
    return os.str();
}

/// The Funcs the generator made (an ImageParam's "_im" wrapper is Halide's, not ours).
std::vector<const Node *> generatedFuncs(const FunctionDAG &dag) {
    std::vector<const Node *> funcs;
    for (const Node &n : dag.nodes()) {
        if (!n.isInput && (n.name.size() < 3 || n.name.compare(n.name.size() - 3, 3, "_im") != 0))
            funcs.push_back(&n);
    }
    return funcs;
}

TEST(RandomPipeline, ParsesAndWritesSpecs) {
    EXPECT_TRUE(isRandomSpec("random:3"));
    EXPECT_TRUE(isRandomSpec("random"));
    EXPECT_FALSE(isRandomSpec("randomx"));
    EXPECT_FALSE(isRandomSpec("harris"));
    const RandomSpec a = parseRandomSpec("random:11");
    EXPECT_EQ(a.seed, 11u);
    EXPECT_EQ(a.stages, 0);
    const RandomSpec b = parseRandomSpec("random:7:60");
    EXPECT_EQ(b.seed, 7u);
    EXPECT_EQ(b.stages, 60);
    EXPECT_EQ(formatRandomSpec(b), "random:7:60");
    EXPECT_EQ(formatRandomSpec(a), "random:11");
}

TEST(RandomPipeline, MalformedSpecsAreOneLineUsageErrors) {
    for (const std::string bad :
         {"random", "random:", "random:x", "random:-1", "random:1:", "random:1:3", "random:1:61",
          "random:1:2:3", "random: 1", "random:99999999999999999999", "random:1:x"}) {
        PipelineSource source;
        source.name = bad;
        try {
            loadPipeline(source);
            ADD_FAILURE() << bad << " was accepted";
        } catch (const UsageError &e) {
            const std::string message = e.what();
            EXPECT_EQ(message.find('\n'), std::string::npos) << message;
            EXPECT_NE(message.find("random:SEED"), std::string::npos) << message;
        }
    }
    PipelineSource source;
    source.name = "random:1";
    source.params = {"width=3"};
    EXPECT_THROW(loadPipeline(source), UsageError);
    source.params = {"size=4"};
    EXPECT_THROW(loadPipeline(source), UsageError);
    source.params = {"size=5000"};
    EXPECT_THROW(loadPipeline(source), UsageError);
}

TEST(RandomPipeline, SameSeedSameDagInOneProcess) {
    for (const std::string name : {"random:0", "random:11", "random:23:30", "random:42"})
        EXPECT_EQ(dagText(name), dagText(name)) << name;
    EXPECT_NE(dagText("random:1"), dagText("random:2"));
}

// FNV-1a 64 of FunctionDAG::dump() text; written by this generator and checked in. Another
// process (tests/e2e/random_pipelines.sh) checks the CLI's DAG text against stored digests too.
TEST(RandomPipeline, DagsMatchStoredHashes) {
    const std::vector<std::pair<std::string, std::string>> golden = {
        {"random:0", "2a4d8442dd7c951d"},    {"random:1", "dd2904ad4428299a"},
        {"random:7", "9fa88adfe9fc0eda"},    {"random:11", "3d1c2c5cfb6d2a8f"},
        {"random:5:20", "a7cce6f4a3cd6540"}, {"random:123", "dc6a8c83d18ea78a"},
    };
    for (const auto &[name, hash] : golden)
        EXPECT_EQ(fnv1a64Hex(dagText(name)), hash) << name;
}

TEST(RandomPipeline, StagesAsAskedAndSizeKeepsTheStructure) {
    for (int stages : {4, 17, 60}) {
        PipelineSource source;
        source.name = "random:9:" + std::to_string(stages);
        const FunctionDAG dag(loadPipeline(source));
        EXPECT_EQ(int(generatedFuncs(dag).size()), stages) << source.name;
    }
    for (int seed = 0; seed < 40; ++seed) {
        PipelineSource source;
        source.name = "random:" + std::to_string(seed);
        source.params = {"size=16"};
        const FunctionDAG dag(loadPipeline(source));
        const int n = int(generatedFuncs(dag).size());
        EXPECT_GE(n, kMinRandomStages) << source.name;
        EXPECT_LE(n, kMaxRandomStages) << source.name;
    }
    // size=N changes the estimates, not the Funcs.
    PipelineSource small{"random:11", "", {"size=32"}}, large{"random:11", "", {"size=512"}};
    const FunctionDAG a(loadPipeline(small)), b(loadPipeline(large));
    ASSERT_EQ(a.nodes().size(), b.nodes().size());
    for (size_t i = 0; i < a.nodes().size(); ++i)
        EXPECT_EQ(a.nodes()[i].name, b.nodes()[i].name);
    EXPECT_NE(dagText("random:11", {"size=32"}), dagText("random:11", {"size=512"}));
}

TEST(RandomPipeline, CoversTheBuildingBlocks) {
    std::set<std::string> kinds;
    std::set<std::string> types;
    std::set<int> dims;
    for (int seed = 0; seed < 160; ++seed) {
        PipelineSource source{"random:" + std::to_string(seed), "", {"size=16"}};
        const FunctionDAG dag(loadPipeline(source));
        for (const Node *n : generatedFuncs(dag)) {
            kinds.insert(n->name.substr(4)); // "s07_blur_x" -> "blur_x"
            std::ostringstream t;
            t << n->types.front();
            types.insert(t.str());
            dims.insert(n->dimensions);
        }
    }
    for (const char *kind :
         {"pointwise",  "convert",     "combine", "join",          "transpose", "expand",
          "join_input", "repeat_edge", "mirror",  "zero_exterior", "stencil_x", "stencil_y",
          "stencil_2d", "window_sum",  "blur_x",  "blur_y",        "max_x",     "down_box",
          "down_x",     "up_nearest",  "up_x",    "reduce",        "hist_rows", "hist",
          "cdf",        "equalize",    "scan_x",  "scan_y",        "lut",       "gather",
          "matmul",     "conv",        "relu"})
        EXPECT_TRUE(kinds.count(kind)) << "no " << kind << " Func in seeds 0..159";
    for (const char *type : {"uint8", "uint16", "int32", "float32"})
        EXPECT_TRUE(types.count(type)) << "no " << type << " Func in seeds 0..159";
    for (int d : {1, 2, 3, 4})
        EXPECT_TRUE(dims.count(d)) << "no " << d << "-D Func in seeds 0..159";
}

} // namespace
} // namespace beamscope
