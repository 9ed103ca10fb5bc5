// LocalRunner: runWorkersInParallel over the device slots, with per-device progress.
#include "measure/LocalRunner.h"

#include "measure/ParallelWorkers.h"

#include <algorithm>
#include <thread>

namespace beamscope {

LocalRunner::LocalRunner(std::vector<DeviceSlot> devices, int jobs, WorkerOptions worker)
    : m_devices(std::move(devices)), m_jobs(jobs), m_worker(std::move(worker)) {
    if (m_jobs <= 0) {
        const int cores = std::max(1, int(std::thread::hardware_concurrency()));
        // A CPU device (PoCL) measures on the cores themselves: one worker per device then.
        const bool cpuDevice = !m_devices.empty() &&
                               m_devices.front().info.kind == DeviceKind::OpenCL &&
                               m_devices.front().info.openclType == "CPU";
        m_jobs = cpuDevice ? 1 : cores;
    }
    m_jobs = std::max<int>(m_jobs, int(m_devices.size()));
}

std::string LocalRunner::describe() const {
    std::string text =
        std::to_string(m_devices.size()) + (m_devices.size() == 1 ? " device" : " devices") + " (";
    for (size_t i = 0; i < m_devices.size(); ++i)
        text += (i ? ", " : "") + m_devices[i].label;
    return text + "), " + std::to_string(m_jobs) + " workers at once";
}

std::vector<Measurement> LocalRunner::run(const std::vector<BenchJob> &jobs,
                                          const RunnerCallbacks &callbacks) {
    RunnerProgress progress;
    for (const DeviceSlot &slot : m_devices)
        progress.at(slot.label);
    progress.at("(queue)").pending = int(jobs.size());
    std::vector<int> placed(jobs.size(), -1);
    auto nodeOf = [&](size_t i) -> NodeProgress & {
        return placed[i] >= 0 ? progress.at(m_devices[size_t(placed[i])].label)
                              : progress.at("(queue)");
    };
    ParallelOptions parallel;
    parallel.jobs = m_jobs;
    parallel.worker = m_worker;
    parallel.devices = m_devices;
    parallel.onStart = [&](size_t i, int device) {
        --progress.at("(queue)").pending;
        placed[i] = device;
        ++nodeOf(i).running;
        if (callbacks.onStart) callbacks.onStart(i);
        if (callbacks.onProgress) callbacks.onProgress(progress);
    };
    parallel.onDone = [&](size_t i, const Measurement &m) {
        NodeProgress &node = nodeOf(i);
        --node.running;
        ++node.done;
        if (callbacks.onDone) callbacks.onDone(i, m);
        if (callbacks.onProgress) callbacks.onProgress(progress);
    };
    std::vector<Measurement> results = runWorkersInParallel(jobs, parallel);
    return results;
}

} // namespace beamscope
