// User code that goes wrong (tests/data/generators/CrashingGenerators.cpp): with isolation on, as
// the CLI and the GUI run, a generator that aborts, segfaults or hangs in generate() is one line
// naming it and the signal or the time limit, and this process goes on; a well-behaved generator
// of the same library still loads. The other failure ends of the child (it cannot start) too.
#include "pipeline/UserCodeIsolation.h"
#include "pipeline/GeneratorLibrary.h"
#include "pipeline/PipelineSource.h"
#include "util/Error.h"

#include <gtest/gtest.h>

namespace beamscope {
namespace {

/// Turns isolation on for one test (with a short time limit) and off again after it.
class UserCodeIsolation : public ::testing::Test {
protected:
    void SetUp() override { setUserCodeIsolation({true, BEAMSCOPE_TEST_WORKER, 3}); }
    void TearDown() override { setUserCodeIsolation({}); }

    static PipelineSource crashing(const std::string &name) {
        PipelineSource source;
        source.name = name;
        source.generatorLibrary = BEAMSCOPE_TEST_CRASHING_GENERATOR_LIB;
        return source;
    }

    static std::string loadError(const PipelineSource &source) {
        try {
            loadPipeline(source);
        } catch (const Error &e) {
            return e.what();
        }
        return "";
    }
};

TEST_F(UserCodeIsolation, CrashesAndHangsAreOneLineNamingTheGeneratorAndTheSignal) {
    const std::string lib = BEAMSCOPE_TEST_CRASHING_GENERATOR_LIB;
    EXPECT_EQ(loadError(crashing("crash_abort")),
              "generator 'crash_abort' in '" + lib +
                  "' crashed while building: signal 6 (Aborted)");
    EXPECT_EQ(loadError(crashing("crash_segfault")),
              "generator 'crash_segfault' in '" + lib +
                  "' crashed while building: signal 11 (Segmentation fault)");
    EXPECT_EQ(loadError(crashing("crash_hang")),
              "generator 'crash_hang' in '" + lib +
                  "' did not finish building within 3 s (stopped; a longer limit: "
                  "--build-timeout)");
    // The library itself is fine: its good generator loads, in this process, afterwards.
    const PipelineInstance good = loadPipeline(crashing("crash_free"));
    EXPECT_EQ(good.pipeline.outputs().size(), 1u);
    const GeneratorLibrary library = GeneratorLibrary::open(lib);
    EXPECT_EQ(library.generators(), (std::vector<std::string>{"crash_abort", "crash_free",
                                                              "crash_hang", "crash_segfault"}));
}

TEST_F(UserCodeIsolation, OrdinaryErrorsKeepTheirKindAndText) {
    // The child reports an ordinary error; the in-process build then throws it as usual.
    PipelineSource unknown = crashing("crash_nothing");
    try {
        loadPipeline(unknown);
        FAIL() << "no error";
    } catch (const UsageError &e) {
        EXPECT_NE(std::string(e.what()).find("has no generator 'crash_nothing' (available: "
                                             "crash_abort, crash_free, crash_hang, "
                                             "crash_segfault)"),
                  std::string::npos)
            << e.what();
    }
}

TEST_F(UserCodeIsolation, NoWorkerIsAnErrorNotAnUnprotectedBuild) {
    setUserCodeIsolation({true, "/nonexistent/beamscope-worker", 3});
    EXPECT_EQ(loadError(crashing("crash_abort")),
              "cannot build generator 'crash_abort' in '" +
                  std::string(BEAMSCOPE_TEST_CRASHING_GENERATOR_LIB) +
                  "' safely: beamscope-worker not found next to this program");
}

} // namespace
} // namespace beamscope
