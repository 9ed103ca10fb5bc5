// missingEstimates / requireEstimates: every output dimension and every input buffer dimension
// must carry an estimate (min and extent) before the search can size anything.
#include "pipeline/Estimates.h"

#include "util/Error.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

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

namespace {

struct EstimateSpec {
    std::string output;
    std::vector<std::pair<int64_t, int64_t>> ranges; ///< (min, extent) per dimension
};

EstimateSpec parseEstimateSpec(const std::string &spec) {
    const auto bad = [&spec] {
        return UsageError("bad estimate '" + spec + "': expected NAME=MIN:EXTENT[,MIN:EXTENT...]");
    };
    const size_t eq = spec.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size()) throw bad();
    EstimateSpec parsed;
    parsed.output = spec.substr(0, eq);
    size_t start = eq + 1;
    while (start <= spec.size()) {
        const size_t comma = std::min(spec.find(',', start), spec.size());
        const std::string range = spec.substr(start, comma - start);
        const size_t colon = range.find(':');
        if (colon == std::string::npos) throw bad();
        try {
            size_t usedMin = 0, usedExtent = 0;
            const int64_t min = std::stoll(range.substr(0, colon), &usedMin);
            const int64_t extent = std::stoll(range.substr(colon + 1), &usedExtent);
            // Halide takes estimates as 32-bit ints: a value beyond them is bad input, not a wrap.
            const auto fits = [](int64_t v) {
                return v >= std::numeric_limits<int>::min() && v <= std::numeric_limits<int>::max();
            };
            if (usedMin != colon || usedExtent != range.size() - colon - 1 || extent < 1 ||
                !fits(min) || !fits(extent) || !fits(min + extent - 1))
                throw bad();
            parsed.ranges.emplace_back(min, extent);
        } catch (const std::logic_error &) { // stoll: not a number, out of range
            throw bad();
        }
        start = comma + 1;
    }
    return parsed;
}

} // namespace

void applyOutputEstimates(const PipelineInstance &instance, const std::vector<std::string> &specs) {
    for (const std::string &spec : specs) {
        const EstimateSpec parsed = parseEstimateSpec(spec);
        bool found = false;
        for (Halide::Func output : instance.pipeline.outputs()) {
            if (displayName(output.name()) != parsed.output) continue;
            found = true;
            const std::vector<Halide::Var> args = output.args();
            if (args.size() != parsed.ranges.size()) {
                throw UsageError("estimate '" + spec + "': output '" + parsed.output + "' has " +
                                 std::to_string(args.size()) + " dimensions, not " +
                                 std::to_string(parsed.ranges.size()));
            }
            for (size_t d = 0; d < args.size(); ++d) {
                output.set_estimate(args[d], int(parsed.ranges[d].first),
                                    int(parsed.ranges[d].second));
            }
        }
        for (Halide::Parameter input : instance.inputs) {
            if (found || !input.is_buffer() || displayName(input.name()) != parsed.output) {
                continue;
            }
            found = true;
            if (input.dimensions() != int(parsed.ranges.size())) {
                throw UsageError("estimate '" + spec + "': input '" + parsed.output + "' has " +
                                 std::to_string(input.dimensions()) + " dimensions, not " +
                                 std::to_string(parsed.ranges.size()));
            }
            // An input's estimate: a .hlpipe file (Halide's serializer drops them) needs it.
            for (int d = 0; d < input.dimensions(); ++d) {
                input.set_min_constraint_estimate(d, int(parsed.ranges[size_t(d)].first));
                input.set_extent_constraint_estimate(d, int(parsed.ranges[size_t(d)].second));
            }
        }
        if (!found) {
            std::string names;
            for (const Halide::Func &output : instance.pipeline.outputs())
                names += (names.empty() ? "" : ", ") + displayName(output.name());
            throw UsageError("estimate '" + spec + "': no output named '" + parsed.output +
                             "' (outputs: " + names + ")");
        }
    }
}

} // namespace beamscope
