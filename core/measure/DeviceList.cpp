// Contents: device enumeration through the CUDA driver API (dlopen, as in DeviceDetect) and the
// OpenCL platform walk of OpenClDevices, the worker environment that selects each device, and
// per-device lock files.
#include "measure/DeviceList.h"

#include "measure/DriverApi.h"
#include "measure/OpenClDevices.h"
#include "measure/ParallelWorkers.h"

#include <array>
#include <cstdint>

namespace beamscope {

namespace {

using CuInit = int (*)(unsigned);
using CuDeviceGetCount = int (*)(int *);
using CuDeviceGet = int (*)(int *, int);
using CuDeviceGetName = int (*)(char *, int, int);

/// The names of CUDA devices 0..n-1 ("" where a name cannot be read).
std::vector<std::string> cudaDeviceNames(const DetectOptions &options) {
    std::vector<std::string> names;
    std::string why; // no CUDA driver: no CUDA devices to list
    void *lib = openFirstDriver(options.cudaLibraries, why);
    if (!lib) return names;
    auto init = driverSymbol<CuInit>(lib, "cuInit");
    auto count = driverSymbol<CuDeviceGetCount>(lib, "cuDeviceGetCount");
    auto get = driverSymbol<CuDeviceGet>(lib, "cuDeviceGet");
    auto name = driverSymbol<CuDeviceGetName>(lib, "cuDeviceGetName");
    int n = 0;
    if (!init || !count || !get || !name || init(0) != 0 || count(&n) != 0) return names;
    for (int i = 0; i < n; ++i) {
        int device = 0;
        std::array<char, 256> text{};
        if (get(&device, i) != 0 || name(text.data(), int(text.size()) - 1, device) != 0) {
            names.emplace_back();
        } else {
            names.emplace_back(text.data());
        }
    }
    return names;
}

/// Halide's HL_OCL_DEVICE_TYPE value for an OpenCL type name.
std::string halideClType(const std::string &type) {
    if (type == "GPU") return "gpu";
    if (type == "CPU") return "cpu";
    return "acc";
}

/// Indices, among the devices of `detected`'s type on its platform, of those named like it.
std::vector<int> openclDeviceIndices(const DeviceInfo &detected, const DetectOptions &options) {
    std::vector<int> indices;
    if (detected.openclType != "GPU" && detected.openclType != "CPU" &&
        detected.openclType != "ACCELERATOR")
        return indices;
    std::string why;
    const std::vector<OpenClDevice> devices =
        listOpenClDevices(options.openclLibraries, detected.openclType, why);
    int platform = -1; // Halide's runtime takes the first platform whose name matches
    for (const OpenClDevice &d : devices) {
        if (d.platform != detected.platform) continue;
        if (platform < 0) platform = d.platformIndex;
        if (d.platformIndex == platform && d.name == detected.name) indices.push_back(d.index);
    }
    return indices;
}

DeviceSlot slotOf(const DeviceInfo &device, int index) {
    DeviceSlot slot;
    slot.info = device;
    slot.index = index;
    slot.label = std::string(deviceKindName(device.kind)) + ":" + std::to_string(index);
    slot.lockPath = deviceSlotLockPath(device, index);
    if (device.kind == DeviceKind::Cuda) {
        slot.environment = {"CUDA_VISIBLE_DEVICES=" + std::to_string(index)};
    } else {
        slot.environment = {"HL_OCL_PLATFORM_NAME=" + device.platform,
                            "HL_OCL_DEVICE_TYPE=" + halideClType(device.openclType),
                            "HL_GPU_DEVICE=" + std::to_string(index)};
    }
    return slot;
}

} // namespace

std::string deviceSlotLockPath(const DeviceInfo &device, int index) {
    const std::string path = deviceLockPath(device); // device 0 keeps the single-device lock
    if (index == 0) return path;
    return path.substr(0, path.size() - 5) + "-" + std::to_string(index) + ".lock";
}

std::vector<DeviceSlot> listDevices(const DeviceInfo &detected, const DetectOptions &options) {
    std::vector<DeviceSlot> slots;
    if (detected.kind == DeviceKind::Cuda) {
        const std::vector<std::string> names = cudaDeviceNames(options);
        for (size_t i = 0; i < names.size(); ++i)
            if (names[i] == detected.name) slots.push_back(slotOf(detected, int(i)));
    } else if (detected.kind == DeviceKind::OpenCL) {
        for (int index : openclDeviceIndices(detected, options))
            slots.push_back(slotOf(detected, index));
    } else {
        return slots;
    }
    if (slots.empty()) slots.push_back(slotOf(detected, 0));
    return slots;
}

} // namespace beamscope
