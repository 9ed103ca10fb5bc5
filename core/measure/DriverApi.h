// DriverApi: what the device code needs from drivers it opens with dlopen (the CUDA driver, the
// OpenCL ICD loader): a typed dlsym, and the OpenCL C entry points and constants Beamscope calls,
// declared with their documented signatures and values, so that no OpenCL header is needed.
#pragma once

#include <dlfcn.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace beamscope {

/// Opens the first library of `names` that loads (never closed: drivers keep threads and atexit
/// handlers); nullptr with `why` set ("NAME: not found", the first name) otherwise.
inline void *openFirstDriver(const std::vector<std::string> &names, std::string &why) {
    for (const std::string &name : names)
        if (void *handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL)) return handle;
    why = (names.empty() ? std::string("no library") : names.front()) + ": not found";
    return nullptr;
}

/// The entry point `name` of an opened driver as a function pointer of type F (null if absent).
template <typename F> F driverSymbol(void *handle, const char *name) {
    return reinterpret_cast<F>(dlsym(handle, name));
}

// --- OpenCL (the CL 1.2 API, as the ICD loader exports it) ----------------------------------
using ClGetPlatformIDs = int (*)(unsigned, void **, unsigned *);
using ClGetPlatformInfo = int (*)(void *, unsigned, size_t, void *, size_t *);
using ClGetDeviceIDs = int (*)(void *, uint64_t, unsigned, void **, unsigned *);
using ClGetDeviceInfo = int (*)(void *, unsigned, size_t, void *, size_t *);
using ClCreateContext = void *(*)(const intptr_t *, unsigned, void *const *, void *, void *, int *);
using ClCreateProgramWithSource = void *(*)(void *, unsigned, const char **, const size_t *, int *);
using ClBuildProgram = int (*)(void *, unsigned, void *const *, const char *, void *, void *);
using ClGetProgramBuildInfo = int (*)(void *, void *, unsigned, size_t, void *, size_t *);

inline constexpr uint64_t kClDeviceTypeCpu = 1 << 1;
inline constexpr uint64_t kClDeviceTypeGpu = 1 << 2;
inline constexpr uint64_t kClDeviceTypeAccelerator = 1 << 3;
inline constexpr uint64_t kClDeviceTypeAll = 0xFFFFFFFF;
inline constexpr unsigned kClPlatformName = 0x0902;
inline constexpr unsigned kClDeviceType = 0x1000;
inline constexpr unsigned kClDeviceMaxComputeUnits = 0x1002;
inline constexpr unsigned kClDeviceGlobalMemSize = 0x101F;
inline constexpr unsigned kClDeviceMaxConstantBufferSize = 0x1020;
inline constexpr unsigned kClDeviceMaxConstantArgs = 0x1021;
inline constexpr unsigned kClDeviceName = 0x102B;
inline constexpr unsigned kClDeviceVendor = 0x102C;
inline constexpr unsigned kClProgramBuildLog = 0x1183;

} // namespace beamscope
