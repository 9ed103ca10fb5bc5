// DeviceDetect: the fallback chain CUDA -> OpenCL -> none, with drivers opened at run time.
#include "measure/DeviceDetect.h"
#include "util/Error.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace beamscope;

TEST(BenchDeviceDetect, FallsBackToOpenClWhenThereIsNoCudaDriver) {
    const DeviceInfo cuda = detectCudaDevice();
    if (cuda.kind == DeviceKind::Cuda)
        GTEST_SKIP() << "a CUDA device is present: " << cuda.describe();
    ASSERT_FALSE(cuda.notes.empty());

    const DeviceInfo device = detectDevice(DevicePreference::Auto);
    ASSERT_NE(device.kind, DeviceKind::None)
        << "no OpenCL device (PoCL is part of the test machine's set-up): " << device.describe();
    EXPECT_EQ(device.kind, DeviceKind::OpenCL);
    EXPECT_FALSE(device.name.empty());
    EXPECT_GT(device.computeUnits, 0);
    EXPECT_EQ(device.halideTarget(), "host-opencl");
    // The reason CUDA was skipped travels with the result.
    EXPECT_NE(device.describe().find("CUDA:"), std::string::npos) << device.describe();
    EXPECT_EQ(device.describe().rfind("OpenCL ", 0), 0u) << device.describe();
    EXPECT_EQ(device.toJson()["kind"], "opencl");
}

TEST(BenchDeviceDetect, PoclIsFoundAsACpuDevice) {
    const DeviceInfo opencl = detectOpenClDevice();
    ASSERT_EQ(opencl.kind, DeviceKind::OpenCL)
        << "no OpenCL device (PoCL is part of the test machine's set-up): " << opencl.describe();
    if (opencl.platform.find("Portable Computing Language") == std::string::npos)
        GTEST_SKIP() << "not PoCL: " << opencl.describe();
    EXPECT_EQ(opencl.openclType, "CPU");
}

TEST(BenchDeviceDetect, MissingLibrariesMeanCompileOnly) {
    DetectOptions missing;
    missing.cudaLibraries = {"libcuda-does-not-exist.so.1"};
    missing.openclLibraries = {"libOpenCL-does-not-exist.so.1"};
    const DeviceInfo device = detectDevice(DevicePreference::Auto, missing);
    EXPECT_EQ(device.kind, DeviceKind::None);
    EXPECT_EQ(device.halideTarget(), "");
    ASSERT_EQ(device.notes.size(), 2u);
    EXPECT_EQ(device.describe(),
              "none (compile only); CUDA: libcuda-does-not-exist.so.1: not found, "
              "OpenCL: libOpenCL-does-not-exist.so.1: not found");
    // Asking for CUDA only never falls back to OpenCL.
    EXPECT_EQ(detectDevice(DevicePreference::Cuda, missing).kind, DeviceKind::None);
    EXPECT_EQ(detectDevice(DevicePreference::None).kind, DeviceKind::None);
}

TEST(BenchDeviceDetect, CudaCapabilitiesMapToHalideTargets) {
    EXPECT_EQ(halideCudaCapability(90), 86);
    EXPECT_EQ(halideCudaCapability(86), 86);
    EXPECT_EQ(halideCudaCapability(72), 70);
    EXPECT_EQ(halideCudaCapability(70), 70);
    EXPECT_EQ(halideCudaCapability(10), 30);
    DeviceInfo h100;
    h100.kind = DeviceKind::Cuda;
    h100.name = "NVIDIA H100";
    h100.computeCapability = 90;
    h100.computeUnits = 132;
    EXPECT_EQ(h100.halideTarget(), "host-cuda-cuda_capability_86");
    EXPECT_EQ(h100.describe(), "CUDA: NVIDIA H100 (sm_90, 132 SMs)");
}

TEST(BenchDeviceDetect, ParsesPreferences) {
    EXPECT_EQ(parseDevicePreference("auto"), DevicePreference::Auto);
    EXPECT_EQ(parseDevicePreference("opencl"), DevicePreference::OpenCL);
    EXPECT_THROW(parseDevicePreference("metal"), UsageError);
}
