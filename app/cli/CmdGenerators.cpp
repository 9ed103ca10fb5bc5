// `beamscope-cli generators --generator-lib PATH`: the generators a library registers.
#include "Commands.h"

#include "pipeline/GeneratorLibrary.h"

#include <iostream>
#include <memory>

namespace beamscope::cli {

void addGeneratorsCommand(CLI::App &app, CommandAction &action) {
    auto libraryPath = std::make_shared<std::string>();
    CLI::App *cmd = app.add_subcommand(
        "generators", "list the Halide generators a generator library registers, one per line");
    cmd->add_option("--generator-lib", *libraryPath,
                    "shared library of Halide generators built against Beamscope's Halide "
                    "(see halide-flags)")
        ->required();
    cmd->callback([&action, libraryPath] {
        action = [libraryPath] {
            const GeneratorLibrary library = GeneratorLibrary::open(*libraryPath);
            for (const std::string &name : library.generators())
                std::cout << name << "\n";
            return 0;
        };
    });
}

} // namespace beamscope::cli
