// `beamscope-cli collect`: time-boxed data collection for cost-model training (core/collect).
// Pipelines: random pipelines by seed (--random N: seeds 0..N-1, or A..B), catalog apps
// (--app NAME[,key=value...], --apps) and every generator of a library (--generator-lib), taken
// in turn; K schedules each; every row committed to the database with origin "collect". Prints
// one line per row on stderr, then the throughput line (or --json). Ctrl-C stops like the
// deadline: the workers in flight are killed, every committed row stays (exit 130).
#include "Commands.h"
#include "InterruptScope.h"
#include "SearchCliOptions.h"

#include "collect/Collector.h"
#include "pipeline/AppCatalog.h"
#include "pipeline/GeneratorLibrary.h"
#include "pipeline/random/RandomSpec.h"
#include "store/MeasurementStore.h"
#include "util/Error.h"

#include <charconv>
#include <cstdio>
#include <iostream>

namespace beamscope::cli {

namespace {

struct CollectArgs {
    double minutes = 8;
    std::string random;
    int stages = 0;
    int size = 0;
    std::vector<std::string> apps;
    bool allApps = false;
    std::vector<std::string> generatorLibs;
    int perPipeline = 8;
    int ptx = 0;
    int jobs = 0;
    std::string device = "auto";
    std::string db;
    bool resume = false;
    bool json = false;
    bool quiet = false;
    int warmup = 1, repeats = 3;
    double minTimedMs = kDefaultMinTimedMs;
    double timeout = 60, dropout = 10;
    std::string worker;
    SearchCliOptions search;
};

std::uint64_t parseSeed(const std::string &text, const std::string &whole) {
    std::uint64_t v = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size())
        throw UsageError("--random '" + whole + "': expected N (seeds 0..N-1) or A..B");
    return v;
}

/// The seeds --random names: "N" is 0..N-1, "A..B" is A to B inclusive.
std::vector<std::uint64_t> randomSeeds(const std::string &text) {
    if (text.empty()) return {};
    std::uint64_t first = 0, last = 0;
    const size_t dots = text.find("..");
    if (dots == std::string::npos) {
        const std::uint64_t n = parseSeed(text, text);
        if (n == 0) return {};
        last = n - 1;
    } else {
        first = parseSeed(text.substr(0, dots), text);
        last = parseSeed(text.substr(dots + 2), text);
    }
    if (last < first || last - first >= 1000000)
        throw UsageError("--random '" + text + "': an empty or too large range");
    std::vector<std::uint64_t> seeds;
    for (std::uint64_t s = first; s <= last; ++s)
        seeds.push_back(s);
    return seeds;
}

/// "NAME[,key=value...]" as a source.
PipelineSource appSource(const std::string &text) {
    PipelineSource source;
    size_t start = 0;
    for (size_t comma = text.find(',');; comma = text.find(',', start)) {
        const std::string part =
            text.substr(start, comma == std::string::npos ? comma : comma - start);
        if (source.name.empty())
            source.name = part;
        else
            source.params.push_back(part);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    if (!findApp(source.name))
        throw UsageError("--app: unknown app '" + source.name +
                         "' (beamscope-cli apps lists them)");
    parseAppParams(source.params); // malformed parameters fail here, before the run
    return source;
}

/// Every pipeline asked for, the lists taken in turn (a random pipeline, an app, a generator,
/// the next random pipeline, ...) so a short run samples each kind.
std::vector<PipelineSource> pipelinesOf(const CollectArgs &args) {
    std::vector<std::vector<PipelineSource>> lists(3);
    for (std::uint64_t seed : randomSeeds(args.random)) {
        PipelineSource s;
        s.name = formatRandomSpec({seed, args.stages});
        if (args.size > 0) s.params.push_back("size=" + std::to_string(args.size));
        lists[0].push_back(s);
    }
    for (const std::string &app : args.apps)
        lists[1].push_back(appSource(app));
    if (args.allApps) {
        for (const AppDefinition &app : appCatalog())
            lists[1].push_back(PipelineSource{app.name, "", {}});
    }
    for (const std::string &lib : args.generatorLibs) {
        const GeneratorLibrary library = GeneratorLibrary::open(lib);
        for (const std::string &name : library.generators())
            lists[2].push_back(PipelineSource{name, lib, {}});
    }
    std::vector<PipelineSource> all;
    for (size_t i = 0;; ++i) {
        bool any = false;
        for (const auto &list : lists) {
            if (i < list.size()) {
                all.push_back(list[i]);
                any = true;
            }
        }
        if (!any) break;
    }
    return all;
}

std::string rowLine(const Measurement &m) {
    char time[64] = "";
    if (m.measuredMs) std::snprintf(time, sizeof time, "%.4f ms", m.measuredMs->median);
    std::string verdict = m.failed()                  ? "failed: " + m.failure
                          : m.correct.value_or(false) ? "correct"
                                                      : "wrong output";
    return "collect: " + m.label + " " + time + " " + verdict;
}

} // namespace

void addCollectCommand(CLI::App &app, CommandAction &action) {
    auto *command = app.add_subcommand(
        "collect", "time-boxed data collection: measure K schedules of many pipelines, every row "
                   "into the measurement database");
    auto args = std::make_shared<CollectArgs>();
    command->add_option("--minutes", args->minutes, "deadline of the run, minutes")
        ->check(CLI::PositiveNumber);
    command->add_option("--random", args->random,
                        "random pipelines: N (seeds 0..N-1) or A..B (seeds A to B)");
    command->add_option("--stages", args->stages, "random pipelines' Funcs (default: by seed)")
        ->check(CLI::Range(kMinRandomStages, kMaxRandomStages));
    command
        ->add_option("--size", args->size,
                     "random pipelines' input width (default: by seed; 32 for PoCL)")
        ->check(CLI::Range(8, 4096));
    command->add_option("--app", args->apps, "catalog app NAME[,key=value...] (repeatable)")
        ->allow_extra_args(false);
    command->add_flag("--apps", args->allApps, "every catalog app at its default size");
    command
        ->add_option("--generator-lib", args->generatorLibs,
                     "every generator of this library (repeatable)")
        ->allow_extra_args(false);
    command
        ->add_option("--per-pipeline", args->perPipeline,
                     "K schedules per pipeline: top of the beam, greedy with dropout, random")
        ->check(CLI::Range(1, 256));
    command->add_option("--jobs", args->jobs, "workers at once (default: every core)")
        ->check(CLI::Range(1, 1024));
    command->add_option("--device", args->device, "auto, cuda or opencl")
        ->check(CLI::IsMember({"auto", "cuda", "opencl"}));
    command->add_option("--db", args->db,
                        "measurement database (default: "
                        "$XDG_DATA_HOME/beamscope/measurements.sqlite)");
    command
        ->add_option("--ptx", args->ptx,
                     "compute capability for ptxas's registers and spills per kernel in every "
                     "row (0: off, the default; -1: the CUDA device's, else the GPU model's)")
        ->check(CLI::Range(-1, 1000));
    command->add_flag("--resume", args->resume,
                      "skip schedules the database already holds for this device");
    command->add_option("--warmup", args->warmup, "untimed runs first")->check(CLI::Range(0, 100));
    command->add_option("--repeats", args->repeats, "timed runs, at least")
        ->check(CLI::Range(1, 1000));
    command
        ->add_option(
            "--min-timed-ms", args->minTimedMs,
            "more timed runs (up to 100) while they add up to less than this many milliseconds: "
            "a pipeline of microseconds gets a stable minimum and median (0: the "
            "repeats alone)")
        ->check(CLI::Range(0.0, 60000.0));
    command->add_option("--timeout", args->timeout, "per worker, seconds")
        ->check(CLI::PositiveNumber);
    command->add_option("--dropout", args->dropout, "greedy samples' dropout, percent")
        ->check(CLI::Range(0.0, 100.0));
    command->add_option("--worker", args->worker, "beamscope-worker path");
    command->add_flag("--json", args->json,
                      "print the summary as JSON (the throughput line "
                      "goes to stderr)");
    command->add_flag("-q,--quiet", args->quiet, "no line per row on stderr");
    args->search.beam = 8; // collect's searches are many: a smaller beam than search's 32
    args->search.addTo(*command, /*gpuFromDevice=*/true);
    command->callback([&action, args] {
        action = [args] {
            CollectOptions options;
            options.pipelines = pipelinesOf(*args);
            if (options.pipelines.empty())
                throw UsageError("collect: no pipelines (--random, --app, --apps or "
                                 "--generator-lib)");
            options.device = parseDevicePreference(args->device);
            options.minutes = args->minutes;
            options.perPipeline = args->perPipeline;
            options.search = args->search.build();
            options.dropoutPercent = args->dropout;
            options.jobs = args->jobs;
            options.resume = args->resume;
            options.warmup = args->warmup;
            options.repeats = args->repeats;
            options.minTimedMs = args->minTimedMs;
            options.timeoutS = args->timeout;
            options.ptxCapability = args->ptx;
            options.workerPath = args->worker;
            MeasurementStore store(args->db.empty() ? MeasurementStore::defaultPath() : args->db);
            options.store = &store;
            options.log = [](const std::string &line) { std::cerr << "collect: " << line << "\n"; };
            if (!args->quiet) {
                options.onRow = [](const std::string &, const Measurement &m) {
                    std::cerr << rowLine(m) << "\n";
                };
            }
            const InterruptScope interrupt;
            options.cancel = interrupt.token();
            const CollectReport report = runCollect(options);
            if (args->json) {
                nlohmann::json j = report.toJson();
                j["db"] = store.path();
                std::cout << j.dump(2) << "\n";
                std::cerr << report.timeLine() << "\n" << report.throughputLine() << "\n";
            } else {
                for (const std::string &e : report.errors)
                    std::cout << "collect: not collected: " << e << "\n";
                std::cout << report.timeLine() << "\n" << report.throughputLine() << "\n";
            }
            if (report.stop == "interrupted") return 130;
            return report.pipelinesStarted == 0 && report.pipelinesFailed > 0 ? 1 : 0;
        };
    });
}

} // namespace beamscope::cli
