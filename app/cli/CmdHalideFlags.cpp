// `beamscope-cli halide-flags`: compiler and linker flags for building a generator library
// against the very libHalide this binary has loaded.
#include "Commands.h"

#include "util/HalideInstall.h"

#include <iostream>
#include <memory>

namespace beamscope::cli {

namespace {

std::string compileFlags(const HalideInstall &install) {
    return "-std=c++17 -fPIC -I" + install.includeDir.string();
}

std::string linkFlags(const HalideInstall &install) {
    const std::string lib = install.libDir.string();
    return "-shared -L" + lib + " -lHalide -Wl,-rpath," + lib + " -ldl -lpthread";
}

} // namespace

void addHalideFlagsCommand(CLI::App &app, CommandAction &action) {
    struct Options {
        bool cflags = false;
        bool libs = false;
    };
    auto options = std::make_shared<Options>();
    CLI::App *cmd = app.add_subcommand(
        "halide-flags",
        "print the flags that build a generator library against Beamscope's Halide: line 1 "
        "compile flags, line 2 link flags, e.g.\n  g++ $(beamscope-cli halide-flags --cflags) "
        "gen.cpp $(beamscope-cli halide-flags --libs) -o libgen.so");
    cmd->add_flag("--cflags", options->cflags, "print only the compile flags");
    cmd->add_flag("--libs", options->libs, "print only the link flags (-shared included)");
    cmd->callback([&action, options] {
        action = [options] {
            const HalideInstall install = locateHalideInstall();
            const bool both = options->cflags == options->libs;
            if (both || options->cflags) std::cout << compileFlags(install) << "\n";
            if (both || options->libs) std::cout << linkFlags(install) << "\n";
            return 0;
        };
    });
}

} // namespace beamscope::cli
