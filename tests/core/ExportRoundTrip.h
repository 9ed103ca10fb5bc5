// Helpers of the exported-schedule round trip (ScheduleSourceTest, UserGeneratorsTest): a
// temporary directory, work run in a forked child (so both sides start from the same Halide
// unique-name state), the exported headers compiled by the system compiler into a driver
// library, and the lowered CUDA statements compared line by line; the round trip itself is
// expectExportsLowerLikeTheApplier (ExportRoundTrip.cpp).
#pragma once

#include "cost/CostModel.h"
#include "pipeline/PipelineInstance.h"
#include "schedule/ScheduleState.h"
#include "util/HalideInstall.h"

#include <Halide.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace beamscope::testing {

namespace fs = std::filesystem;

inline const Halide::Target &cudaTarget() {
    static const Halide::Target target("host-cuda-cuda_capability_70");
    return target;
}

inline std::string readFile(const fs::path &file) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

/// Writes the lowered statement for CUDA (host code and the kernels' PTX) to `file`.
inline void writeLoweredStmt(Halide::Pipeline p, const fs::path &file) {
    p.compile_to_lowered_stmt(file.string(), p.infer_arguments(), Halide::StmtOutputFormat::Text,
                              cudaTarget());
}

/// Runs `work` in a child forked from this process and returns its exit status (0: done). Both
/// sides of a comparison then start from the same Halide state: its unique-name counters,
/// which name Funcs ("$n"), temporaries and kernels, and so the order of what Halide sorts by
/// name. A failure's message goes to `errorFile`.
inline int runInChild(const std::function<void()> &work, const fs::path &errorFile) {
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
inline std::string firstDifference(const std::string &a, const std::string &b) {
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

/// A temporary directory for exported headers, removed at the end of the test (not TempDir:
/// MeasurementStoreTestUtil.h has one of that name in this namespace, and two inline classes of
/// one name in one program are an ODR violation that crashed this test).
struct ExportDir {
    fs::path path;
    ExportDir() {
        static int count = 0;
        path = fs::temp_directory_path() /
               ("beamscope-source-" + std::to_string(::getpid()) + "-" + std::to_string(count++));
        fs::create_directories(path);
    }
    ~ExportDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

/// The compiler that built this test: CMake's, when the build says which; else by family.
inline std::string systemCompiler() {
#if defined(BEAMSCOPE_CXX_COMPILER)
    return BEAMSCOPE_CXX_COMPILER;
#elif defined(__clang__)
    return "clang++";
#else
    return "c++";
#endif
}

/// Compiles `driver` (which includes exported headers) into the shared library `library` with
/// the system compiler: C++17 (what Halide requires of its users), warnings as errors, against
/// the libHalide this process loaded. Returns "" on success, else the command and its output.
inline std::string compileDriver(const fs::path &driver, const fs::path &library) {
    const HalideInstall halide = locateHalideInstall();
    const fs::path log = library.string() + ".log";
    // A stream, not one long operator+ chain, which GCC 12 flags with a false -Warray-bounds.
    std::ostringstream stream;
    stream << systemCompiler() << " -std=c++17 -O0 -fPIC -shared -Wall -Wextra -Werror -isystem "
           << halide.includeDir.string() << " " << driver.string() << " -o " << library.string()
           << " -L" << halide.libDir.string() << " -lHalide -Wl,-rpath," << halide.libDir.string()
           << " > " << log.string() << " 2>&1";
    const std::string command = stream.str();
    if (std::system(command.c_str()) == 0) return "";
    return command + "\n" + readFile(log);
}

/// One pipeline whose exported schedule is compiled and compared with the applier's.
struct RoundTripCase {
    std::string function;                    ///< the exported C++ function's name
    std::function<PipelineInstance()> build; ///< a fresh pipeline per call
    StatePtr state;                          ///< the schedule, complete
    std::optional<StateCost> cost;           ///< exported as cost shares when present
};

/// Exports every case's schedule as a header, compiles all of them into one driver library with
/// the system compiler, and checks (gtest expectations) that each exported function, called on a
/// fresh pipeline, lowers for CUDA to exactly the statement applySchedule gives. Prints the
/// compile and total times.
void expectExportsLowerLikeTheApplier(const std::vector<RoundTripCase> &cases);

} // namespace beamscope::testing
