// Pipelines from Python (tests/data/python: a blur with a scalar strength, two outputs, an RDom
// histogram with a scan, a 3-D pyramid) and from .hlpipe files: what the generator declared
// reaches the DAG (input estimates and scalar estimates, which Halide's serializer drops), the
// user's mistakes are one line naming file and line (a .hlpipe file that crashes Halide's reader
// is one line too), and every schedule exported as Python,
// applied to the user's own pipeline in Python, lowers to the statement Beamscope's applier
// gives (up to Halide's numbering of temporaries, which differs between two processes).
#include "pipeline/PythonGenerator.h"
#include "util/Subprocess.h"
#include "codegen/ScheduleApplier.h"
#include "codegen/SchedulePythonSource.h"
#include "dag/FunctionDAG.h"
#include "pipeline/AppCatalog.h"
#include "pipeline/PipelineSource.h"
#include "pipeline/ScalarInputs.h"
#include "pipeline/UserCodeIsolation.h"
#include "search/SearchEngine.h"
#include "store/Identity.h"
#include "util/Error.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

namespace beamscope {
namespace {

namespace fs = std::filesystem;

const std::string kPythonDir = std::string(BEAMSCOPE_TEST_DATA_DIR) + "/python";

PipelineSource pythonSource(const std::string &file, const std::string &name,
                            std::vector<std::string> params = {}) {
    PipelineSource source;
    source.name = name;
    source.generatorPython = kPythonDir + "/" + file;
    source.params = std::move(params);
    return source;
}

/// The one-line message loadPipeline throws for `source`; `usage` says whether a UsageError.
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

std::vector<std::string> nodeNames(const FunctionDAG &dag) {
    std::vector<std::string> names;
    for (const Node &node : dag.nodes())
        names.push_back(node.name);
    std::sort(names.begin(), names.end());
    return names;
}

TEST(PythonGenerators, DeclaredEstimatesAndScalarsSurviveTheRoundTrip) {
    const PipelineInstance blur = loadPipeline(pythonSource("blur.py", "py_blur"));
    EXPECT_EQ(blur.name, "py_blur");
    ASSERT_EQ(blur.inputs.size(), 1u);
    // The serializer drops these; the manifest puts them back.
    EXPECT_EQ(Halide::Internal::as_const_int(blur.inputs[0].extent_constraint_estimate(0)), 64);
    EXPECT_EQ(Halide::Internal::as_const_int(blur.inputs[0].extent_constraint_estimate(1)), 48);
    EXPECT_EQ(scalarInputAssignments(blur), (std::vector<std::string>{"strength=0.75"}));
    EXPECT_EQ(blur.params, (std::map<std::string, std::string>{{"radius", "1"}}));

    PipelineSource given = pythonSource("blur.py", "py_blur", {"radius=2"});
    given.inputs = {"strength=0.25"};
    const PipelineInstance wider = loadPipeline(given);
    EXPECT_EQ(scalarInputAssignments(wider), (std::vector<std::string>{"strength=0.25"}));
    EXPECT_EQ(wider.params.at("radius"), "2");

    const FunctionDAG gradients(loadPipeline(pythonSource("gradients.py", "py_gradients")));
    int outputs = 0;
    for (const Node &node : gradients.nodes())
        outputs += node.isOutput;
    EXPECT_EQ(outputs, 2);
    EXPECT_EQ(gradients.scalarInputs(), (std::vector<std::string>{"threshold=96"}));

    const FunctionDAG histogram(loadPipeline(pythonSource("histogram.py", "py_histogram")));
    const std::vector<std::string> names = nodeNames(histogram);
    for (const char *name : {"cdf", "hist", "hist_rows", "level", "output"})
        EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;

    // Generator params change the pipeline: one more level, two more Funcs.
    const FunctionDAG two(loadPipeline(pythonSource("pyramid.py", "py_pyramid")));
    const FunctionDAG three(loadPipeline(pythonSource("pyramid.py", "py_pyramid", {"levels=3"})));
    EXPECT_EQ(three.nodes().size(), two.nodes().size() + 2);
}

TEST(PythonGenerators, MistakesAreOneLineNamingFileAndLine) {
    bool usage = false;
    const std::string broken = fs::absolute(kPythonDir + "/broken/syntax_error.py").string();
    EXPECT_EQ(loadError(pythonSource("broken/syntax_error.py", "py_broken"), &usage),
              broken + ":9: SyntaxError: expected ':'");
    EXPECT_FALSE(usage);
    const std::string raises = fs::absolute(kPythonDir + "/broken/raises.py").string();
    EXPECT_EQ(loadError(pythonSource("broken/raises.py", "py_raises")),
              raises + ":12: AttributeError: 'PyRaises' object has no attribute 'inptu'");
    const std::string blur = fs::absolute(kPythonDir + "/blur.py").string();
    EXPECT_EQ(loadError(pythonSource("blur.py", "py_blurr"), &usage),
              "'" + blur + "' has no generator 'py_blurr' (available: py_blur)");
    EXPECT_TRUE(usage);
    EXPECT_EQ(loadError(pythonSource("blur.py", "py_blur", {"radiu=2"})),
              blur + ": HalideError: Generator py_blur has no GeneratorParam(s) named: ['radiu']");
    EXPECT_EQ(loadError(pythonSource("nowhere.py", "py_blur"), &usage),
              "cannot open Python generator file '" + kPythonDir + "/nowhere.py': no such file");
    EXPECT_TRUE(usage);
    EXPECT_EQ(listPythonGenerators(kPythonDir + "/gradients.py", 60),
              (std::vector<std::string>{"py_gradients"}));
}

TEST(PythonGenerators, SessionsTracesAndTheStoreNameThePythonFile) {
    const PipelineSource source = pythonSource("blur.py", "py_blur");
    const FunctionDAG dag(loadPipeline(source));
    const PipelineIdentity id = PipelineIdentity::of(source, dag);
    EXPECT_EQ(id.generatorLibrary,
              fs::absolute(source.generatorPython).lexically_normal().string());
    const PipelineSource back = id.source();
    EXPECT_EQ(back.generatorPython, id.generatorLibrary);
    EXPECT_TRUE(back.generatorLibrary.empty());
}

TEST(SerializedPipelines, AHlpipeFileLoadsLikeThePipelineItWasWrittenFrom) {
    const fs::path dir =
        fs::temp_directory_path() / ("beamscope-hlpipe-" + std::to_string(getpid()));
    fs::create_directories(dir);
    const std::string file = (dir / "stencil.hlpipe").string();
    PipelineSource catalog;
    catalog.name = "stencil_chain";
    catalog.params = {"length=3", "width=96", "height=64"};
    const PipelineInstance original = loadPipeline(catalog);
    Halide::serialize_pipeline(original.pipeline, file);

    PipelineSource source;
    source.name = "stencil_chain";
    source.pipelineFile = file;
    // Halide's serializer keeps output estimates but drops the input's: the user gives them.
    EXPECT_EQ(loadError(source),
              "missing estimates: input 'input' dimension 0, input 'input' dimension 1");
    const Halide::Parameter input = original.inputs.at(0);
    source.estimates = {
        "input=" +
        std::to_string(*Halide::Internal::as_const_int(input.min_constraint_estimate(0))) + ":" +
        std::to_string(*Halide::Internal::as_const_int(input.extent_constraint_estimate(0))) + "," +
        std::to_string(*Halide::Internal::as_const_int(input.min_constraint_estimate(1))) + ":" +
        std::to_string(*Halide::Internal::as_const_int(input.extent_constraint_estimate(1)))};
    std::ostringstream expected, actual;
    FunctionDAG(original).dump(expected);
    FunctionDAG(loadPipeline(source)).dump(actual);
    EXPECT_EQ(actual.str(), expected.str());

    source.params = {"length=3"};
    EXPECT_NE(loadError(source).find("takes no generator params"), std::string::npos);
    source.params.clear();
    source.pipelineFile = (dir / "missing.hlpipe").string();
    EXPECT_EQ(loadError(source),
              "cannot open pipeline file '" + source.pipelineFile + "': no such file");
    // Halide's deserializer does not check the file: this one segfaults in
    // deserialize_parameters. The front ends read such a file in a process of its own first.
    std::ofstream(dir / "garbage.hlpipe") << "not a pipeline";
    source.pipelineFile = (dir / "garbage.hlpipe").string();
    setUserCodeIsolation({true, BEAMSCOPE_TEST_WORKER, 30});
    EXPECT_EQ(loadError(source), "pipeline file '" + source.pipelineFile +
                                     "' crashed while building: signal 11 (Segmentation fault)");
    setUserCodeIsolation({});
    fs::remove_all(dir);
}

/// `text` with Halide's process-local numbering made alike: temporaries ("_12", "_t12", "t12")
/// renumbered by first appearance; the "__1" and "$1" suffixes of names made unique in the
/// process (a kernel lowered before, a loop's prologue, a let) dropped, and with them the length
/// of the kernels' source they change.
std::string renumbered(const std::string &text) {
    static const std::regex uniqueSuffix(R"((__|\$)\d+)");
    static const std::regex sourceLength(R"((initialize_kernels\(.*, )\d+\))");
    // Not after '.': "f.s0._1" is the loop of the implicit Var _1, the same in both.
    static const std::regex numbered(R"((^|[^.\w])(_t?|t)(\d+)\b)");
    const std::string plain =
        std::regex_replace(std::regex_replace(text, uniqueSuffix, ""), sourceLength, "$1LENGTH)");
    std::map<std::string, std::map<std::string, int>> ids;
    std::string out;
    auto last = plain.cbegin();
    for (std::sregex_iterator it(plain.begin(), plain.end(), numbered), end; it != end; ++it) {
        const std::smatch &m = *it;
        out.append(last, m[0].first);
        auto &byPrefix = ids[m[2].str()];
        const auto [entry, added] = byPrefix.emplace(m[3].str(), int(byPrefix.size()));
        out += m[1].str() + m[2].str() + "#" + std::to_string(entry->second);
        last = m[0].second;
    }
    out.append(last, plain.cend());
    return out;
}

std::string readText(const fs::path &file) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string firstDifferentLine(const std::string &a, const std::string &b) {
    std::istringstream sa(a), sb(b);
    std::string la, lb;
    for (int line = 1;; ++line) {
        const bool more = bool(std::getline(sa, la)), moreB = bool(std::getline(sb, lb));
        if (!more && !moreB) return "";
        if (more != moreB || la != lb)
            return "line " + std::to_string(line) + ":\n  applier: " + la + "\n  python:  " + lb;
    }
}

TEST(PythonGenerators, ExportedPythonScheduleLowersLikeTheApplier) {
    const fs::path dir =
        fs::temp_directory_path() / ("beamscope-pyexport-" + std::to_string(getpid()));
    fs::create_directories(dir);
    const Halide::Target target("host-opencl");
    struct Case {
        std::string file, name, params;
        std::vector<std::string> paramList;
    };
    const std::vector<Case> cases = {{"blur.py", "py_blur", R"({"radius": "2"})", {"radius=2"}},
                                     {"gradients.py", "py_gradients", "{}", {}},
                                     {"histogram.py", "py_histogram", "{}", {}},
                                     {"pyramid.py", "py_pyramid", "{}", {}}};
    for (const Case &c : cases) {
        for (const bool greedy : {true, false}) {
            SCOPED_TRACE(c.name + (greedy ? " greedy" : " beam"));
            const PipelineSource source = pythonSource(c.file, c.name, c.paramList);
            auto dag = std::make_shared<const FunctionDAG>(loadPipeline(source));
            SearchOptions options = greedy ? SearchOptions::greedy() : SearchOptions();
            options.gpu = GpuSpec::load("v100");
            options.beamSize = greedy ? 1 : 4;
            options.passes = 1;
            SearchEngine engine(dag, options);
            engine.run();
            ASSERT_NE(engine.best(), nullptr);
            const StatePtr state = engine.best()->state;

            const PipelineInstance fresh = loadPipeline(source);
            applySchedule(*state, fresh, target);
            const fs::path viaApplier = dir / (c.name + ".applier.stmt");
            Halide::Pipeline p = fresh.pipeline;
            p.compile_to_lowered_stmt(viaApplier.string(), p.infer_arguments(),
                                      Halide::StmtOutputFormat::Text, target);

            const std::string function = "apply_" + c.name + "_schedule";
            const fs::path module = dir / (c.name + "_schedule.py");
            std::ofstream(module) << schedulePythonSource(*state, &engine.best()->cost, function);
            const fs::path viaPython = dir / (c.name + ".python.stmt");
            ProcessOptions limit;
            limit.timeoutS = 120;
            const ProcessResult run =
                runProcess({pythonInterpreter(), kPythonDir + "/lower_with_exported_schedule.py",
                            kPythonDir + "/" + c.file, c.name, c.params, module.string(), function,
                            target.to_string(), viaPython.string()},
                           limit);
            ASSERT_TRUE(run.succeeded()) << run.describeEnd(120) << "\n" << run.err;
            const std::string expected = readText(viaApplier);
            EXPECT_GT(expected.size(), 1000u);
            EXPECT_EQ(firstDifferentLine(renumbered(expected), renumbered(readText(viaPython))),
                      "");
        }
    }
    fs::remove_all(dir);
}

} // namespace
} // namespace beamscope
