// CliOption: an option of app/common/SharedOptions.h (the definitions the GUI's command line
// shares) added to a CLI11 command, with its range checked.
#pragma once

#include <CLI/CLI.hpp>

#include "SharedOptions.h"

#include <string>

namespace beamscope::cli {

/// Adds `definition` to `command`, storing into `value`; `helpSuffix` follows its help line
/// (a default, say). An integer with a range is checked against it.
template <class T>
CLI::Option *addOption(CLI::App &command, const options::Definition &definition, T &value,
                       const std::string &helpSuffix = {}) {
    std::string names = std::string("--") + definition.name;
    if (*definition.shortName) names = std::string("-") + definition.shortName + "," + names;
    CLI::Option *option = command.add_option(names, value, definition.help + helpSuffix);
    if (definition.max > 0) option->check(CLI::Range(definition.min, definition.max));
    return option;
}

} // namespace beamscope::cli
