// OpenClBuild: builds an OpenCL C program alone with the device's compiler (clBuildProgram on the
// machine's OpenCL device, through the ICD loader opened with dlopen), with the options Halide's
// runtime passes. Crash triage runs it in a process of its own: if the kernel source alone
// crashes the build, the device compiler crashed, not the schedule.
#pragma once

#include <string>

namespace beamscope {

/// What building a program alone gave.
struct OpenClBuildResult {
    bool built = false;
    std::string device; ///< the device it was built for ("" when none was found)
    std::string error;  ///< why it did not build (with the first line of the build log)
};

/// Builds `source` for the first OpenCL GPU, else the first OpenCL device of any platform, with
/// "-D MAX_CONSTANT_BUFFER_SIZE=... -D MAX_CONSTANT_ARGS=..." from the device and
/// HL_OCL_BUILD_OPTIONS, as Halide does. Never throws; a compiler crash kills the process.
OpenClBuildResult buildOpenClProgram(const std::string &source);

} // namespace beamscope
