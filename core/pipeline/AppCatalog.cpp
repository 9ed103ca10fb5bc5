// The catalog list, lookup by name, parameter validation and "key=value" parsing.
#include "pipeline/AppCatalog.h"

#include "pipeline/apps/Apps.h"
#include "util/Error.h"

#include <charconv>

namespace beamscope {

const std::vector<AppDefinition> &appCatalog() {
    static const std::vector<AppDefinition> catalog = {
        apps::bilateralGrid(),   apps::localLaplacian(), apps::nlMeans(),
        apps::lensBlur(),        apps::cameraPipe(),     apps::stencilChain(),
        apps::harris(),          apps::histogramEqualize(), apps::maxFilter(),
        apps::unsharpMask(),     apps::interpolate(),    apps::convLayer(),
        apps::matmul(),          apps::iirBlur(),        apps::bgu(),
        apps::depthwiseSeparableConv(),
    };
    return catalog;
}

const AppDefinition *findApp(const std::string &name) {
    for (const AppDefinition &app : appCatalog()) {
        if (app.name == name) return &app;
    }
    return nullptr;
}

PipelineInstance buildApp(const std::string &name, const AppParams &overrides) {
    const AppDefinition *app = findApp(name);
    if (!app) {
        throw UsageError("unknown app '" + name + "' (beamscope-cli apps lists them)");
    }
    AppParams params;
    for (const AppParameter &p : app->parameters) params[p.name] = p.defaultValue;
    for (const auto &[key, value] : overrides) {
        const std::string &wanted = key; // clang 14 (the fuzz build) cannot capture a binding
        auto it = std::find_if(app->parameters.begin(), app->parameters.end(),
                               [&wanted](const AppParameter &p) { return p.name == wanted; });
        if (it == app->parameters.end()) {
            std::string known;
            for (const AppParameter &p : app->parameters) known += (known.empty() ? "" : ", ") + p.name;
            throw UsageError("app '" + name + "' has no parameter '" + key + "' (known: " + known +
                             ")");
        }
        if (value < it->minValue || value > it->maxValue) {
            throw UsageError("parameter '" + key + "' of app '" + name + "' must lie in [" +
                             std::to_string(it->minValue) + ", " + std::to_string(it->maxValue) +
                             "], got " + std::to_string(value));
        }
        params[key] = value;
    }
    return wrapHalideErrors("building app '" + name + "'", [&] { return app->build(params); });
}

AppParams parseAppParams(const std::vector<std::string> &assignments) {
    AppParams params;
    for (const std::string &text : assignments) {
        const size_t eq = text.find('=');
        if (eq == std::string::npos || eq == 0) {
            throw UsageError("parameter '" + text + "' is not of the form key=value");
        }
        const std::string key = text.substr(0, eq);
        const std::string value = text.substr(eq + 1);
        int64_t parsed = 0;
        auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), parsed);
        if (ec != std::errc() || end != value.data() + value.size()) {
            throw UsageError("parameter '" + key + "' needs an integer value, got '" + value + "'");
        }
        params[key] = parsed;
    }
    return params;
}

} // namespace beamscope
