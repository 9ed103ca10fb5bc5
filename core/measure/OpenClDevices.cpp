// OpenClDevices: dlopen of the ICD loader, the platform walk and the device queries.
#include "measure/OpenClDevices.h"

#include "measure/DriverApi.h"

#include <algorithm>
#include <array>

namespace beamscope {

namespace {

constexpr unsigned kMaxPlatforms = 16;
constexpr unsigned kMaxDevices = 64;

uint64_t typeBits(const std::string &type) {
    if (type == "GPU") return kClDeviceTypeGpu;
    if (type == "CPU") return kClDeviceTypeCpu;
    if (type == "ACCELERATOR") return kClDeviceTypeAccelerator;
    return type.empty() ? kClDeviceTypeAll : 0;
}

const char *typeName(uint64_t type) {
    if (type & kClDeviceTypeGpu) return "GPU";
    if (type & kClDeviceTypeCpu) return "CPU";
    if (type & kClDeviceTypeAccelerator) return "ACCELERATOR";
    return "OTHER";
}

std::string infoString(ClGetDeviceInfo info, void *device, unsigned param) {
    std::array<char, 512> text{};
    if (info(device, param, text.size() - 1, text.data(), nullptr) != 0) return "";
    return std::string(text.data());
}

} // namespace

std::vector<OpenClDevice> listOpenClDevices(const std::vector<std::string> &libraries,
                                            const std::string &type, std::string &why) {
    std::vector<OpenClDevice> found;
    void *lib = openFirstDriver(libraries, why);
    if (!lib) return found;
    auto platforms = driverSymbol<ClGetPlatformIDs>(lib, "clGetPlatformIDs");
    auto platformInfo = driverSymbol<ClGetPlatformInfo>(lib, "clGetPlatformInfo");
    auto devices = driverSymbol<ClGetDeviceIDs>(lib, "clGetDeviceIDs");
    auto deviceInfo = driverSymbol<ClGetDeviceInfo>(lib, "clGetDeviceInfo");
    if (!platforms || !platformInfo || !devices || !deviceInfo) {
        why = "library lacks the OpenCL API";
        return found;
    }
    const uint64_t wanted = typeBits(type);
    if (wanted == 0) {
        why = "unknown device type " + type;
        return found;
    }
    std::array<void *, kMaxPlatforms> ids{};
    unsigned count = 0;
    if (platforms(kMaxPlatforms, ids.data(), &count) != 0 || count == 0) {
        why = "no platform";
        return found;
    }
    for (unsigned p = 0; p < std::min(count, kMaxPlatforms); ++p) {
        std::array<char, 256> text{};
        const std::string platform =
            platformInfo(ids[p], kClPlatformName, text.size() - 1, text.data(), nullptr) == 0
                ? std::string(text.data())
                : std::string();
        std::array<void *, kMaxDevices> list{};
        unsigned n = 0;
        if (devices(ids[p], wanted, kMaxDevices, list.data(), &n) != 0) continue;
        for (unsigned d = 0; d < std::min(n, kMaxDevices); ++d) {
            OpenClDevice device;
            device.platform = platform;
            device.platformIndex = int(p);
            device.index = int(d);
            device.name = infoString(deviceInfo, list[d], kClDeviceName);
            device.vendor = infoString(deviceInfo, list[d], kClDeviceVendor);
            uint64_t bits = 0;
            deviceInfo(list[d], kClDeviceType, sizeof bits, &bits, nullptr);
            device.type = typeName(bits);
            unsigned units = 0;
            deviceInfo(list[d], kClDeviceMaxComputeUnits, sizeof units, &units, nullptr);
            device.computeUnits = int(units);
            uint64_t bytes = 0;
            deviceInfo(list[d], kClDeviceGlobalMemSize, sizeof bytes, &bytes, nullptr);
            device.memoryBytes = std::int64_t(bytes);
            found.push_back(device);
        }
    }
    if (found.empty()) why = "no device";
    return found;
}

} // namespace beamscope
