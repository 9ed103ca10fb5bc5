// Version strings. BEAMSCOPE_VERSION is defined for this file only (core/CMakeLists.txt), so a
// new version recompiles one file.
#include "util/Version.h"

#include <Halide.h>

#ifndef BEAMSCOPE_VERSION
#error "BEAMSCOPE_VERSION must be defined (core/CMakeLists.txt)"
#endif

namespace beamscope {

std::string beamscopeVersion() {
    return BEAMSCOPE_VERSION;
}

std::string halideVersion() {
    return std::to_string(HALIDE_VERSION_MAJOR) + "." + std::to_string(HALIDE_VERSION_MINOR) + "." +
           std::to_string(HALIDE_VERSION_PATCH);
}

std::string versionLine() {
    return beamscopeVersion() + " (Halide " + halideVersion() + ")";
}

} // namespace beamscope
