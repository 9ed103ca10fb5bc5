// `beamscope-cli dag APP [--format text|dot|json]`: the Func DAG of a pipeline.
#include "Commands.h"

#include "dag/DagExport.h"
#include "util/Error.h"

#include <iostream>

namespace beamscope::cli {

void addDagCommand(CLI::App &app, CommandAction &action) {
    auto *command = app.add_subcommand("dag", "print the Func DAG of a pipeline");
    auto source = std::make_shared<PipelineSource>();
    auto format = std::make_shared<std::string>("text");
    addPipelineOptions(*command, *source);
    command->add_option("--format", *format, "text, dot or json")
        ->check(CLI::IsMember({"text", "dot", "json"}));
    command->callback([&action, source, format] {
        action = [source, format] {
            const FunctionDAG dag(loadPipeline(*source));
            if (*format == "json") {
                std::cout << dagToJson(dag).dump(2) << "\n";
            } else if (*format == "dot") {
                dagToDot(dag, std::cout);
            } else {
                dag.dump(std::cout);
            }
            return 0;
        };
    });
}

} // namespace beamscope::cli
