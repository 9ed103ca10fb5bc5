// The exported-schedule round trip shared by ScheduleSourceTest (catalog apps, hand-made
// schedules) and UserGeneratorsTest (user generators): every case's schedule exported as a
// header, all headers compiled into one driver library, and each case lowered for CUDA twice,
// through the applier and through the compiled export, in forked children.
#include "ExportRoundTrip.h"

#include "codegen/ScheduleApplier.h"
#include "codegen/ScheduleSource.h"
#include "dag/FunctionDAG.h"

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <chrono>

namespace beamscope::testing {

void expectExportsLowerLikeTheApplier(const std::vector<RoundTripCase> &cases) {
    using Clock = std::chrono::steady_clock;
    ExportDir dir;
    std::string driver = "// Driver: the exported schedules, callable from the test.\n";
    for (const RoundTripCase &c : cases) {
        const std::string header = c.function + ".h";
        std::ofstream(dir.path / header)
            << scheduleSource(*c.state, c.cost ? &*c.cost : nullptr, c.function);
        driver += "#include \"" + header + "\"\n";
    }
    for (const RoundTripCase &c : cases) {
        driver += "extern \"C\" void call_" + c.function + "(Halide::Pipeline *p) { " + c.function +
                  "(*p); }\n";
    }
    std::ofstream(dir.path / "driver.cpp") << driver;

    const fs::path library = dir.path / "libdriver.so";
    const auto start = Clock::now();
    const std::string failure = compileDriver(dir.path / "driver.cpp", library);
    const auto compiled = Clock::now();
    ASSERT_EQ(failure, "");
    const auto ms = [](Clock::duration d) {
        return (long long)std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
    };
    std::printf("  compiling %zu exported schedules took %lld ms\n", cases.size(),
                ms(compiled - start));

    void *handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(handle, nullptr) << dlerror();
    // One case's failure (an ASSERT returns from the lambda) leaves the others to run.
    const auto check = [&](const RoundTripCase &c) {
        SCOPED_TRACE(c.function);
        using Apply = void (*)(Halide::Pipeline *);
        auto apply = reinterpret_cast<Apply>(dlsym(handle, ("call_" + c.function).c_str()));
        ASSERT_NE(apply, nullptr) << dlerror();

        const fs::path viaApplier = dir.path / (c.function + ".applier.stmt");
        const fs::path viaSource = dir.path / (c.function + ".source.stmt");
        const fs::path error = dir.path / (c.function + ".error");
        ASSERT_EQ(runInChild(
                      [&] {
                          PipelineInstance fresh = c.build();
                          applySchedule(*c.state, fresh, cudaTarget());
                          writeLoweredStmt(fresh.pipeline, viaApplier);
                      },
                      error),
                  0)
            << readFile(error);
        ASSERT_EQ(runInChild(
                      [&] {
                          PipelineInstance fresh = c.build();
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
    };
    for (const RoundTripCase &c : cases) {
        const auto caseStart = Clock::now();
        check(c);
        std::printf("  %s: %lld ms\n", c.function.c_str(), ms(Clock::now() - caseStart));
    }
    dlclose(handle);
    std::printf("  the round trip of %zu schedules took %lld ms\n", cases.size(),
                ms(Clock::now() - start));
}

} // namespace beamscope::testing
