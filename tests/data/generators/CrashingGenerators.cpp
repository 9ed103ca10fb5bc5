// Generators whose generate() goes wrong the way a new user's code does: one calls abort(), one
// writes through a null pointer, one never returns. Beamscope builds users' pipelines in a
// process of its own first (UserCodeIsolation.h); these check that each is one line of error
// and that the front end survives it (UserCodeIsolationTest, e2e/user_code_crashes.sh, the GUI's
// PipelinePanelTest). Built against Beamscope's libHalide.
#include <Halide.h>

#include <chrono>
#include <cstdlib>
#include <thread>

namespace {

using namespace Halide;

/// Output estimates set, so only the crash stands between it and a search.
template <typename GeneratorOutput> void defineOutput(GeneratorOutput &output) {
    Var x("x"), y("y");
    output(x, y) = cast<float>(x + y);
    output.set_estimates({{0, 64}, {0, 64}});
}

class CrashAbort : public Generator<CrashAbort> {
public:
    Output<Buffer<float, 2>> output{"output"};
    void generate() {
        defineOutput(output);
        std::abort();
    }
};

class CrashSegfault : public Generator<CrashSegfault> {
public:
    Output<Buffer<float, 2>> output{"output"};
    void generate() {
        defineOutput(output);
        volatile int *nowhere = nullptr;
        *nowhere = 42; // SIGSEGV
    }
};

class CrashHang : public Generator<CrashHang> {
public:
    Output<Buffer<float, 2>> output{"output"};
    void generate() {
        defineOutput(output);
        for (;;)
            std::this_thread::sleep_for(std::chrono::seconds(1));
    }
};

/// The library's one well-behaved generator: isolation must not get in its way.
class CrashFree : public Generator<CrashFree> {
public:
    Output<Buffer<float, 2>> output{"output"};
    void generate() { defineOutput(output); }
};

} // namespace

HALIDE_REGISTER_GENERATOR(CrashAbort, crash_abort)
HALIDE_REGISTER_GENERATOR(CrashSegfault, crash_segfault)
HALIDE_REGISTER_GENERATOR(CrashHang, crash_hang)
HALIDE_REGISTER_GENERATOR(CrashFree, crash_free)
