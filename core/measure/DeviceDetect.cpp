// Device detection through drivers opened with dlopen: the CUDA driver API (cuInit, cuDeviceGet,
// attributes) and the OpenCL ICD loader (the platform walk in OpenClDevices). Only plain C entry
// points with their documented constants are used, so no CUDA or OpenCL headers are needed.
#include "measure/DeviceDetect.h"

#include "measure/DriverApi.h"
#include "measure/OpenClDevices.h"
#include "util/Error.h"

#include <array>
#include <ostream>
#include <sstream>

namespace beamscope {

namespace {

// --- CUDA driver API -------------------------------------------------------------------------
using CuInit = int (*)(unsigned);
using CuDriverGetVersion = int (*)(int *);
using CuDeviceGetCount = int (*)(int *);
using CuDeviceGet = int (*)(int *, int);
using CuDeviceGetName = int (*)(char *, int, int);
using CuDeviceGetAttribute = int (*)(int *, int, int);
using CuDeviceTotalMem = int (*)(size_t *, int);
constexpr int kCuAttrMultiprocessorCount = 16;
constexpr int kCuAttrComputeCapabilityMajor = 75;
constexpr int kCuAttrComputeCapabilityMinor = 76;

} // namespace

const char *deviceKindName(DeviceKind kind) {
    switch (kind) {
    case DeviceKind::Cuda:
        return "cuda";
    case DeviceKind::OpenCL:
        return "opencl";
    case DeviceKind::None:
        return "none";
    }
    return "none";
}

DevicePreference parseDevicePreference(const std::string &text) {
    if (text == "auto") return DevicePreference::Auto;
    if (text == "cuda") return DevicePreference::Cuda;
    if (text == "opencl") return DevicePreference::OpenCL;
    if (text == "none") return DevicePreference::None;
    throw UsageError("unknown device '" + text + "' (auto, cuda, opencl or none)");
}

int halideCudaCapability(int cc) {
    static const int known[] = {30, 32, 35, 50, 61, 70, 75, 80, 86};
    int best = known[0];
    for (int k : known)
        if (k <= cc) best = k;
    return best;
}

DeviceInfo detectCudaDevice(const DetectOptions &options) {
    DeviceInfo info;
    std::string why;
    void *lib = openFirstDriver(options.cudaLibraries, why);
    if (!lib) {
        info.notes.push_back("CUDA: " + why);
        return info;
    }
    auto init = driverSymbol<CuInit>(lib, "cuInit");
    auto version = driverSymbol<CuDriverGetVersion>(lib, "cuDriverGetVersion");
    auto count = driverSymbol<CuDeviceGetCount>(lib, "cuDeviceGetCount");
    auto get = driverSymbol<CuDeviceGet>(lib, "cuDeviceGet");
    auto name = driverSymbol<CuDeviceGetName>(lib, "cuDeviceGetName");
    auto attr = driverSymbol<CuDeviceGetAttribute>(lib, "cuDeviceGetAttribute");
    auto mem = driverSymbol<CuDeviceTotalMem>(lib, "cuDeviceTotalMem_v2");
    if (!init || !count || !get || !name || !attr) {
        info.notes.push_back("CUDA: driver library lacks the driver API");
        return info;
    }
    if (int rc = init(0); rc != 0) {
        info.notes.push_back("CUDA: cuInit failed (error " + std::to_string(rc) + ")");
        return info;
    }
    int devices = 0;
    if (count(&devices) != 0 || devices < 1) {
        info.notes.push_back("CUDA: no device");
        return info;
    }
    int device = 0, major = 0, minor = 0, sms = 0;
    std::array<char, 256> text{};
    if (get(&device, 0) != 0 || name(text.data(), int(text.size()) - 1, device) != 0 ||
        attr(&major, kCuAttrComputeCapabilityMajor, device) != 0 ||
        attr(&minor, kCuAttrComputeCapabilityMinor, device) != 0) {
        info.notes.push_back("CUDA: cannot query device 0");
        return info;
    }
    attr(&sms, kCuAttrMultiprocessorCount, device);
    info.kind = DeviceKind::Cuda;
    info.name = text.data();
    info.vendor = "NVIDIA";
    int driver = 0;
    if (version && version(&driver) == 0) {
        info.platform = "CUDA driver " + std::to_string(driver / 1000) + "." +
                        std::to_string(driver % 1000 / 10);
    }
    info.computeCapability = major * 10 + minor;
    info.computeUnits = sms;
    size_t bytes = 0;
    if (mem && mem(&bytes, device) == 0) info.memoryBytes = std::int64_t(bytes);
    return info;
}

DeviceInfo detectOpenClDevice(const DetectOptions &options) {
    DeviceInfo info;
    // First a GPU on any platform, then any device on any platform.
    std::string why;
    std::vector<OpenClDevice> devices = listOpenClDevices(options.openclLibraries, "GPU", why);
    if (devices.empty()) devices = listOpenClDevices(options.openclLibraries, "", why);
    if (devices.empty()) {
        info.notes.push_back("OpenCL: " + why);
        return info;
    }
    const OpenClDevice &d = devices.front();
    info.kind = DeviceKind::OpenCL;
    info.name = d.name;
    info.vendor = d.vendor;
    info.platform = d.platform;
    info.openclType = d.type;
    info.computeUnits = d.computeUnits;
    info.memoryBytes = d.memoryBytes;
    return info;
}

DeviceInfo detectDevice(DevicePreference preference, const DetectOptions &options) {
    if (preference == DevicePreference::None) {
        DeviceInfo none;
        none.notes.push_back("device not requested");
        return none;
    }
    std::vector<std::string> notes;
    if (preference == DevicePreference::Auto || preference == DevicePreference::Cuda) {
        DeviceInfo cuda = detectCudaDevice(options);
        if (cuda.kind == DeviceKind::Cuda || preference == DevicePreference::Cuda) return cuda;
        notes = cuda.notes;
    }
    DeviceInfo opencl = detectOpenClDevice(options);
    opencl.notes.insert(opencl.notes.begin(), notes.begin(), notes.end());
    return opencl;
}

std::string DeviceInfo::describe() const {
    std::ostringstream os;
    switch (kind) {
    case DeviceKind::Cuda:
        os << "CUDA: " << name << " (sm_" << computeCapability << ", " << computeUnits << " SMs)";
        break;
    case DeviceKind::OpenCL:
        os << "OpenCL " << openclType << ": " << name << " (" << platform << ", " << computeUnits
           << " compute units)";
        break;
    case DeviceKind::None:
        os << "none (compile only)";
        break;
    }
    if (!notes.empty()) {
        os << "; ";
        for (size_t i = 0; i < notes.size(); ++i)
            os << (i ? ", " : "") << notes[i];
    }
    return os.str();
}

std::string DeviceInfo::halideTarget() const {
    switch (kind) {
    case DeviceKind::Cuda:
        return "host-cuda-cuda_capability_" +
               std::to_string(halideCudaCapability(computeCapability));
    case DeviceKind::OpenCL:
        return "host-opencl";
    case DeviceKind::None:
        return "";
    }
    return "";
}

nlohmann::json DeviceInfo::toJson() const {
    return {{"kind", deviceKindName(kind)},
            {"name", name},
            {"vendor", vendor},
            {"platform", platform},
            {"opencl_type", openclType},
            {"compute_capability", computeCapability},
            {"compute_units", computeUnits},
            {"memory_bytes", memoryBytes},
            {"notes", notes},
            {"halide_target", halideTarget()}};
}

DeviceInfo DeviceInfo::fromJson(const nlohmann::json &j) {
    DeviceInfo d;
    if (!j.is_object()) return d;
    const std::string kind = j.value("kind", std::string());
    d.kind = kind == "cuda"     ? DeviceKind::Cuda
             : kind == "opencl" ? DeviceKind::OpenCL
                                : DeviceKind::None;
    d.name = j.value("name", std::string());
    d.vendor = j.value("vendor", std::string());
    d.platform = j.value("platform", std::string());
    d.openclType = j.value("opencl_type", std::string());
    d.computeCapability = j.value("compute_capability", 0);
    d.computeUnits = j.value("compute_units", 0);
    d.memoryBytes = j.value("memory_bytes", std::int64_t(0));
    d.notes = j.value("notes", std::vector<std::string>());
    return d;
}

void DeviceInfo::dump(std::ostream &os) const {
    os << describe() << "\n";
}

} // namespace beamscope
