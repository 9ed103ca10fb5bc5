// CollectReport: rates, JSON and the throughput line.
#include "collect/Collector.h"

#include <cstdio>

namespace beamscope {

double CollectReport::rowsPerMinute() const {
    return elapsedS > 0 ? rows * 60.0 / elapsedS : 0;
}

double CollectReport::correctPerMinute() const {
    return elapsedS > 0 ? correct * 60.0 / elapsedS : 0;
}

nlohmann::json CollectReport::toJson() const {
    return {{"device", device.toJson()},
            {"gpu", gpu},
            {"jobs", jobs},
            {"cores", cores},
            {"pipelines_started", pipelinesStarted},
            {"pipelines_failed", pipelinesFailed},
            {"rows", rows},
            {"correct", correct},
            {"failed", failed},
            {"skipped", skipped},
            {"killed", killed},
            {"record_errors", recordErrors},
            {"elapsed_s", elapsedS},
            {"minutes", minutes},
            {"stop", stop},
            {"rows_per_minute", rowsPerMinute()},
            {"correct_per_minute", correctPerMinute()},
            {"correct_per_minute_per_core", cores > 0 ? correctPerMinute() / cores : 0.0},
            {"errors", errors},
            {"time",
             {{"planners", planners},
              {"devices", devices},
              {"planning_s", planS},
              {"compiling_s", compileS},
              {"device_setup_s", deviceSetupS},
              {"device_wait_s", deviceWaitS},
              {"device_held_s", deviceS},
              {"device_busy", deviceBusy()}}}};
}

double CollectReport::deviceBusy() const {
    return elapsedS > 0 && devices > 0 ? deviceS / (elapsedS * devices) : 0;
}

std::string CollectReport::timeLine() const {
    char line[512];
    std::snprintf(line, sizeof line,
                  "collect: time: planning %.1f s (%d planner%s), compiling %.1f s, device setup "
                  "%.1f s, waiting for a device %.1f s; devices held %.1f s, %.0f%% of %d %s time",
                  planS, planners, planners == 1 ? "" : "s", compileS, deviceSetupS, deviceWaitS,
                  deviceS, 100.0 * deviceBusy(), devices, devices == 1 ? "device's" : "devices'");
    return line;
}

std::string CollectReport::throughputLine() const {
    const char *why = stop == "done"       ? "every pipeline measured"
                      : stop == "deadline" ? "stopped at the deadline"
                                           : "interrupted";
    char line[512];
    std::snprintf(line, sizeof line,
                  "collect: %d rows (%d correct, %d failed, %d skipped) in %.1f s on %d cores: "
                  "%.1f rows/min, %.1f correct/min, %.2f correct/min per core; %s",
                  rows, correct, failed, skipped, elapsedS, cores, rowsPerMinute(),
                  correctPerMinute(), cores > 0 ? correctPerMinute() / cores : 0.0, why);
    return line;
}

} // namespace beamscope
