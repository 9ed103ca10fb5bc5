// The built-in catalog: the 16 Halide apps of Anderson et al. 2021 (section 6), written here.
// Each entry is a factory that builds a fresh pipeline per call from a set of parameters.
#pragma once

#include "pipeline/PipelineInstance.h"

#include <functional>
#include <string>
#include <vector>

namespace beamscope {

/// One user-settable integer parameter of an app, with its default and allowed range.
struct AppParameter {
    std::string name;
    int64_t defaultValue = 0;
    int64_t minValue = 1;
    int64_t maxValue = 1 << 20;
    std::string description;
};

/// A catalog entry: name, what it computes, its parameters and the factory.
struct AppDefinition {
    std::string name;
    std::string description;
    std::vector<AppParameter> parameters;
    /// Builds the algorithm with every parameter present in `params` (defaults filled in).
    std::function<PipelineInstance(const AppParams &params)> build;
};

/// All catalog apps, in the order of the paper's evaluation.
const std::vector<AppDefinition> &appCatalog();

/// The app called `name`, or nullptr.
const AppDefinition *findApp(const std::string &name);

/// Builds app `name` with `overrides` on top of its defaults. Throws UsageError for an unknown
/// app, an unknown parameter or a value out of range.
PipelineInstance buildApp(const std::string &name, const AppParams &overrides = {});

/// Parses "key=value" pairs into integer parameters; throws UsageError on malformed input.
AppParams parseAppParams(const std::vector<std::string> &assignments);

} // namespace beamscope
