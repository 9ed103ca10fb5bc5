// Loading and timing Halide's autoscheduler plugins.
#include "search/UpstreamAutoscheduler.h"

#include "util/Error.h"

#include <chrono>
#include <dlfcn.h>
#include <filesystem>
#include <mutex>
#include <set>

namespace beamscope {

std::string autoschedulerPluginPath(const std::string &name) {
    Dl_info info{};
    // Any symbol of libHalide locates the library, and the plugins lie beside it.
    if (!dladdr(reinterpret_cast<void *>(&Halide::load_plugin), &info) || !info.dli_fname) {
        throw Error("cannot locate libHalide to find the autoscheduler plugins");
    }
    std::string lower;
    for (char c : name) lower += char(std::tolower(static_cast<unsigned char>(c)));
    return (std::filesystem::path(info.dli_fname).parent_path() / ("libautoschedule_" + lower + ".so")).string();
}

AutoschedulerRun runAutoscheduler(const PipelineInstance &instance, const std::string &name,
                                  const Halide::Target &target,
                                  const std::map<std::string, std::string> &params) {
    static std::mutex mutex;
    static std::set<std::string> loaded;
    AutoschedulerRun run;
    try {
        {
            std::lock_guard<std::mutex> lock(mutex);
            if (!loaded.count(name)) {
                const std::string path = autoschedulerPluginPath(name);
                if (!std::filesystem::exists(path)) throw Error("no plugin " + path);
                Halide::load_plugin(path);
                loaded.insert(name);
            }
        }
        Halide::AutoschedulerParams asParams(name, params);
        const auto start = std::chrono::steady_clock::now();
        Halide::AutoSchedulerResults results = instance.pipeline.apply_autoscheduler(target, asParams);
        run.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        run.scheduleSource = results.schedule_source;
    } catch (const Halide::Error &e) {
        run.error = detail::firstLine(e.what());
    } catch (const std::exception &e) {
        run.error = detail::firstLine(e.what());
    }
    return run;
}

AutoschedulerRun runAnderson2021(const PipelineInstance &instance, const GpuSpec &gpu, int beamSize) {
    const int capability = gpu.computeCapability > 0 ? gpu.computeCapability : 70;
    std::string targetName = "host-cuda-cuda_capability_" + std::to_string(std::min(capability, 86));
    const std::map<std::string, std::string> params = {
        {"parallelism", std::to_string(gpu.smCount)},
        {"beam_size", std::to_string(beamSize)},
        {"shared_memory_limit_kb", std::to_string(gpu.sharedMemoryPerBlockBytes / 1024)},
        {"shared_memory_sm_limit_kb", std::to_string(gpu.sharedMemoryPerSmBytes / 1024)},
        {"active_block_limit", std::to_string(gpu.maxBlocksPerSm)},
        {"active_warp_limit", std::to_string(gpu.maxWarpsPerSm)},
    };
    return runAutoscheduler(instance, "Anderson2021", Halide::Target(targetName), params);
}

} // namespace beamscope
