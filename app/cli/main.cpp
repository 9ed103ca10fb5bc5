// beamscope-cli: the headless front end over beamscope_core (no Qt). Parses the command line,
// runs one subcommand, and turns every error into one line on stderr and a non-zero exit:
// 2 for usage errors, 1 for failures.
#include "CliOption.h"
#include "Commands.h"

#include "measure/WorkerRunner.h"
#include "pipeline/UserCodeIsolation.h"
#include "util/Error.h"
#include "util/Version.h"

#include <iostream>

namespace beamscope::cli {

namespace {

/// --build-timeout of whichever command was given (UserCodeIsolation.h).
double buildTimeoutS = UserCodeIsolationOptions{}.timeoutS;

} // namespace

void addPipelineOptions(CLI::App &command, PipelineSource &source) {
    command
        .add_option("app", source.name,
                    "catalog app name, or generator name with --generator-lib or --generator-py, "
                    "or a name for the --pipeline-file pipeline")
        ->required();
    addOption(command, options::generatorLib, source.generatorLibrary);
    addOption(command, options::generatorPy, source.generatorPython);
    addOption(command, options::pipelineFile, source.pipelineFile);
    command
        .add_option("--build-timeout", buildTimeoutS,
                    "seconds a user's generator may take to build (default 60)")
        ->check(CLI::PositiveNumber);
    addOption(command, options::param, source.params)->allow_extra_args(false);
    addOption(command, options::estimate, source.estimates)->allow_extra_args(false);
    addOption(command, options::input, source.inputs)->allow_extra_args(false);
}

} // namespace beamscope::cli

int main(int argc, char **argv) {
    using namespace beamscope;
    CLI::App app{"beamscope-cli: explore GPU schedules of Halide pipelines, headless"};
    app.require_subcommand(1);
    app.set_help_all_flag("--help-all", "show help for every subcommand");
    app.set_version_flag("--version", "beamscope-cli " + versionLine());
    cli::CommandAction action;
    cli::addAppsCommand(app, action);
    cli::addDagCommand(app, action);
    cli::addGeneratorsCommand(app, action);
    cli::addSearchCommand(app, action);
    cli::addWhyCommand(app, action);
    cli::addCompareCommand(app, action);
    cli::addAblateCommand(app, action);
    cli::addExportCommand(app, action);
    cli::addBenchCommand(app, action);
    cli::addDbCommand(app, action);
    cli::addTuneCommand(app, action);
    cli::addCollectCommand(app, action);
    cli::addTrainCommands(app, action);
    cli::addHalideFlagsCommand(app, action);

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp &e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp &e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion &e) {
        return app.exit(e);
    } catch (const CLI::ParseError &e) {
        std::cerr << "beamscope-cli: " << e.what() << "\n";
        return 2;
    }
    // A user's generator is built in a process of its own first: its crash or hang is one line.
    setUserCodeIsolation({true, defaultWorkerPath(), cli::buildTimeoutS});
    try {
        return action ? action() : 2;
    } catch (const UsageError &e) {
        std::cerr << "beamscope-cli: " << e.what() << "\n";
        return 2;
    } catch (const std::exception &e) {
        std::cerr << "beamscope-cli: " << e.what() << "\n";
        return 1;
    } catch (const Halide::Error &e) {
        std::cerr << "beamscope-cli: Halide: " << detail::firstLine(e.what()) << "\n";
        return 1;
    }
}
