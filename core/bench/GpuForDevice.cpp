// gpuSpecForDevice: the GPU model a detected device is searched and ranked with.
#include "bench/BenchRun.h"
#include "util/Text.h"

#include <algorithm>
#include <cctype>
#include <utility>
#include <vector>

namespace beamscope {

GpuSpec gpuSpecForDevice(const DeviceInfo &device) {
    if (device.kind == DeviceKind::OpenCL && device.openclType == "CPU")
        return GpuSpec::load("pocl-cpu");
    if (device.kind == DeviceKind::Cuda) {
        const std::string name = asciiLower(device.name);
        for (const auto &[key, preset] : std::vector<std::pair<std::string, std::string>>{
                 {"h100", "h100"}, {"h200", "h200"}, {"a100", "a100"}, {"v100", "v100"}, {"4090", "rtx4090"}}) {
            if (name.find(key) != std::string::npos) return GpuSpec::load(preset);
        }
        GpuSpec spec = GpuSpec::load("v100");
        spec.name = device.name + " (v100 model)";
        if (device.computeUnits > 0) spec.smCount = device.computeUnits;
        spec.computeCapability = device.computeCapability;
        return spec;
    }
    return GpuSpec::load("v100");
}

} // namespace beamscope
