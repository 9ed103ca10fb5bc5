// `beamscope-cli tune APP [options]`: the autotuning loop of paper section 6: rounds of search
// with the current model, a batch measured (--runner local: compiled in parallel, run on every
// device at once, one measurement per device; --runner slurm: a job array on a cluster), recorded
// in the measurement database, and retraining. Ctrl-C stops after killing the running workers;
// every row measured so far is in the database and --resume continues.
#include "CliOption.h"
#include "Commands.h"
#include "InterruptScope.h"
#include "MeasureCliOptions.h"
#include "SearchCliOptions.h"

#include "store/MeasurementStore.h"
#include "tune/Tuner.h"
#include "util/Error.h"

#include <iostream>
#include <memory>

namespace beamscope::cli {

namespace {

struct TuneArgs {
    PipelineSource source;
    std::string device = "auto";
    int rounds = 5;
    int batch = 16;
    SearchCliOptions search;
    MeasureCliOptions measuring;
    std::string db;
    std::string runId;
    std::string modelOut;
    bool resume = false;
    bool fresh = false;
    int jobs = 0;
    bool json = false;
    bool quiet = false;
};

/// The database of the run: the user's file, or, when it cannot be opened, one in memory so
/// that the run still trains between rounds (nothing is kept after it).
std::unique_ptr<MeasurementStore> openStore(const std::string &path) {
    try {
        return std::make_unique<MeasurementStore>(path);
    } catch (const StoreError &e) {
        std::cerr << "beamscope-cli: " << e.what()
                  << "; measurements are kept in memory for this run only\n";
        return std::make_unique<MeasurementStore>(":memory:");
    }
}

} // namespace

void addTuneCommand(CLI::App &app, CommandAction &action) {
    auto *command = app.add_subcommand(
        "tune", "autotune on the local device: search, measure a batch, record, retrain, repeat");
    auto args = std::make_shared<TuneArgs>();
    addPipelineOptions(*command, args->source);
    command->add_option("--device", args->device, "auto, cuda or opencl")
        ->check(CLI::IsMember({"auto", "cuda", "opencl"}));
    command->add_option("--rounds", args->rounds, "rounds of search, measure, retrain")
        ->check(CLI::Range(1, 1000));
    command->add_option("--batch", args->batch, "schedules measured per round")
        ->check(CLI::Range(1, 1024));
    args->measuring.addTo(*command, "measured after the last round: " + baselineNames());
    args->search.addTo(*command, /*gpuFromDevice=*/true);
    addOption(*command, options::database, args->db,
              " (default: $XDG_DATA_HOME/beamscope/measurements.sqlite)");
    command->add_option("--run-id", args->runId,
                        "name of the run (default: from the pipeline, "
                        "device, batch and seed)");
    command->add_flag("--resume", args->resume, "continue the run where it stopped");
    command->add_flag("--fresh", args->fresh, "measure schedules the database already holds again");
    command->add_option("--model-out", args->modelOut,
                        "where each retrained model is written (default: models/RUN.model beside "
                        "the database)");
    command
        ->add_option("--jobs", args->jobs,
                     "compilations at once (default: every core; 1 when the device is the CPU)")
        ->check(CLI::Range(0, 256));
    command->add_flag("--json", args->json,
                      "print the rounds, the best schedule and the baselines as JSON");
    command->add_flag("-q,--quiet", args->quiet, "no progress lines on stderr");
    command->callback([&action, args] {
        action = [args] {
            TuneOptions options;
            options.source = args->source;
            options.device = parseDevicePreference(args->device);
            options.rounds = args->rounds;
            options.batch = args->batch;
            args->measuring.applyTo(options);
            options.search = args->search.build();
            options.compileJobs = args->jobs;
            options.runId = args->runId;
            options.resume = args->resume;
            options.fresh = args->fresh;
            options.modelPath = args->modelOut;
            const std::unique_ptr<MeasurementStore> store =
                openStore(args->db.empty() ? MeasurementStore::defaultPath() : args->db);
            options.store = store.get();
            const InterruptScope interrupt;
            options.cancel = interrupt.token();
            if (!args->quiet) {
                options.log = [](const std::string &line) {
                    std::cerr << "tune: " << line << "\n";
                };
                options.onRunnerProgress = MeasureCliOptions::progressPrinter("tune: ");
            }
            const TuneReport report = runTune(options);
            if (args->json) {
                std::cout << report.toJson().dump(2) << "\n";
            } else {
                report.printSummary(std::cout);
            }
            return report.cancelled ? 130 : 0;
        };
    });
}

} // namespace beamscope::cli
