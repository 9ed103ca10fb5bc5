// OpenClDevices: the one walk over the OpenCL ICD loader's platforms and devices (opened with
// dlopen; plain C entry points with their documented constants, no OpenCL headers), shared by
// device detection (DeviceDetect: the first GPU, else the first device) and the device list
// (DeviceList: every device identical to the detected one, with the index Halide's OpenCL
// runtime selects it by).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace beamscope {

/// One OpenCL device as the loader reports it.
struct OpenClDevice {
    std::string platform;  ///< its platform's name (Halide's HL_OCL_PLATFORM_NAME)
    int platformIndex = 0; ///< the platform's position in the loader's list
    int index = 0;         ///< among its platform's devices of the type asked for (HL_GPU_DEVICE)
    std::string name;      ///< CL_DEVICE_NAME
    std::string vendor;    ///< CL_DEVICE_VENDOR
    std::string type;      ///< "GPU", "CPU", "ACCELERATOR" or "OTHER"
    int computeUnits = 0;  ///< CL_DEVICE_MAX_COMPUTE_UNITS
    std::int64_t memoryBytes = 0; ///< CL_DEVICE_GLOBAL_MEM_SIZE
};

/// The devices of type `type` ("GPU", "CPU", "ACCELERATOR"; "" : every type) on every platform,
/// platform by platform in the loader's order, through the first of `libraries` that loads.
/// Empty, with `why` set ("libOpenCL.so.1: not found", "no platform", ...), when there is none.
/// Never throws.
std::vector<OpenClDevice> listOpenClDevices(const std::vector<std::string> &libraries,
                                            const std::string &type, std::string &why);

} // namespace beamscope
