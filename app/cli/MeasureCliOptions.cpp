// MeasureCliOptions: registration of the measuring commands' shared options.
#include "MeasureCliOptions.h"

#include "util/Error.h"

#include <memory>

namespace beamscope::cli {

void MeasureCliOptions::addTo(CLI::App &command, const std::string &baselineHelp) {
    command.add_option("--baseline", baselines, baselineHelp);
    command
        .add_option(
            "--dropout", dropout,
            "percent chance that a greedy sample drops no state (Anderson's random_dropout)")
        ->check(CLI::Range(0.0, 100.0));
    command.add_option("--warmup", warmup, "untimed runs")->check(CLI::Range(0, 1000));
    command.add_option("--repeats", repeats, "timed runs, at least")->check(CLI::Range(1, 10000));
    command
        .add_option(
            "--min-timed-ms", minTimedMs,
            "more timed runs (up to 100) while they add up to less than this many milliseconds: "
            "a pipeline of microseconds gets a stable minimum and median (0: the "
            "repeats alone)")
        ->check(CLI::Range(0.0, 60000.0));
    command.add_option("--timeout", timeout, "seconds per worker")->check(CLI::Range(1.0, 86400.0));
    command.add_option("--worker", worker, "path of beamscope-worker (default: next to the CLI)");
    command.add_flag("--no-staging", noStaging,
                     "do not stage producers in registers at their consumers' threads (paper 4.7)");
    command
        .add_option("--runner", runner,
                    "where candidates are measured: local (every device of this machine at "
                    "once) or slurm (job arrays on a Slurm cluster; docs/cluster.md)")
        ->check(CLI::IsMember({"local", "slurm"}));
    command.add_option(
        "--slurm-config", slurmConfig,
        "Slurm settings file (key = value: dir, partition, account, gres, time, "
        "option, compile, worker, aot_runner, max_parallel, poll); flags override it");
    command.add_option("--slurm-dir", slurmDir,
                       "directory shared with the cluster's nodes for job files and results");
    command.add_option("--slurm-partition", slurmPartition, "sbatch --partition");
    command.add_option("--slurm-account", slurmAccount, "sbatch --account");
    command.add_option("--slurm-gres", slurmGres, "sbatch --gres (default gpu:1; none: no GRES)");
    command.add_option("--slurm-time", slurmTime,
                       "sbatch --time per task (default: twice --timeout, at least 2 minutes)");
    command.add_option("--slurm-option", slurmOptions, "extra sbatch option (repeatable)");
    command
        .add_option("--slurm-compile", slurmCompile,
                    "local: compile here and ship the compiled artifact, only what compiles is "
                    "queued, nodes need no Halide (default); job: the job's worker compiles")
        ->check(CLI::IsMember({"local", "job"}));
    command.add_option("--slurm-worker", slurmWorker,
                       "beamscope-worker as the nodes see it (default: this one)");
    command.add_option("--slurm-aot-runner", slurmAotRunner,
                       "beamscope-aot-runner as the nodes see it (default: beside the worker)");
    command.add_option("--slurm-poll", slurmPoll, "seconds between squeue polls (default 2)")
        ->check(CLI::Range(0.05, 600.0));
    command
        .add_option("--slurm-max-parallel", slurmMaxParallel,
                    "array tasks at once (sbatch --array=...%N; default: no limit)")
        ->check(CLI::Range(0, 100000));
}

SlurmOptions MeasureCliOptions::slurm() const {
    std::vector<std::pair<std::string, std::string>> settings = {
        {"dir", slurmDir},       {"partition", slurmPartition}, {"account", slurmAccount},
        {"gres", slurmGres},     {"time", slurmTime},           {"compile", slurmCompile},
        {"worker", slurmWorker}, {"aot_runner", slurmAotRunner}};
    for (const std::string &o : slurmOptions)
        settings.emplace_back("option", o);
    if (slurmPoll > 0) settings.emplace_back("poll", std::to_string(slurmPoll));
    if (slurmMaxParallel >= 0)
        settings.emplace_back("max_parallel", std::to_string(slurmMaxParallel));
    return slurmOptionsFrom(slurmConfig, settings);
}

std::function<void(const RunnerProgress &)>
MeasureCliOptions::progressPrinter(const std::string &prefix) {
    auto last = std::make_shared<std::string>();
    return [prefix, last](const RunnerProgress &progress) {
        const std::string line = progress.line();
        if (line == *last) return;
        *last = line;
        std::cerr << prefix << "jobs: " << line << "\n";
    };
}

} // namespace beamscope::cli
