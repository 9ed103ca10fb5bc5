// `beamscope-cli export APP [search options] --out FILE.h [--lang python]`: search, then write
// the best schedule as a self-contained Halide C++ function (or Python, for Python generators).
#include "Commands.h"
#include "SearchCliOptions.h"

#include "codegen/SchedulePythonSource.h"
#include "codegen/ScheduleSource.h"
#include "util/AtomicFile.h"
#include "util/Error.h"

#include <filesystem>
#include <fstream>
#include <iostream>

namespace beamscope::cli {

namespace {

struct ExportArgs {
    PipelineSource source;
    SearchCliOptions search;
    std::string out;
    std::string function;
    bool noStaging = false;
    std::string lang = "cpp";
};

} // namespace

void addExportCommand(CLI::App &app, CommandAction &action) {
    auto *command = app.add_subcommand("export", "search and write the best schedule as Halide C++");
    auto args = std::make_shared<ExportArgs>();
    addPipelineOptions(*command, args->source);
    args->search.addTo(*command);
    command->add_option("--out", args->out, "the file to write (a C++ header, or a .py module)")
        ->required();
    command
        ->add_option("--lang", args->lang,
                     "cpp (a header) or python (Halide's Python bindings), default cpp")
        ->check(CLI::IsMember({"cpp", "python"}));
    command->add_option("--function", args->function, "name of the C++ function (default: apply_<app>_schedule)");
    command->add_flag("--no-staging", args->noStaging,
                      "do not stage producers in registers at their consumers' threads (paper 4.7)");
    command->callback([&action, args] {
        action = [args] {
            auto dag = std::make_shared<const FunctionDAG>(loadPipeline(args->source));
            const SearchOptions options = args->search.build();
            SearchEngine engine(dag, options);
            engine.run();
            const BeamEntry &best = *engine.best();
            const std::string function = args->function.empty() ? defaultScheduleFunctionName(dag->pipelineName()) : args->function;
            ScheduleCallOptions calls = ScheduleCallOptions::forGpu(options.gpu);
            calls.stageProducers = !args->noStaging;
            const bool python = args->lang == "python";
            const std::string source =
                python ? schedulePythonSource(*best.state, &best.cost, function, calls)
                       : scheduleSource(*best.state, &best.cost, function, calls);
            // Written next to the target and renamed, so a failed write never leaves half a file.
            AtomicFile file(args->out);
            file.stream() << source;
            file.commit();
            std::cout << "wrote " << args->out << ": " << function
                      << (python ? "(pipeline)" : "(Halide::Pipeline)") << ", predicted "
                      << best.cost.total << " ms on " << engine.options().gpu.name << "\n";
            return 0;
        };
    });
}

} // namespace beamscope::cli
