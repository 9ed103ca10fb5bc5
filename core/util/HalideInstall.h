// HalideInstall: where the libHalide this process has loaded lives, with its headers and its
// autoscheduler plugins beside it. Generator libraries, exported schedules and plugins must all
// use that very Halide (two copies of Halide's LLVM and globals in one process do not mix).
#pragma once

#include <filesystem>
#include <string>

namespace beamscope {

struct HalideInstall {
    std::filesystem::path library;    ///< the loaded libHalide.so, canonical
    std::filesystem::path libDir;     ///< its directory (plugins lie here)
    std::filesystem::path includeDir; ///< ../include (the wheel) or include/, with Halide.h
};

/// The loaded libHalide: dladdr on one of its functions, else a scan of the loaded objects
/// (the address resolves to a PLT stub in a non-PIE executable). Throws Error if none.
std::filesystem::path loadedHalideLibrary();

/// The loaded libHalide with its directories; throws Error when Halide.h is not next to it
/// (in ../include or include/).
HalideInstall locateHalideInstall();

/// The plugin `libautoschedule_<lower-case name>.so` next to the loaded libHalide; throws Error
/// when it is not there.
std::filesystem::path autoschedulerPluginPath(const std::string &name);

} // namespace beamscope
