// BenchRecorder: what a benchmark run (CLI bench, the GUI's Benchmark dock, tune rounds) does
// with the measurement database — build a MeasurementRecord for each row that ran on the
// device, add it, and look up a stored measurement of the same (pipeline, schedule, device) to
// reuse instead of running again. A store error is reported once (one line) and recording
// stops for the run; the benchmark itself goes on.
#pragma once

#include "measure/Measurement.h"
#include "schedule/GpuSpec.h"
#include "store/MeasurementStore.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>

namespace beamscope {

/// What every record of one run shares.
struct RecordContext {
    PipelineIdentity pipeline;
    DeviceIdentity device;
    nlohmann::json gpu;                 ///< GpuSpec::toJson of the model the search used
    std::string costModel = "analytic"; ///< the model behind `predicted`
    int repeats = 0;                    ///< timed runs per measurement
    std::string origin = "bench";
    std::string runId;
    int round = -1;
};

/// The record of `m` measured in `context`: a search schedule (`schedule` set, `baseline`
/// empty) or a baseline (`schedule` null, scheduleHash "baseline:<name>").
MeasurementRecord makeRecord(const RecordContext &context, const Measurement &m,
                             const nlohmann::json &schedule, const nlohmann::json &predictedTerms,
                             const std::string &baseline = "");

/// "measurement database PATH: reason" -> "PATH: reason" (for lines that name the database).
std::string storeErrorReason(const std::string &message);

class BenchRecorder {
public:
    /// `store` may be null (nothing recorded or reused); `say` gets the one-line error.
    BenchRecorder(MeasurementStore *store, RecordContext context,
                  std::function<void(const std::string &)> say);
    /// True while there is a store and no error stopped recording.
    bool active() const { return m_store != nullptr; }
    /// The stored measurement of `schedule` on this device that ran (measured or failed),
    /// marked reused; nullopt when there is none (or the store is inactive).
    std::optional<Measurement> reusable(const nlohmann::json &schedule);
    /// Adds the record of `m` (see makeRecord); returns its id, 0 when nothing was stored.
    std::int64_t record(const Measurement &m, const nlohmann::json &schedule,
                        const nlohmann::json &predictedTerms, const std::string &baseline = "");
    /// Rows stored so far.
    int recorded() const { return m_recorded; }
    const RecordContext &context() const { return m_context; }

private:
    void stop(const StoreError &error);

    MeasurementStore *m_store;
    RecordContext m_context;
    std::function<void(const std::string &)> m_say;
    int m_recorded = 0;
};

} // namespace beamscope
