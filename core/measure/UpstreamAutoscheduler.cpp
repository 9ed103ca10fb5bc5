// Loading and timing Halide's autoscheduler plugins.
#include "measure/UpstreamAutoscheduler.h"

#include "util/Error.h"
#include "util/HalideInstall.h"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <set>

namespace beamscope {

void loadAutoschedulerPlugin(const std::string &name) {
    static std::mutex mutex;
    static std::set<std::string> loaded;
    std::lock_guard<std::mutex> lock(mutex);
    if (loaded.count(name)) return;
    const std::string path = autoschedulerPluginPath(name).string();
    wrapHalideErrors("loading " + path, [&] { Halide::load_plugin(path); });
    loaded.insert(name);
}

AutoschedulerRun runAutoscheduler(const PipelineInstance &instance,
                                  const Halide::AutoschedulerParams &params,
                                  const Halide::Target &target) {
    AutoschedulerRun run;
    try {
        loadAutoschedulerPlugin(params.name);
        const auto start = std::chrono::steady_clock::now();
        Halide::AutoSchedulerResults results =
            instance.pipeline.apply_autoscheduler(target, params);
        run.milliseconds =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count();
        run.scheduleSource = results.schedule_source;
    } catch (const Halide::Error &e) {
        run.error = detail::firstLine(e.what());
    } catch (const std::exception &e) {
        run.error = detail::firstLine(e.what());
    }
    return run;
}

Halide::AutoschedulerParams anderson2021Params(const GpuSpec &gpu, int beamSize,
                                               const std::map<std::string, std::string> &extra) {
    Halide::AutoschedulerParams params{
        "Anderson2021",
        {{"parallelism", std::to_string(std::max(1, gpu.smCount))},
         {"beam_size", std::to_string(beamSize)},
         {"random_dropout_seed", "1"},
         {"shared_memory_limit_kb", std::to_string(gpu.sharedMemoryPerBlockBytes / 1024)},
         {"shared_memory_sm_limit_kb", std::to_string(gpu.sharedMemoryPerSmBytes / 1024)},
         {"active_block_limit", std::to_string(gpu.maxBlocksPerSm)},
         {"active_warp_limit", std::to_string(gpu.maxWarpsPerSm)}}};
    for (const auto &[key, value] : extra)
        params.extra[key] = value;
    return params;
}

std::map<std::string, std::string> anderson2021PaperParams() {
    return {{"randomize_tilings", "1"}, {"freeze_inline_compute_root", "1"}};
}

AutoschedulerRun runAnderson2021(const PipelineInstance &instance, const GpuSpec &gpu, int beamSize,
                                 const std::map<std::string, std::string> &extra) {
    const int capability = gpu.computeCapability > 0 ? gpu.computeCapability : 70;
    const Halide::Target target("host-cuda-cuda_capability_" +
                                std::to_string(std::min(capability, 86)));
    return runAutoscheduler(instance, anderson2021Params(gpu, beamSize, extra), target);
}

} // namespace beamscope
