// The shared part of the catalog references: deterministic inputs, output buffers from the
// estimates and the trivial CPU realization (see ReferenceHarness.h).
#include "ReferenceHarness.h"

#include <stdexcept>

namespace beamscope::references {

void fillRandom(Halide::Buffer<> &buffer, Lcg &rng, int64_t uint16Max) {
    const Halide::Type type = buffer.type();
    if (type == Halide::Float(32)) {
        buffer.as<float>().for_each_value([&](float &v) { v = static_cast<float>(rng.next()); });
    } else if (type == Halide::UInt(8)) {
        buffer.as<uint8_t>().for_each_value(
            [&](uint8_t &v) { v = static_cast<uint8_t>(rng.upTo(255)); });
    } else if (type == Halide::UInt(16)) {
        buffer.as<uint16_t>().for_each_value(
            [&](uint16_t &v) { v = static_cast<uint16_t>(rng.upTo(uint16Max)); });
    } else {
        throw std::runtime_error("no random fill for an input of this type");
    }
}

Halide::Buffer<> bufferForInput(const Halide::Parameter &input) {
    std::vector<int> mins, extents;
    for (int d = 0; d < input.dimensions(); ++d) {
        const auto min = Halide::Internal::as_const_int(input.min_constraint_estimate(d));
        const auto extent = Halide::Internal::as_const_int(input.extent_constraint_estimate(d));
        if (!min || !extent) {
            throw std::runtime_error(input.name() + " has no constant estimate in dimension " +
                                     std::to_string(d));
        }
        mins.push_back(static_cast<int>(*min));
        extents.push_back(static_cast<int>(*extent));
    }
    Halide::Buffer<> buffer(input.type(), extents);
    buffer.set_min(mins);
    return buffer;
}

std::vector<Halide::Buffer<>> outputBuffers(const Halide::Pipeline &pipeline) {
    std::vector<Halide::Buffer<>> buffers;
    for (const Halide::Func &output : pipeline.outputs()) {
        const Halide::Internal::Function function = output.function();
        std::vector<int> mins, extents;
        for (const std::string &arg : function.args()) {
            bool found = false;
            for (const Halide::Internal::Bound &bound : function.schedule().estimates()) {
                const auto min = Halide::Internal::as_const_int(bound.min);
                const auto extent = Halide::Internal::as_const_int(bound.extent);
                if (bound.var != arg || !min || !extent) continue;
                mins.push_back(static_cast<int>(*min));
                extents.push_back(static_cast<int>(*extent));
                found = true;
                break;
            }
            if (!found) {
                throw std::runtime_error(function.name() + "." + arg + " has no constant estimate");
            }
        }
        for (const Halide::Type &type : function.output_types()) {
            Halide::Buffer<> buffer(type, extents);
            buffer.set_min(mins);
            buffers.push_back(buffer);
        }
    }
    return buffers;
}

std::string realizeOnCpu(PipelineInstance &instance, std::vector<Halide::Buffer<>> &outputs,
                         bool strictFloat) {
    std::vector<Halide::Internal::Function> outputFunctions;
    for (const Halide::Func &output : instance.pipeline.outputs())
        outputFunctions.push_back(output.function());
    for (const auto &[name, function] : Halide::Internal::build_environment(outputFunctions)) {
        const bool isOutput =
            std::any_of(outputFunctions.begin(), outputFunctions.end(),
                        [&function = function](const auto &o) { return o.same_as(function); });
        if (!isOutput) Halide::Func(function).compute_root();
    }
    Halide::Target target = Halide::get_jit_target_from_environment();
    if (strictFloat) target = target.with_feature(Halide::Target::StrictFloat);
    try {
        Halide::Realization realization(outputs);
        instance.pipeline.realize(realization, target);
    } catch (const Halide::Error &e) {
        return instance.name + ": " + e.what();
    }
    return "";
}

} // namespace beamscope::references
