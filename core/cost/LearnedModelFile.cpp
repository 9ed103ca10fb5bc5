// LearnedCostModel's file: one JSON document {"format", "version", "feature_schema",
// "structure", "metadata", "booster"} where "booster" is XGBoost's own JSON model and
// "structure" is "schedule" or "kernels" (absent in files written before per-kernel models:
// "schedule"). Written atomically;
// read with one-line errors for unreadable, corrupt or incompatible files.
#include "cost/LearnedCostModel.h"

#include "util/AtomicFile.h"
#include "util/Error.h"
#include "util/JsonNumber.h"

#include <xgboost/c_api.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <unistd.h>

namespace beamscope {

namespace {

std::string xgboostMessage() {
    std::string message = XGBGetLastError();
    return message.substr(0, message.find('\n'));
}

nlohmann::json metadataToJson(const ModelMetadata &m) {
    return {{"device", m.device},
            {"gpu", m.gpu},
            {"training_rows", m.trainingRows},
            {"training_groups", m.trainingGroups},
            {"created_with", m.createdWith},
            {"trained_on", m.trainedOn},
            {"extra", m.extra.is_null() ? nlohmann::json::object() : m.extra}};
}

ModelMetadata metadataFromJson(const nlohmann::json &j, int featureSchema) {
    ModelMetadata m;
    m.device = j.value("device", "");
    m.gpu = j.value("gpu", "");
    m.featureSchema = featureSchema;
    m.trainingRows = jsonIntegerOr(j, "training_rows", 0);
    m.trainingGroups = jsonIntegerOr(j, "training_groups", 0);
    m.createdWith = j.value("created_with", "");
    m.trainedOn = j.value("trained_on", std::vector<std::string>());
    m.extra = j.value("extra", nlohmann::json::object());
    return m;
}

} // namespace

void LearnedCostModel::save(const std::string &path) const {
    bst_ulong length = 0;
    const char *buffer = nullptr;
    if (XGBoosterSaveModelToBuffer(m_booster, R"({"format": "json"})", &length, &buffer) != 0)
        throw Error("cannot save the cost model: " + xgboostMessage());
    nlohmann::json doc = {
        {"format", kFormat},
        {"version", kVersion},
        {"feature_schema", m_meta.featureSchema},
        {"structure", m_structure == ModelStructure::Kernels ? "kernels" : "schedule"},
        {"metadata", metadataToJson(m_meta)},
        {"booster", nlohmann::json::parse(std::string(buffer, length))}};
    const std::string text = doc.dump() + "\n";
    AtomicFile file(path, "cost model file", ".tmp." + std::to_string(::getpid()));
    file.stream() << text;
    file.commit();
}

std::shared_ptr<LearnedCostModel> LearnedCostModel::load(const std::string &path,
                                                         const GpuSpec &gpu) {
    std::ifstream in(path, std::ios::binary);
    std::error_code ec;
    if (!in || std::filesystem::is_directory(path, ec))
        throw Error("cannot read cost model file '" + path + "'");
    std::stringstream text;
    text << in.rdbuf();
    const nlohmann::json doc = nlohmann::json::parse(text.str(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object())
        throw Error("cost model file '" + path +
                    "' is not valid JSON (corrupt or not a model file)");
    if (!doc.contains("format") || doc["format"] != kFormat)
        throw Error("'" + path + "' is not a Beamscope cost model file (no \"format\": \"" +
                    kFormat + "\")");
    std::shared_ptr<LearnedCostModel> model;
    try {
        // Integers only: the JSON library's conversion of a double such as 1e67 to an int is
        // undefined behaviour.
        const auto integerField = [&](const char *key) {
            const std::optional<int> value = jsonInteger<int>(doc.at(key));
            if (!value)
                throw Error("cost model file '" + path + "': \"" + key + "\" is not an integer");
            return *value;
        };
        const int version = integerField("version");
        if (version != kVersion)
            throw Error("cost model file '" + path + "' has format version " +
                        std::to_string(version) + "; this Beamscope reads version " +
                        std::to_string(kVersion));
        const int schema = integerField("feature_schema");
        if (schema != kScheduleFeatureSchema)
            throw Error("cost model file '" + path + "' uses feature schema " +
                        std::to_string(schema) + "; this Beamscope computes feature schema " +
                        std::to_string(kScheduleFeatureSchema) + " (retrain the model)");
        const std::string structureName = doc.value("structure", "schedule");
        if (structureName != "schedule" && structureName != "kernels")
            throw Error("cost model file '" + path + "' has an unknown structure '" +
                        structureName + "' (a newer Beamscope's model?)");
        const ModelStructure structure =
            structureName == "kernels" ? ModelStructure::Kernels : ModelStructure::Schedule;
        const size_t expected = structure == ModelStructure::Kernels
                                    ? kernelFeatureNames().size()
                                    : scheduleFeatureNames().size();
        const std::string booster = doc.at("booster").dump();
        BoosterHandle handle = nullptr;
        if (XGBoosterCreate(nullptr, 0, &handle) != 0)
            throw Error("cannot load cost model file '" + path + "': " + xgboostMessage());
        model.reset(new LearnedCostModel(
            gpu, metadataFromJson(doc.value("metadata", nlohmann::json::object()), schema), handle,
            1, structure));
        if (XGBoosterLoadModelFromBuffer(handle, booster.data(), bst_ulong(booster.size())) != 0)
            throw Error("cost model file '" + path +
                        "' has a corrupt booster: " + xgboostMessage());
        if (XGBoosterSetParam(handle, "nthread", "1") != 0 ||
            XGBoosterSetParam(handle, "verbosity", "0") != 0)
            throw Error("cannot configure cost model '" + path + "': " + xgboostMessage());
        bst_ulong features = 0;
        if (XGBoosterGetNumFeature(handle, &features) != 0 || features != expected)
            throw Error("cost model file '" + path + "' expects " + std::to_string(features) +
                        " features; schema " + std::to_string(kScheduleFeatureSchema) + " has " +
                        std::to_string(expected) + " per " + structureName);
        // The share's bands from the document at hand: reading them back from XGBoost would
        // cost a search of a small pipeline a third more.
        if (structure == ModelStructure::Kernels)
            model->m_shareBands = std::make_unique<FeatureBands>(
                FeatureBands::read(doc.at("booster"), int(expected) - 1));
    } catch (const nlohmann::json::exception &) {
        throw Error("cost model file '" + path +
                    "' is corrupt (missing or mistyped version, schema or booster)");
    }
    model->m_name = "learned:" + std::filesystem::path(path).stem().string();
    return model;
}

} // namespace beamscope
