// buildOpenClProgram: the OpenCL C entry points it needs (declared in DriverApi.h, no OpenCL
// headers), then context, program from source, build, and the build log on failure.
#include "measure/OpenClBuild.h"

#include "measure/DriverApi.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <vector>

namespace beamscope {

namespace {

std::string firstNonBlankLine(const std::string &text) {
    size_t start = text.find_first_not_of(" \t\r\n");
    if (start == std::string::npos) return "";
    const size_t end = text.find('\n', start);
    return text.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

} // namespace

OpenClBuildResult buildOpenClProgram(const std::string &source) {
    OpenClBuildResult result;
    void *lib = openFirstDriver({"libOpenCL.so.1", "libOpenCL.so"}, result.error);
    if (!lib) return result;
    auto platforms = driverSymbol<ClGetPlatformIDs>(lib, "clGetPlatformIDs");
    auto devices = driverSymbol<ClGetDeviceIDs>(lib, "clGetDeviceIDs");
    auto deviceInfo = driverSymbol<ClGetDeviceInfo>(lib, "clGetDeviceInfo");
    auto createContext = driverSymbol<ClCreateContext>(lib, "clCreateContext");
    auto createProgram = driverSymbol<ClCreateProgramWithSource>(lib, "clCreateProgramWithSource");
    auto build = driverSymbol<ClBuildProgram>(lib, "clBuildProgram");
    auto buildInfo = driverSymbol<ClGetProgramBuildInfo>(lib, "clGetProgramBuildInfo");
    if (!platforms || !devices || !deviceInfo || !createContext || !createProgram || !build ||
        !buildInfo) {
        result.error = "the OpenCL library lacks the OpenCL API";
        return result;
    }
    std::array<void *, 16> ids{};
    unsigned found = 0;
    if (platforms(unsigned(ids.size()), ids.data(), &found) != 0 || found == 0) {
        result.error = "no OpenCL platform";
        return result;
    }
    void *device = nullptr;
    for (uint64_t wanted : {kClDeviceTypeGpu, kClDeviceTypeAll}) {
        for (unsigned p = 0; p < std::min<unsigned>(found, ids.size()) && !device; ++p) {
            unsigned n = 0;
            if (devices(ids[p], wanted, 1, &device, &n) != 0 || n == 0) device = nullptr;
        }
    }
    if (!device) {
        result.error = "no OpenCL device";
        return result;
    }
    std::array<char, 256> name{};
    deviceInfo(device, kClDeviceName, name.size() - 1, name.data(), nullptr);
    result.device = name.data();
    uint64_t constantBytes = 0;
    unsigned constantArgs = 0;
    deviceInfo(device, kClDeviceMaxConstantBufferSize, sizeof constantBytes, &constantBytes,
               nullptr);
    deviceInfo(device, kClDeviceMaxConstantArgs, sizeof constantArgs, &constantArgs, nullptr);
    std::string options = "-D MAX_CONSTANT_BUFFER_SIZE=" + std::to_string(constantBytes) +
                          " -D MAX_CONSTANT_ARGS=" + std::to_string(constantArgs);
    if (const char *extra = std::getenv("HL_OCL_BUILD_OPTIONS"))
        options += std::string(" ") + extra;

    int status = 0;
    void *context = createContext(nullptr, 1, &device, nullptr, nullptr, &status);
    if (!context || status != 0) {
        result.error = "clCreateContext failed (" + std::to_string(status) + ")";
        return result;
    }
    const char *text = source.c_str();
    const size_t length = source.size();
    void *program = createProgram(context, 1, &text, &length, &status);
    if (!program || status != 0) {
        result.error = "clCreateProgramWithSource failed (" + std::to_string(status) + ")";
        return result;
    }
    status = build(program, 1, &device, options.c_str(), nullptr, nullptr);
    if (status != 0) {
        size_t size = 0;
        buildInfo(program, device, kClProgramBuildLog, 0, nullptr, &size);
        std::vector<char> log(size + 1, '\0');
        if (size > 0) buildInfo(program, device, kClProgramBuildLog, size, log.data(), nullptr);
        result.error = "clBuildProgram failed (" + std::to_string(status) + ")";
        const std::string first = firstNonBlankLine(log.data());
        if (!first.empty()) result.error += ": " + first;
        return result;
    }
    result.built = true;
    return result; // context and program die with the process (it builds one program, then exits)
}

} // namespace beamscope
