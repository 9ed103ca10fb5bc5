// InstallLayout: where Beamscope's data files (GPU presets, ...) are, found relative to the
// running executable, never through a path compiled in, so the same binary works in its build
// tree and installed under any prefix (an unpacked package included):
//   installed    <prefix>/bin/beamscope-cli        data in <prefix>/share/beamscope
//   build tree   <build>/app/cli/beamscope-cli     data in <build>/share/beamscope (copied there
//                <build>/tests/beamscope-core-tests  at configure time by cmake/Packaging.cmake)
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace beamscope {

/// The running executable (/proc/self/exe); empty if it cannot be read.
std::filesystem::path executablePath();

/// The directories data are looked for in, in order: <exe dir>/../share/beamscope, then
/// <exe dir>/../../share/beamscope. Empty if the executable is unknown.
std::vector<std::filesystem::path> dataDirectoryCandidates();

/// `relative` (e.g. "gpus") inside the first candidate data directory that has it; throws
/// Error "<what> not found: looked in ..." naming every place looked in when none has.
std::filesystem::path findDataDirectory(const std::filesystem::path &relative,
                                        const std::string &what);

} // namespace beamscope
