// `beamscope-cli ablate [APP...]`: the paper's Tables 1-3 for this implementation — states
// evaluated and search time for every on/off combination of sampling, freezing and
// memoization, per app, optionally next to Halide's own Anderson2021 autoscheduler. The runs and
// Table 1's figures are core/ablate's; this file parses the options and prints the table (or
// one JSON object per app and combination).
#include "Commands.h"
#include "PaperTable1.h"

#include "ablate/Ablation.h"

#include <iomanip>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

namespace beamscope::cli {

namespace {

struct AblateArgs {
    std::vector<std::string> apps;
    int beam = 32;
    int passes = 5;
    uint64_t seed = 0;
    std::string gpu = "v100";
    bool quick = false;
    bool anderson = false;
    bool andersonOnly = false;
    bool json = false;
    bool wideTilings = false;
    bool noParallelFilter = false;
    std::vector<std::string> andersonParams; ///< KEY=VALUE, Halide's Anderson2021 names
};

/// Table 1 of the paper: states evaluated with sampling and freezing on, as a percentage of
/// both off (the catalog's names), from resources/paper/anderson2021_table1.json.
std::map<std::string, double> paperTable1Percent() {
    const nlohmann::json table = nlohmann::json::parse(kPaperTable1Json);
    return table.at("states_percent_both_on").get<std::map<std::string, double>>();
}

AblationOptions ablationOptions(const AblateArgs &args) {
    AblationOptions options;
    options.search.beamSize = args.beam;
    options.search.passes = args.passes;
    options.search.seed = args.seed;
    // The paper's tables: freezing, when on, applies to every pipeline.
    options.search.freezeMinFuncs = 0;
    options.search.gpu = GpuSpec::load(args.gpu);
    options.search.space.wideTilings = args.wideTilings;
    options.search.space.parallelismFilter = !args.noParallelFilter;
    if (!args.andersonOnly) options.combinations = ablationCombinations(args.quick);
    options.andersonParams = parseAndersonParams(args.andersonParams);
    options.paperPercent = paperTable1Percent();
    return options;
}

void printHeader(const AblationOptions &options, bool anderson) {
    // Table 1's fraction: S F M against - - M (all-on and all-off are always among them).
    const bool fraction = !options.combinations.empty();
    std::cout << std::left << std::setw(26) << "app";
    for (const AblationCombination &c : options.combinations)
        std::cout << std::right << std::setw(22) << c.name();
    if (fraction) std::cout << std::setw(10) << "on/off" << std::setw(10) << "paper";
    if (anderson) std::cout << std::setw(16) << "Anderson2021" << std::setw(10) << "ours/A21";
    std::cout << "\n" << std::left << std::setw(26) << "(S sampling, F freezing, M memo)";
    for (size_t i = 0; i < options.combinations.size(); ++i)
        std::cout << std::right << std::setw(22) << "evaluated  ms";
    if (fraction) std::cout << std::setw(10) << "states" << std::setw(10) << "Table 1";
    std::cout << "\n";
}

void printRun(const std::string &app, const AblationRun &run, bool json) {
    if (json) {
        std::cout << nlohmann::json{{"app", app},
                                    {"combination", run.combination.name()},
                                    {"evaluated", run.counters.evaluated},
                                    {"enumerated", run.counters.enumerated},
                                    {"featurizations", run.counters.featurizations},
                                    {"search_ms", run.searchMs},
                                    {"cost", run.cost}}
                         .dump()
                  << "\n";
        return;
    }
    std::ostringstream cell;
    cell << run.counters.evaluated << " " << std::fixed << std::setprecision(0) << run.searchMs;
    std::cout << std::right << std::setw(22) << cell.str() << std::flush;
}

void printFraction(const AblationApp &app) {
    std::ostringstream cells;
    cells << std::fixed << std::setprecision(2) << std::setw(9) << *app.percentOfOff << "%";
    if (app.paperPercent)
        cells << std::setw(9) << *app.paperPercent << "%";
    else
        cells << std::setw(10) << "-";
    std::cout << cells.str();
}

void printAnderson(const AblationApp &app, const AutoschedulerRun &t, bool json) {
    if (json) {
        std::cout << nlohmann::json{{"app", app.app},
                                    {"combination", "anderson2021"},
                                    {"search_ms", t.milliseconds},
                                    {"error", t.error}}
                         .dump()
                  << "\n";
    } else if (t.error.empty()) {
        std::cout << std::right << std::setw(16) << std::fixed << std::setprecision(0)
                  << t.milliseconds << std::setw(10);
        // Without our all-on run (--anderson2021-only) there is no ratio.
        if (app.allOnMs > 0)
            std::cout << std::setprecision(3) << app.allOnMs / t.milliseconds;
        else
            std::cout << "-";
    } else {
        std::cout << "  Anderson2021 failed: " << t.error;
    }
}

void printSummary(const AblationSummary &summary) {
    std::cout << std::fixed << std::setprecision(2)
              << "states evaluated with sampling and freezing on: " << summary.percent
              << "% of both off, geomean over " << summary.apps << " apps";
    if (summary.paperPercent)
        std::cout << " (the paper's Table 1 on the same apps: " << *summary.paperPercent << "%)";
    std::cout << "\n";
}

int runAblate(AblateArgs &args) {
    const AblationOptions options = ablationOptions(args);
    const bool anderson = args.anderson || args.andersonOnly;
    if (!args.json) printHeader(options, anderson);
    std::vector<AblationApp> results;
    for (const std::string &name : ablationApps(args.apps)) {
        if (!args.json) std::cout << std::left << std::setw(26) << name << std::flush;
        AblationApp app = ablateApp(
            name, options, [&](const AblationRun &run) { printRun(name, run, args.json); });
        if (!args.json && app.percentOfOff) printFraction(app);
        if (anderson) printAnderson(app, ablateAnderson2021(name, options), args.json);
        if (!args.json) std::cout << "\n";
        results.push_back(std::move(app));
    }
    const AblationSummary summary = summarizeAblation(results);
    if (!args.json && summary.apps > 0) printSummary(summary);
    return 0;
}

} // namespace

void addAblateCommand(CLI::App &app, CommandAction &action) {
    auto *command = app.add_subcommand(
        "ablate", "states evaluated and search time for all on/off combinations of sampling, "
                  "freezing and memoization (the paper's Tables 1-3)");
    auto args = std::make_shared<AblateArgs>();
    command->add_option("apps", args->apps, "catalog apps (default: all)");
    command->add_option("--beam", args->beam, "beam size")->check(CLI::Range(1, 4096));
    command->add_option("--passes", args->passes, "passes")->check(CLI::Range(1, 16));
    command->add_option("--seed", args->seed, "sampling seed");
    command->add_option("--gpu", args->gpu, "GPU preset or JSON file");
    command->add_flag("--quick", args->quick, "only all-on and all-off");
    command->add_flag("--anderson2021", args->anderson,
                      "also time Halide's Anderson2021 plugin on the same apps and GPU");
    command->add_flag("--anderson2021-only", args->andersonOnly, "only time Anderson2021");
    command->add_option("--anderson2021-param", args->andersonParams,
                        "extra Anderson2021 parameter as KEY=VALUE (repeatable), e.g. "
                        "randomize_tilings=1 freeze_inline_compute_root=1 (its sampling and "
                        "freezing, off by default)");
    command->add_flag("--json", args->json, "one JSON object per app and combination");
    command->add_flag(
        "--wide-tilings", args->wideTilings,
        "the authors' tiling space: serial sizes on every dimension, thread dimensions chosen");
    command->add_flag(
        "--no-parallel-filter", args->noParallelFilter,
        "keep root tilings with fewer than 2x the SMs' blocks (no parallelism filter)");
    command->callback([&action, args] { action = [args] { return runAblate(*args); }; });
}

} // namespace beamscope::cli
