// `beamscope-cli apps`: one line per catalog app with its Func and stage counts.
#include "Commands.h"

#include "dag/FunctionDAG.h"
#include "pipeline/AppCatalog.h"

#include <iomanip>
#include <iostream>

namespace beamscope::cli {

void addAppsCommand(CLI::App &app, CommandAction &action) {
    auto *command = app.add_subcommand("apps", "list the built-in catalog apps");
    auto verbose = std::make_shared<bool>(false);
    command->add_flag("-v,--verbose", *verbose, "also print each app's description and parameters");
    command->callback([&action, verbose] {
        action = [verbose] {
            for (const AppDefinition &definition : appCatalog()) {
                const FunctionDAG dag(buildApp(definition.name));
                std::cout << std::left << std::setw(26) << definition.name << " funcs "
                          << std::setw(4) << dag.funcCount() << " stages " << dag.stageCount()
                          << "\n";
                if (*verbose) {
                    std::cout << "    " << definition.description << "\n";
                    for (const AppParameter &p : definition.parameters) {
                        std::cout << "    -p " << p.name << "=" << p.defaultValue << "  ("
                                  << p.description << ", " << p.minValue << ".." << p.maxValue
                                  << ")\n";
                    }
                }
            }
            return 0;
        };
    });
}

} // namespace beamscope::cli
