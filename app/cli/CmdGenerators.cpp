// `beamscope-cli generators --generator-lib PATH | --generator-py FILE.py`: the generators a
// library registers, or a Python file defines.
#include "Commands.h"

#include "pipeline/GeneratorLibrary.h"
#include "pipeline/PythonGenerator.h"
#include "pipeline/UserCodeIsolation.h"
#include "util/Error.h"

#include <iostream>
#include <memory>

namespace beamscope::cli {

void addGeneratorsCommand(CLI::App &app, CommandAction &action) {
    auto libraryPath = std::make_shared<std::string>();
    auto pythonPath = std::make_shared<std::string>();
    CLI::App *cmd = app.add_subcommand(
        "generators", "list the Halide generators a generator library registers or a Python file "
                      "defines, one per line");
    auto *lib = cmd->add_option("--generator-lib", *libraryPath,
                                "shared library of Halide generators built against Beamscope's "
                                "Halide (see halide-flags)");
    auto *py =
        cmd->add_option("--generator-py", *pythonPath, "Python file of @hl.generator classes");
    lib->excludes(py);
    cmd->callback([&action, libraryPath, pythonPath] {
        action = [libraryPath, pythonPath] {
            if (libraryPath->empty() && pythonPath->empty())
                throw UsageError("generators: give --generator-lib or --generator-py");
            const std::vector<std::string> names =
                pythonPath->empty()
                    ? GeneratorLibrary::open(*libraryPath).generators()
                    : listPythonGenerators(*pythonPath, userCodeIsolation().timeoutS);
            for (const std::string &name : names)
                std::cout << name << "\n";
            return 0;
        };
    });
}

} // namespace beamscope::cli
