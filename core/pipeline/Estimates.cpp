// missingEstimates / requireEstimates: every output dimension and every input buffer dimension
// must carry an estimate (min and extent) before the search can size anything.
#include "pipeline/Estimates.h"

#include "util/Error.h"

namespace beamscope {

namespace {

/// True when `bounds` holds an estimate with a defined min and extent for loop variable `var`.
bool hasEstimate(const std::vector<Halide::Internal::Bound> &bounds, const std::string &var) {
    for (const Halide::Internal::Bound &bound : bounds) {
        if (bound.var == var && bound.min.defined() && bound.extent.defined()) return true;
    }
    return false;
}

/// A Func's name as its author wrote it: generator outputs carry a uniquifying "$N" suffix.
std::string displayName(const std::string &name) {
    const size_t dollar = name.rfind('$');
    if (dollar == std::string::npos || dollar == 0 || dollar + 1 == name.size()) return name;
    for (size_t i = dollar + 1; i < name.size(); ++i) {
        if (name[i] < '0' || name[i] > '9') return name;
    }
    return name.substr(0, dollar);
}

} // namespace

std::vector<std::string> missingEstimates(const PipelineInstance &instance) {
    std::vector<std::string> missing;
    if (!instance.pipeline.defined()) return missing;
    for (const Halide::Func &output : instance.pipeline.outputs()) {
        const Halide::Internal::Function function = output.function();
        const std::vector<Halide::Internal::Bound> &bounds = function.schedule().estimates();
        const std::vector<std::string> args = function.args();
        for (size_t d = 0; d < args.size(); ++d) {
            if (!hasEstimate(bounds, args[d])) {
                missing.push_back("output '" + displayName(function.name()) + "' dimension " +
                                  std::to_string(d) + " (" + args[d] + ")");
            }
        }
    }
    for (const Halide::Parameter &input : instance.inputs) {
        if (!input.defined() || !input.is_buffer()) continue;
        for (int d = 0; d < input.dimensions(); ++d) {
            if (!input.min_constraint_estimate(d).defined() ||
                !input.extent_constraint_estimate(d).defined()) {
                missing.push_back("input '" + displayName(input.name()) + "' dimension " +
                                  std::to_string(d));
            }
        }
    }
    return missing;
}

void requireEstimates(const PipelineInstance &instance) {
    const std::vector<std::string> missing = missingEstimates(instance);
    if (missing.empty()) return;
    std::string list;
    for (const std::string &name : missing)
        list += (list.empty() ? "" : ", ") + name;
    throw Error("missing estimates: " + list);
}

} // namespace beamscope
