// DeviceDetect: which device benchmarks can run on. A CUDA device through the driver loaded at
// run time (dlopen libcuda.so.1; never linked), else an OpenCL device (dlopen libOpenCL.so.1;
// the first GPU, else the first device of any type), else none: compile-only.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace beamscope {

/// The API a detected device is driven through; None means compile-only.
enum class DeviceKind { Cuda, OpenCL, None };

/// "cuda", "opencl", "none".
const char *deviceKindName(DeviceKind kind);

/// What detection found, with the reasons the preferred APIs were not used.
struct DeviceInfo {
    DeviceKind kind = DeviceKind::None;
    std::string name;               ///< device name as the driver reports it
    std::string vendor;             ///< OpenCL vendor ("NVIDIA" for CUDA)
    std::string platform;           ///< OpenCL platform name, or "CUDA driver <version>"
    std::string openclType;         ///< "GPU", "CPU", "ACCELERATOR" or "OTHER" (OpenCL only)
    int computeCapability = 0;      ///< CUDA: 10 x major + minor; 0 otherwise
    int computeUnits = 0;           ///< SMs (CUDA) or compute units (OpenCL)
    std::int64_t memoryBytes = 0;   ///< global memory, bytes
    std::vector<std::string> notes; ///< why CUDA / OpenCL were skipped ("libcuda.so.1: not found")

    /// One line: "CUDA: NVIDIA H100 (sm_90, 132 SMs)", "OpenCL CPU: pthread-... (Portable
    /// Computing Language, 2 compute units)" or "none (compile only)", then "; notes".
    std::string describe() const;
    /// The Halide target that runs on this device: host-cuda-cuda_capability_NN (the highest
    /// capability Halide knows that the device supports), host-opencl; "" for None.
    std::string halideTarget() const;
    nlohmann::json toJson() const;
    /// Reads what toJson writes (a recorded device, e.g. in a session); missing keys keep
    /// their defaults, an unknown kind reads as None.
    static DeviceInfo fromJson(const nlohmann::json &json);
    void dump(std::ostream &os) const;
};

/// Which APIs detection may pick.
enum class DevicePreference { Auto, Cuda, OpenCL, None };

/// Parses "auto", "cuda", "opencl", "none"; throws UsageError otherwise.
DevicePreference parseDevicePreference(const std::string &text);

/// Library names, overridable so tests can simulate a missing driver.
struct DetectOptions {
    std::vector<std::string> cudaLibraries{"libcuda.so.1", "libcuda.so"};
    std::vector<std::string> openclLibraries{"libOpenCL.so.1", "libOpenCL.so"};
};

/// Probes the CUDA driver only; kind None (with a note) when there is no usable device.
DeviceInfo detectCudaDevice(const DetectOptions &options = {});
/// Probes OpenCL only; kind None (with a note) when there is no device.
DeviceInfo detectOpenClDevice(const DetectOptions &options = {});
/// Auto: CUDA, else OpenCL, else None (notes say why). Cuda / OpenCL: only that API (None with
/// a note when absent). None: no probing. Never throws; a driver error is a note.
DeviceInfo detectDevice(DevicePreference preference = DevicePreference::Auto,
                        const DetectOptions &options = {});

/// The highest CUDA capability Halide 21 has a target feature for that is <= `cc` (30..86).
int halideCudaCapability(int cc);

} // namespace beamscope
