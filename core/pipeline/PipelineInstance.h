// PipelineInstance: one freshly built Halide pipeline (catalog app or user generator) with the
// handles the rest of Beamscope needs: its input parameters and the parameter values used.
#pragma once

#include <Halide.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace beamscope {

/// Integer parameters of an app (sizes, levels, length), by name.
using AppParams = std::map<std::string, int64_t>;

/// A pipeline ready for analysis and scheduling. Never compiled before a schedule is applied.
struct PipelineInstance {
    std::string name;                    ///< app or generator name
    Halide::Pipeline pipeline;           ///< outputs carry estimates
    std::vector<Halide::Parameter> inputs; ///< input buffers (with estimates), in call order
    /// Scalar inputs (a generator's Input<float>, Input<int32_t>, ...), in declaration order;
    /// loadPipeline binds each to a value (ScalarInputs.h).
    std::vector<Halide::Parameter> scalars;
    std::map<std::string, std::string> params; ///< parameter values used to build it, as text
};

} // namespace beamscope
