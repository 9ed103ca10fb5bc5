// Version: Beamscope's version (from project() in the top-level CMakeLists.txt) and the version
// of the Halide it was built against, for --version, man pages and bug reports.
#pragma once

#include <string>

namespace beamscope {

/// Beamscope's version, e.g. "0.1.0".
std::string beamscopeVersion();

/// The Halide version Beamscope was built against, e.g. "21.0.0".
std::string halideVersion();

/// "0.1.0 (Halide 21.0.0)": what every executable prints after its name for --version.
std::string versionLine();

} // namespace beamscope
