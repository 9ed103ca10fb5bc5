// MeasurementRecord: one row of the measurement database — what was measured (pipeline,
// schedule, device), what the search expected of it (GPU model, cost model, predicted cost and
// terms), what the device said (a Measurement), and where it came from (bench, tune, GUI).
#pragma once

#include "measure/Measurement.h"
#include "store/Identity.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace beamscope {

struct MeasurementRecord {
    std::int64_t id = 0; ///< row id (0 before it is stored)
    PipelineIdentity pipeline;
    DeviceIdentity device;
    nlohmann::json schedule;  ///< scheduleToJson, null for a baseline
    std::string scheduleHash; ///< scheduleHash(schedule), or "baseline:<name>"
    std::string baseline;     ///< baseline name, "" for a search schedule
    nlohmann::json gpu;       ///< the GpuSpec JSON the search used (model of the device)
    std::string costModel;    ///< name of the model that predicted ("analytic", ...)
    double predicted = std::numeric_limits<double>::quiet_NaN(); ///< ms
    nlohmann::json predictedTerms;                               ///< {"term name": ms, ...} or null
    Measurement measurement;     ///< label, times, correctness, failure, registers, target...
    int repeats = 0;             ///< timed runs behind measurement.measuredMs
    std::string origin;          ///< "bench", "tune", "gui-bench", "gui-tune"
    std::string runId;           ///< a tune run's id, "" otherwise
    int round = -1;              ///< tune round, -1 otherwise
    std::int64_t createdAt = 0;  ///< unix seconds (set by MeasurementStore::add() when 0)
    std::vector<float> features; ///< cached schedule-level feature vector (may be empty)
    int featureSchema = 0;       ///< version of `features`; 0 = none cached

    /// True when the device ran it and it was correct with a measured time.
    bool successful() const;
    /// True when this build would lower `schedule` as the measured run did, so the measurement
    /// stands for it: measured with this build's unroll limit, or no tile of the schedule has
    /// 16 serial points or more (where the limits differ; RVars counted, to err on measuring
    /// again).
    bool loweredAsThisBuildWould() const;
    /// Every field; unknown numbers are null.
    nlohmann::json toJson() const;
    /// Reads what toJson writes; throws Error when a field has the wrong type.
    static MeasurementRecord fromJson(const nlohmann::json &json);
};

} // namespace beamscope
