// LocalRunner: the measurement runner of this machine. Compiles candidates in parallel worker
// processes on every core and measures on every device identical to the detected one at once:
// each worker is pinned to a device when it starts (the one with the fewest jobs in flight) and
// holds that device's lock only around its timed runs, so a device never runs two measurements
// at a time, while the other workers compile.
#pragma once

#include "measure/DeviceList.h"
#include "measure/MeasurementRunner.h"

namespace beamscope {

class LocalRunner : public MeasurementRunner {
public:
    /// `jobs`: workers at once (0: every core, and at least one per device).
    LocalRunner(std::vector<DeviceSlot> devices, int jobs, WorkerOptions worker);
    std::string name() const override { return "local"; }
    std::string describe() const override;
    std::vector<Measurement> run(const std::vector<BenchJob> &jobs,
                                 const RunnerCallbacks &callbacks) override;
    const std::vector<DeviceSlot> &devices() const { return m_devices; }
    int workers() const { return m_jobs; }

private:
    std::vector<DeviceSlot> m_devices;
    int m_jobs;
    WorkerOptions m_worker;
};

} // namespace beamscope
