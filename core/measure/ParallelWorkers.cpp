// Contents: the device lock path, the default parallelism, and the worker pool.
#include "measure/ParallelWorkers.h"

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
    std::vector<int> inFlight(options.devices.size(), 0); // guarded by `callbacks`
    const int devices = std::max<int>(1, int(options.devices.size()));
    // Workers that may wait for one device's lock at once (the timeout stretch below).
    const int sharing = (workers + devices - 1) / devices;
    auto work = [&] {
        for (size_t i = next++; i < jobs.size(); i = next++) {
            BenchJob job = jobs[i];
            if (options.worker.cancel && options.worker.cancel->load()) {
                results[i].label = job.label;
                results[i].failure = kCancelledFailure;
                continue;
            }
            if (sharing > 1) job.timeoutS *= sharing; // time spent waiting for the device lock
            WorkerOptions worker = options.worker;
            int device = -1;
            {
                std::lock_guard<std::mutex> lock(callbacks);
                if (!inFlight.empty()) {
                    device =
                        int(std::min_element(inFlight.begin(), inFlight.end()) - inFlight.begin());
                    ++inFlight[size_t(device)];
                    const DeviceSlot &slot = options.devices[size_t(device)];
                    job.deviceLock = slot.lockPath;
                    worker.environment.insert(worker.environment.end(), slot.environment.begin(),
                                              slot.environment.end());
                }
                if (options.onStart) options.onStart(i, device);
            }
            results[i] = runWorker(job, worker);
            std::lock_guard<std::mutex> lock(callbacks);
            if (device >= 0) --inFlight[size_t(device)];
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
