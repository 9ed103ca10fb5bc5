// pipelineSourceToJson / pipelineSourceFromJson; withAbsoluteFiles.
#include "pipeline/PipelineSourceJson.h"

#include <filesystem>

namespace beamscope {

nlohmann::json pipelineSourceToJson(const PipelineSource &source) {
    nlohmann::json j = {{"app", source.name},
                        {"generator_lib", source.generatorLibrary},
                        {"params", source.params},
                        {"estimates", source.estimates},
                        {"inputs", source.inputs}};
    if (!source.generatorPython.empty()) j["generator_py"] = source.generatorPython;
    if (!source.pipelineFile.empty()) j["pipeline_file"] = source.pipelineFile;
    return j;
}

PipelineSource withAbsoluteFiles(PipelineSource source) {
    for (std::string *path :
         {&source.generatorLibrary, &source.generatorPython, &source.pipelineFile}) {
        std::error_code ec;
        if (path->empty() || !std::filesystem::exists(*path, ec)) continue;
        const std::filesystem::path absolute = std::filesystem::absolute(*path, ec);
        if (!ec) *path = absolute.lexically_normal().string();
    }
    return source;
}

PipelineSource pipelineSourceFromJson(const nlohmann::json &j) {
    PipelineSource source;
    source.name = j.at("app").get<std::string>();
    source.generatorLibrary = j.value("generator_lib", std::string());
    source.generatorPython = j.value("generator_py", std::string());
    source.pipelineFile = j.value("pipeline_file", std::string());
    source.params = j.value("params", std::vector<std::string>());
    source.estimates = j.value("estimates", std::vector<std::string>());
    source.inputs = j.value("inputs", std::vector<std::string>());
    return source;
}

} // namespace beamscope
