// MeasurementRecord as JSON (for `db` output, tests and exchange) and its success predicate.
#include "store/MeasurementRecord.h"

#include "util/Error.h"
#include "util/JsonNumber.h"

#include <cmath>

namespace beamscope {

bool MeasurementRecord::successful() const {
    return !measurement.failed() && measurement.measuredMs && measurement.correct.value_or(false);
}

bool MeasurementRecord::loweredAsThisBuildWould() const {
    if (measurement.maxUnrolledPoints == kMaxUnrolledPoints || !schedule.is_array()) return true;
    for (const auto &func : schedule) {
        if (!func.is_object() || !func.contains("stages") || !func["stages"].is_array()) continue;
        for (const auto &stage : func["stages"]) {
            if (!stage.is_object() || !stage.contains("serial") || !stage["serial"].is_array())
                continue;
            double points = 1;
            for (const auto &size : stage["serial"])
                points *= size.is_number() ? size.get<double>() : 1.0;
            if (points > double(kLegacyMaxUnrolledPoints)) return false;
        }
    }
    return true;
}

nlohmann::json MeasurementRecord::toJson() const {
    nlohmann::json j;
    j["id"] = id;
    j["pipeline"] = {{"app", pipeline.app},       {"generator_library", pipeline.generatorLibrary},
                     {"params", pipeline.params}, {"estimates", pipeline.estimates},
                     {"inputs", pipeline.inputs}, {"dag_hash", pipeline.dagHash},
                     {"key", pipeline.key()}};
    j["device"] = {{"kind", device.kind},
                   {"name", device.name},
                   {"platform", device.platform},
                   {"driver", device.driver},
                   {"halide_version", device.halideVersion},
                   {"key", device.key()}};
    j["schedule"] = schedule;
    j["schedule_hash"] = scheduleHash;
    j["baseline"] = baseline;
    j["gpu"] = gpu;
    j["cost_model"] = costModel;
    j["predicted"] = jsonNumber(predicted);
    j["predicted_terms"] = predictedTerms;
    j["measurement"] = measurement.toJson();
    j["repeats"] = repeats;
    j["origin"] = origin;
    j["run_id"] = runId;
    j["round"] = round;
    j["created_at"] = createdAt;
    j["features"] = features;
    j["feature_schema"] = featureSchema;
    return j;
}

MeasurementRecord MeasurementRecord::fromJson(const nlohmann::json &j) {
    if (!j.is_object()) throw Error("measurement record: not a JSON object");
    try {
        MeasurementRecord r;
        r.id = j.value("id", std::int64_t(0));
        const nlohmann::json p = j.value("pipeline", nlohmann::json::object());
        r.pipeline.app = p.value("app", std::string());
        r.pipeline.generatorLibrary = p.value("generator_library", std::string());
        r.pipeline.params = p.value("params", std::vector<std::string>());
        r.pipeline.estimates = p.value("estimates", std::vector<std::string>());
        r.pipeline.inputs = p.value("inputs", std::vector<std::string>());
        r.pipeline.dagHash = p.value("dag_hash", std::string());
        const nlohmann::json d = j.value("device", nlohmann::json::object());
        r.device.kind = d.value("kind", std::string());
        r.device.name = d.value("name", std::string());
        r.device.platform = d.value("platform", std::string());
        r.device.driver = d.value("driver", std::string());
        r.device.halideVersion = d.value("halide_version", std::string());
        r.schedule = j.value("schedule", nlohmann::json());
        r.scheduleHash = j.value("schedule_hash", std::string());
        r.baseline = j.value("baseline", std::string());
        r.gpu = j.value("gpu", nlohmann::json());
        r.costModel = j.value("cost_model", std::string());
        if (auto it = j.find("predicted"); it != j.end() && it->is_number())
            r.predicted = it->get<double>();
        r.predictedTerms = j.value("predicted_terms", nlohmann::json());
        r.measurement = Measurement::fromJson(j.value("measurement", nlohmann::json()));
        r.repeats = jsonIntegerOr(j, "repeats", 0);
        r.origin = j.value("origin", std::string());
        r.runId = j.value("run_id", std::string());
        r.round = jsonIntegerOr(j, "round", -1);
        r.createdAt = jsonIntegerOr(j, "created_at", std::int64_t(0));
        r.features = j.value("features", std::vector<float>());
        r.featureSchema = jsonIntegerOr(j, "feature_schema", 0);
        return r;
    } catch (const nlohmann::json::exception &e) {
        throw Error(std::string("measurement record: ") + e.what());
    }
}

} // namespace beamscope
