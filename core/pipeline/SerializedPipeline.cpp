// loadSerializedPipeline: deserialize the parameters first, so the pipeline refers to Parameter
// objects held here (scalar binding and estimates act on them), then the pipeline with them.
#include "pipeline/SerializedPipeline.h"

#include "util/Error.h"

#include <algorithm>
#include <filesystem>

namespace beamscope {

namespace {

/// The first line of a Halide error, without its "Error: " prefix.
std::string halideMessage(const std::string &what) {
    std::string line = detail::firstLine(what);
    if (line.rfind("Error: ", 0) == 0) line = line.substr(7);
    return line;
}

/// Puts back on `parameter` what its generator declared and the file lost.
void restore(Halide::Parameter &parameter, const DeclaredInput &declared) {
    if (parameter.is_buffer()) {
        if (int(declared.estimates.size()) != parameter.dimensions()) return;
        for (int d = 0; d < parameter.dimensions(); ++d) {
            const auto &[min, extent] = declared.estimates[size_t(d)];
            parameter.set_min_constraint_estimate(d, Halide::Expr(int(min)));
            parameter.set_extent_constraint_estimate(d, Halide::Expr(int(extent)));
        }
        return;
    }
    // Each of the input's own type: a value of another type is left out, not converted.
    const auto fits = [&](const Halide::Expr &e) {
        return e.defined() && e.type() == parameter.type();
    };
    if (fits(declared.scalarMin)) parameter.set_min_value(declared.scalarMin);
    if (fits(declared.scalarMax)) parameter.set_max_value(declared.scalarMax);
    if (fits(declared.scalarDefault)) parameter.set_default_value(declared.scalarDefault);
    if (fits(declared.scalarEstimate)) parameter.set_estimate(declared.scalarEstimate);
}

/// Input names in the order the instance lists them.
std::vector<std::string> inputOrder(Halide::Pipeline pipeline, const PipelineManifest &manifest) {
    std::vector<std::string> names;
    for (const DeclaredInput &input : manifest.inputs)
        names.push_back(input.name);
    if (!names.empty()) return names;
    for (const Halide::Argument &argument : pipeline.infer_arguments()) {
        if (argument.is_input()) names.push_back(argument.name);
    }
    return names;
}

} // namespace

PipelineInstance loadSerializedPipeline(const std::string &path, const std::string &name,
                                        const PipelineManifest &manifest) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
        throw Error("cannot open pipeline file '" + path + "': no such file");
    }
    PipelineInstance instance;
    instance.name = name;
    instance.params = manifest.params;
    std::map<std::string, Halide::Parameter> parameters;
    try {
        parameters = Halide::deserialize_parameters(path);
        instance.pipeline = Halide::deserialize_pipeline(path, parameters);
    } catch (const Halide::Error &e) {
        throw Error("cannot read pipeline file '" + path + "': " + halideMessage(e.what()));
    } catch (const std::exception &e) {
        throw Error("cannot read pipeline file '" + path + "': " + halideMessage(e.what()));
    }
    if (!instance.pipeline.defined() || instance.pipeline.outputs().empty()) {
        throw Error("pipeline file '" + path + "' holds no pipeline");
    }
    for (const std::string &input : inputOrder(instance.pipeline, manifest)) {
        auto found = parameters.find(input);
        if (found == parameters.end()) continue; // declared but never used by the pipeline
        Halide::Parameter parameter = found->second;
        for (const DeclaredInput &declared : manifest.inputs) {
            if (declared.name == input) restore(parameter, declared);
        }
        (parameter.is_buffer() ? instance.inputs : instance.scalars).push_back(parameter);
    }
    return instance;
}

} // namespace beamscope
