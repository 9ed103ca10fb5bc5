// DeviceList: every device of this machine that measurements can run on at once, and how a
// worker is pointed at one of them: CUDA_VISIBLE_DEVICES for a CUDA device, HL_OCL_PLATFORM_NAME
// and HL_GPU_DEVICE (Halide's OpenCL runtime: the platform, then the device's index in it) for
// an OpenCL device. Each device has its own lock file, so that two measurements never share a
// device, across processes too. Only devices identical to the detected one (same API, name and
// type) are listed: their measurements share one device identity in the database.
#pragma once

#include "measure/DeviceDetect.h"

#include <string>
#include <vector>

namespace beamscope {

/// One device a worker can be pinned to.
struct DeviceSlot {
    DeviceInfo info;                      ///< what the driver reports for it
    int index = 0;                        ///< CUDA ordinal, or the index in its OpenCL platform
    std::string label;                    ///< "cuda:1", "opencl:0"
    std::string lockPath;                 ///< this device's lock file (flock)
    std::vector<std::string> environment; ///< "NAME=value" entries that select it in a worker
};

/// Every device of the detected device's kind that is identical to it (name, OpenCL platform
/// and type), in driver order; the detected device alone when enumeration finds nothing more;
/// empty for DeviceKind::None. Never throws.
std::vector<DeviceSlot> listDevices(const DeviceInfo &detected, const DetectOptions &options = {});

/// The lock file of device `index` of `device`'s kind, the same in every process of this user.
std::string deviceSlotLockPath(const DeviceInfo &device, int index);

} // namespace beamscope
