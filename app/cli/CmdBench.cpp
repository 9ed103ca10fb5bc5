// `beamscope-cli bench APP [options]`: sample candidate schedules (beam + greedy with dropout),
// compile and measure them out of process on the detected device, apply the post-compile
// filter of paper 6.1, and print them beside Halide's own autoschedulers and a naive schedule.
// Every row that runs is recorded in the measurement database (--db, default the user's), and
// a candidate already measured on this device is reused unless --fresh. Ctrl-C kills the
// running workers and prints what finished (exit 130).
#include "CliOption.h"
#include "Commands.h"
#include "InterruptScope.h"
#include "MeasureCliOptions.h"
#include "SearchCliOptions.h"

#include "bench/BenchRun.h"
#include "store/BenchRecorder.h"
#include "store/MeasurementStore.h"
#include "util/Error.h"

#include <iostream>

namespace beamscope::cli {

namespace {

struct BenchArgs {
    PipelineSource source;
    std::string device = "auto";
    std::string mode = "oneshot";
    int top = 5;
    bool measure = true; ///< oneshot: measure the chosen schedule (--no-measure: compile only)
    SearchCliOptions search;
    MeasureCliOptions measuring;
    int ptx = -1;
    bool json = false;
    bool quiet = false;
    std::string db;
    bool noDb = false;
    bool fresh = false;
    bool baselinesFirst = false;
};

/// The measurement database of `args`, or null (--no-db, or it cannot be opened: a one-line
/// warning and the benchmark goes on without recording).
std::unique_ptr<MeasurementStore> openStore(const BenchArgs &args) {
    if (args.noDb) return nullptr;
    try {
        return std::make_unique<MeasurementStore>(args.db.empty() ? MeasurementStore::defaultPath()
                                                                  : args.db);
    } catch (const StoreError &e) {
        std::cerr << "beamscope-cli: measurement database: " << storeErrorReason(e.what())
                  << "; measurements are not recorded\n";
        return nullptr;
    }
}

} // namespace

void addBenchCommand(CLI::App &app, CommandAction &action) {
    auto *command = app.add_subcommand(
        "bench", "compile and benchmark candidate schedules and baselines on the local device");
    auto args = std::make_shared<BenchArgs>();
    addPipelineOptions(*command, args->source);
    command->add_option("--device", args->device, "auto, cuda, opencl or none (compile only)")
        ->check(CLI::IsMember({"auto", "cuda", "opencl", "none"}));
    command
        ->add_option("--mode", args->mode,
                     "oneshot: of the top K of the beam and K greedy samples, the best "
                     "predicted that passes the spill filter, measured (see --no-measure); "
                     "topk: measure them all and keep the fastest correct")
        ->check(CLI::IsMember({"oneshot", "topk"}));
    command->add_option("--top", args->top, "K: beam entries and greedy samples")
        ->check(CLI::Range(1, 64));
    command->add_flag("--measure,!--no-measure", args->measure,
                      "oneshot: measure the chosen schedule and the baselines (the default); "
                      "--no-measure compiles them only");
    args->measuring.addTo(*command, "comma-separated: " + baselineNames());
    args->search.addTo(*command, /*gpuFromDevice=*/true); // greedy sample i uses seed + 1 + i
    command->add_option("--ptx", args->ptx,
                        "compute capability for the ptxas register/spill report (0: off; default: "
                        "the CUDA device's, else the GPU model's)");
    addOption(*command, options::database, args->db,
              " (default: $XDG_DATA_HOME/beamscope/measurements.sqlite)");
    command->add_flag("--no-db", args->noDb, "do not record or reuse measurements");
    command->add_flag("--fresh", args->fresh,
                      "measure every candidate, even those the database already has");
    command->add_flag("--baselines-first", args->baselinesFirst,
                      "topk: start the baselines first, beside the candidates (a plugin that "
                      "searches for minutes no longer waits for them)");
    command->add_flag("--json", args->json, "print the report as JSON");
    command->add_flag("-q,--quiet", args->quiet, "no progress lines on stderr");
    command->callback([&action, args] {
        action = [args] {
            BenchOptions options;
            options.source = args->source;
            options.device = parseDevicePreference(args->device);
            options.mode = args->mode == "topk" ? BenchMode::TopK : BenchMode::OneShot;
            options.top = args->top;
            options.measureOneShot = args->measure;
            args->measuring.applyTo(options);
            options.search = args->search.build();
            options.ptxCapability = args->ptx;
            const std::unique_ptr<MeasurementStore> store = openStore(*args);
            options.store = store.get();
            options.fresh = args->fresh;
            options.baselinesFirst = args->baselinesFirst;
            if (!args->quiet) {
                options.progress = [](const std::string &line) {
                    std::cerr << "bench: " << line << "\n";
                };
                options.onRunnerProgress = MeasureCliOptions::progressPrinter("bench: ");
            }
            const InterruptScope interrupt;
            options.cancel = interrupt.token();
            const BenchReport report = runBenchmark(options);
            if (args->json) {
                std::cout << report.toJson().dump(2) << "\n";
            } else {
                report.printTable(std::cout);
            }
            return report.cancelled ? 130 : 0;
        };
    });
}

} // namespace beamscope::cli
