// ScalarInputs: the values of a pipeline's scalar inputs (a generator's Input<float>,
// Input<int32_t>, Input<bool>, ...). Every scalar is bound before anything compiles or runs it:
// the value given by the user ("--input NAME=VALUE"), else the input's estimate, else the
// generator's default. The bound value also becomes the input's estimate, so the search and
// Halide's autoschedulers size the pipeline for the value it runs with.
#pragma once

#include "pipeline/PipelineInstance.h"

#include <string>
#include <vector>

namespace beamscope {

/// Binds every scalar input of `instance` (see the file comment). `overrides` are "NAME=VALUE"
/// texts. Throws UsageError for a malformed assignment, an unknown input name, a value that is
/// not of the input's type or outside its declared range; Error, naming the input, for an input
/// with no value from any of the three.
void bindScalarInputs(PipelineInstance &instance, const std::vector<std::string> &overrides);

/// The bound value of scalar parameter `parameter` as text ("0.5", "-3", "true"); floats in the
/// shortest form that reads back to the same value. Throws Error when it has no value.
std::string scalarValueText(const Halide::Parameter &parameter);

/// "NAME=VALUE" for every scalar input of `instance`, in input order (its bound values; "?" for
/// one not bound yet).
std::vector<std::string> scalarInputAssignments(const PipelineInstance &instance);

} // namespace beamscope
