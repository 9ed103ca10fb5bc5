// `beamscope-cli halide-flags`: compiler and linker flags for building a generator library
// against the very libHalide this binary has loaded.
#include "Commands.h"

#include "util/Error.h"

#include <dlfcn.h>
#include <link.h>

#include <filesystem>
#include <iostream>
#include <memory>

namespace beamscope::cli {

namespace {

namespace fs = std::filesystem;

/// Where the loaded Halide lives: its library and include directories.
struct HalideInstall {
    fs::path libDir;
    fs::path includeDir;
};

bool isHalideLibrary(const fs::path &file) {
    return file.filename().string().rfind("libHalide.so", 0) == 0;
}

/// Path of the loaded libHalide: dladdr on one of its functions, or a scan of the loaded
/// objects when the address resolves elsewhere (a PLT stub in a non-PIE executable).
fs::path loadedHalideLibrary() {
    Dl_info info{};
    const auto *symbol = reinterpret_cast<const void *>(&Halide::get_host_target);
    if (dladdr(symbol, &info) != 0 && info.dli_fname && isHalideLibrary(info.dli_fname)) {
        return info.dli_fname;
    }
    fs::path found;
    dl_iterate_phdr(
        [](dl_phdr_info *object, size_t, void *data) {
            if (object->dlpi_name && isHalideLibrary(object->dlpi_name)) {
                *static_cast<fs::path *>(data) = object->dlpi_name;
                return 1;
            }
            return 0;
        },
        &found);
    if (found.empty()) throw Error("cannot locate the loaded libHalide");
    return found;
}

HalideInstall locateHalide() {
    std::error_code ec;
    const fs::path library = fs::canonical(loadedHalideLibrary(), ec);
    if (ec) throw Error("cannot resolve the path of the loaded libHalide: " + ec.message());
    HalideInstall install;
    install.libDir = library.parent_path();
    install.includeDir = fs::weakly_canonical(install.libDir / ".." / "include", ec);
    if (ec || !fs::exists(install.includeDir / "Halide.h")) {
        throw Error("no Halide.h in " + (install.libDir.parent_path() / "include").string() +
                    " next to the loaded " + library.string());
    }
    return install;
}

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
            const HalideInstall install = locateHalide();
            const bool both = options->cflags == options->libs;
            if (both || options->cflags) std::cout << compileFlags(install) << "\n";
            if (both || options->libs) std::cout << linkFlags(install) << "\n";
            return 0;
        };
    });
}

} // namespace beamscope::cli
