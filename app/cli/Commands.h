// beamscope-cli subcommands: each file registers one subcommand on the CLI11 app.
#pragma once

#include <CLI/CLI.hpp>

#include "pipeline/PipelineSource.h"

#include <functional>

namespace beamscope::cli {

/// A registered subcommand's action; runs after parsing, returns the exit status.
using CommandAction = std::function<int()>;

/// Adds the pipeline-selection options (APP positional, --generator-lib, -p) to `command`.
void addPipelineOptions(CLI::App &command, PipelineSource &source);

void addAppsCommand(CLI::App &app, CommandAction &action);
void addDagCommand(CLI::App &app, CommandAction &action);
void addHalideFlagsCommand(CLI::App &app, CommandAction &action);
void addGeneratorsCommand(CLI::App &app, CommandAction &action);
void addSearchCommand(CLI::App &app, CommandAction &action);
/// `why`: what happened to a described decision in the search.
void addWhyCommand(CLI::App &app, CommandAction &action);
void addAblateCommand(CLI::App &app, CommandAction &action);
/// `compare --with`: the search against an imported Halide schedule.
void addCompareCommand(CLI::App &app, CommandAction &action);
void addExportCommand(CLI::App &app, CommandAction &action);
void addBenchCommand(CLI::App &app, CommandAction &action);
void addDbCommand(CLI::App &app, CommandAction &action);
void addTuneCommand(CLI::App &app, CommandAction &action);
/// `collect`: time-boxed data collection on the device (core/collect).
void addCollectCommand(CLI::App &app, CommandAction &action);
/// `train` and `models`.
void addTrainCommands(CLI::App &app, CommandAction &action);

} // namespace beamscope::cli
