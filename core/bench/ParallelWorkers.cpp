// Contents: the device lock path, the default parallelism, and the worker pool.
#include "bench/ParallelWorkers.h"

#include "util/Hash.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

namespace beamscope {

namespace {} // namespace

std::string deviceLockPath(const DeviceInfo &device) {
    const char *dir = std::getenv("TMPDIR");
    const std::string identity = device.describe();
    const std::string hex = fnv1a64Hex(identity);
    return std::string(dir && *dir ? dir : "/tmp") + "/beamscope-device-" +
           std::to_string(getuid()) + "-" + hex + ".lock";
}

int defaultParallelJobs(const DeviceInfo &device) {
    if (device.kind == DeviceKind::OpenCL && device.openclType == "CPU") return 1;
    return std::max(1, int(std::thread::hardware_concurrency()));
}

std::vector<Measurement> runWorkersInParallel(const std::vector<BenchJob> &jobs,
                                              const ParallelOptions &options) {
    std::vector<Measurement> results(jobs.size());
    const int workers = std::max(1, std::min<int>(options.jobs, int(jobs.size())));
    std::atomic<size_t> next{0};
    std::mutex callbacks;
    auto work = [&] {
        for (size_t i = next++; i < jobs.size(); i = next++) {
            BenchJob job = jobs[i];
            if (options.worker.cancel && options.worker.cancel->load()) {
                results[i].label = job.label;
                results[i].failure = kCancelledFailure;
                continue;
            }
            if (workers > 1) job.timeoutS *= workers; // time spent waiting for the device lock
            {
                std::lock_guard<std::mutex> lock(callbacks);
                if (options.onStart) options.onStart(i);
            }
            results[i] = runWorker(job, options.worker);
            std::lock_guard<std::mutex> lock(callbacks);
            if (options.onDone) options.onDone(i, results[i]);
        }
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < workers; ++t)
        pool.emplace_back(work);
    work();
    for (std::thread &t : pool)
        t.join();
    return results;
}

} // namespace beamscope
