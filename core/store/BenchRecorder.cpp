// Records and reuse for benchmark runs: building records and the once-only error report that
// stops recording.
#include "store/BenchRecorder.h"

namespace beamscope {

MeasurementRecord makeRecord(const RecordContext &context, const Measurement &m,
                             const nlohmann::json &schedule, const nlohmann::json &predictedTerms,
                             const std::string &baseline) {
    MeasurementRecord r;
    r.pipeline = context.pipeline;
    r.device = context.device;
    r.baseline = baseline;
    r.schedule = baseline.empty() ? schedule : nlohmann::json();
    r.scheduleHash = baseline.empty() ? scheduleHash(schedule) : "baseline:" + baseline;
    r.gpu = context.gpu;
    r.costModel = baseline.empty() ? context.costModel : "";
    r.predicted = baseline.empty() ? m.predicted : Measurement::kUnknown;
    r.predictedTerms = baseline.empty() ? predictedTerms : nlohmann::json();
    r.measurement = m;
    r.measurement.reused = false;
    r.repeats = m.measuredMs ? context.repeats : 0;
    r.origin = context.origin;
    r.runId = context.runId;
    r.round = context.round;
    return r;
}

std::string storeErrorReason(const std::string &message) {
    const std::string prefix = "measurement database ";
    return message.rfind(prefix, 0) == 0 ? message.substr(prefix.size()) : message;
}

BenchRecorder::BenchRecorder(MeasurementStore *store, RecordContext context,
                             std::function<void(const std::string &)> say)
    : m_store(store), m_context(std::move(context)), m_say(std::move(say)) {}

std::optional<Measurement> BenchRecorder::reusable(const nlohmann::json &schedule) {
    if (!m_store) return std::nullopt;
    try {
        std::optional<MeasurementRecord> found = m_store->findReusable(
            m_context.pipeline.key(), scheduleHash(schedule), m_context.device.key());
        if (!found || (!found->measurement.measuredMs && !found->measurement.failed()))
            return std::nullopt;
        Measurement m = found->measurement;
        m.reused = true;
        return m;
    } catch (const StoreError &e) {
        stop(e);
        return std::nullopt;
    }
}

std::int64_t BenchRecorder::record(const Measurement &m, const nlohmann::json &schedule,
                                   const nlohmann::json &predictedTerms,
                                   const std::string &baseline) {
    if (!m_store) return 0;
    try {
        const std::int64_t id =
            m_store->add(makeRecord(m_context, m, schedule, predictedTerms, baseline));
        ++m_recorded;
        return id;
    } catch (const StoreError &e) {
        stop(e);
        return 0;
    }
}

void BenchRecorder::stop(const StoreError &error) {
    m_store = nullptr;
    if (m_say) {
        m_say("measurement database: " + storeErrorReason(error.what()) +
              "; measurements are no longer recorded in this run");
    }
}

} // namespace beamscope
