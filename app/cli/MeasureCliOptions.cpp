// MeasureCliOptions: registration of the measuring commands' shared options.
#include "MeasureCliOptions.h"

namespace beamscope::cli {

void MeasureCliOptions::addTo(CLI::App &command, const std::string &baselineHelp) {
    command.add_option("--baseline", baselines, baselineHelp);
    command
        .add_option(
            "--dropout", dropout,
            "percent chance that a greedy sample drops no state (Anderson's random_dropout)")
        ->check(CLI::Range(0.0, 100.0));
    command.add_option("--warmup", warmup, "untimed runs")->check(CLI::Range(0, 1000));
    command.add_option("--repeats", repeats, "timed runs")->check(CLI::Range(1, 10000));
    command.add_option("--timeout", timeout, "seconds per worker")->check(CLI::Range(1.0, 86400.0));
    command.add_option("--worker", worker, "path of beamscope-worker (default: next to the CLI)");
    command.add_flag("--no-staging", noStaging,
                     "do not stage producers in registers at their consumers' threads (paper 4.7)");
}

} // namespace beamscope::cli
