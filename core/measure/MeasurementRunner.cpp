// MeasurementRunner: progress arithmetic and printing, runner kinds, and the runner factory.
#include "measure/MeasurementRunner.h"

#include "measure/DeviceList.h"
#include "measure/LocalRunner.h"
#include "measure/slurm/SlurmRunner.h"
#include "util/Error.h"

namespace beamscope {

int RunnerProgress::pending() const {
    int n = 0;
    for (const NodeProgress &node : nodes)
        n += node.pending;
    return n;
}

int RunnerProgress::running() const {
    int n = 0;
    for (const NodeProgress &node : nodes)
        n += node.running;
    return n;
}

int RunnerProgress::done() const {
    int n = 0;
    for (const NodeProgress &node : nodes)
        n += node.done;
    return n;
}

std::string RunnerProgress::line() const {
    std::string text = std::to_string(pending()) + " pending, " + std::to_string(running()) +
                       " running, " + std::to_string(done()) + " done";
    std::string perNode;
    for (const NodeProgress &node : nodes) {
        if (node.pending + node.running + node.done == 0) continue;
        perNode += (perNode.empty() ? "" : ", ") + node.node + " " + std::to_string(node.pending) +
                   "/" + std::to_string(node.running) + "/" + std::to_string(node.done);
    }
    return perNode.empty() ? text : text + " — " + perNode;
}

NodeProgress &RunnerProgress::at(const std::string &node) {
    for (NodeProgress &entry : nodes)
        if (entry.node == node) return entry;
    nodes.push_back(NodeProgress{node, 0, 0, 0});
    return nodes.back();
}

RunnerKind parseRunnerKind(const std::string &text) {
    if (text == "local") return RunnerKind::Local;
    if (text == "slurm") return RunnerKind::Slurm;
    throw UsageError("unknown runner '" + text + "' (local or slurm)");
}

const char *runnerKindName(RunnerKind kind) {
    return kind == RunnerKind::Slurm ? "slurm" : "local";
}

std::unique_ptr<MeasurementRunner> makeRunner(const RunnerOptions &options,
                                              const DeviceInfo &device) {
    if (options.kind == RunnerKind::Slurm)
        return std::make_unique<SlurmRunner>(options.slurm, options.worker, options.jobs);
    return std::make_unique<LocalRunner>(listDevices(device), options.jobs, options.worker);
}

} // namespace beamscope
