// Helpers shared by the catalog app factories: estimated inputs, output estimates, instances.
#include "pipeline/apps/Apps.h"

namespace beamscope::apps {

Halide::ImageParam estimatedInput(Halide::Type type, const std::string &name,
                                  const std::vector<int64_t> &extents) {
    Halide::ImageParam input(type, static_cast<int>(extents.size()), name);
    for (size_t d = 0; d < extents.size(); ++d) {
        input.dim(static_cast<int>(d)).set_estimate(0, static_cast<int>(extents[d]));
    }
    return input;
}

Halide::Func repeatEdge(const Halide::ImageParam &input, const std::string &name) {
    std::vector<Halide::Var> args;
    std::vector<Halide::Expr> clamped;
    for (int d = 0; d < input.dimensions(); ++d) {
        args.push_back(Halide::Var("d" + std::to_string(d)));
        clamped.push_back(Halide::clamp(args.back(), input.dim(d).min(), input.dim(d).max()));
    }
    Halide::Func bounded(name);
    bounded(args) = input(clamped);
    return bounded;
}

void setOutputEstimates(Halide::Func output, const std::vector<int64_t> &extents) {
    std::vector<Halide::Var> args = output.args();
    for (size_t d = 0; d < extents.size() && d < args.size(); ++d) {
        output.set_estimate(args[d], 0, static_cast<int>(extents[d]));
    }
}

PipelineInstance makeInstance(const std::string &name, const std::vector<Halide::Func> &outputs,
                              const std::vector<Halide::ImageParam> &inputs,
                              const AppParams &params) {
    PipelineInstance instance;
    instance.name = name;
    instance.pipeline = Halide::Pipeline(outputs);
    for (const Halide::ImageParam &input : inputs) {
        instance.inputs.push_back(input.parameter());
    }
    for (const auto &[key, value] : params) {
        instance.params[key] = std::to_string(value);
    }
    return instance;
}

} // namespace beamscope::apps
