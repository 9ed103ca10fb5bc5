// `beamscope-cli ablate [APP...]`: the paper's Tables 1-3 for this implementation — states
// evaluated and search time for every on/off combination of sampling, freezing and
// memoization, per app, optionally next to Halide's own Anderson2021 autoscheduler.
#include "Commands.h"
#include "PaperTable1.h"

#include "measure/UpstreamAutoscheduler.h"
#include "pipeline/AppCatalog.h"
#include "search/SearchEngine.h"
#include "util/Error.h"

#include <cmath>
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

struct Combination {
    bool sampling, freezing, memo;
    std::string name() const {
        return std::string(sampling ? "S" : "-") + (freezing ? "F" : "-") + (memo ? "M" : "-");
    }
};

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
    command->callback([&action, args] {
        action = [args] {
            std::vector<std::string> apps = args->apps;
            if (apps.empty()) {
                for (const AppDefinition &a : appCatalog())
                    apps.push_back(a.name);
            }
            std::vector<Combination> combos;
            for (int mask = 7; mask >= 0; --mask) {
                Combination c{bool(mask & 4), bool(mask & 2), bool(mask & 1)};
                if (args->quick && mask != 7 && mask != 0) continue;
                if (args->andersonOnly) continue;
                combos.push_back(c);
            }
            const GpuSpec gpu = GpuSpec::load(args->gpu);
            std::map<std::string, std::string> extra;
            for (const std::string &kv : args->andersonParams) {
                const size_t eq = kv.find('=');
                if (eq == std::string::npos || eq == 0)
                    throw UsageError("--anderson2021-param wants KEY=VALUE, not '" + kv + "'");
                extra[kv.substr(0, eq)] = kv.substr(eq + 1);
            }
            args->anderson |= args->andersonOnly;
            // Table 1's fraction: S F M against - - M (memoization does not change the counts).
            const bool fraction = !combos.empty(); // all-on and all-off are always among them
            const std::map<std::string, double> paperTable = paperTable1Percent();
            double logFractions = 0, logPaper = 0;
            int fractions = 0, papers = 0;
            if (!args->json) {
                std::cout << std::left << std::setw(26) << "app";
                for (const Combination &c : combos)
                    std::cout << std::right << std::setw(22) << c.name();
                if (fraction) std::cout << std::setw(10) << "on/off" << std::setw(10) << "paper";
                if (args->anderson)
                    std::cout << std::setw(16) << "Anderson2021" << std::setw(10) << "ours/A21";
                std::cout << "\n"
                          << std::left << std::setw(26) << "(S sampling, F freezing, M memo)";
                for (size_t i = 0; i < combos.size(); ++i)
                    std::cout << std::right << std::setw(22) << "evaluated  ms";
                if (fraction) std::cout << std::setw(10) << "states" << std::setw(10) << "Table 1";
                std::cout << "\n";
            }
            for (const std::string &name : apps) {
                auto dag = std::make_shared<const FunctionDAG>(buildApp(name));
                if (!args->json) std::cout << std::left << std::setw(26) << name << std::flush;
                double allOnMs = 0;
                int64_t onStates = 0, offStates = 0;
                for (const Combination &c : combos) {
                    SearchOptions options;
                    options.beamSize = args->beam;
                    options.passes = args->passes;
                    options.seed = args->seed;
                    options.gpu = gpu;
                    options.sampling = c.sampling;
                    options.freezing = c.freezing;
                    options.memoization = c.memo;
                    options.space.wideTilings = args->wideTilings;
                    options.space.parallelismFilter = !args->noParallelFilter;
                    SearchEngine engine(dag, options);
                    engine.run();
                    if (c.sampling && c.freezing && c.memo) {
                        allOnMs = engine.elapsedMs();
                        onStates = engine.counters().evaluated;
                    }
                    if (!c.sampling && !c.freezing) offStates = engine.counters().evaluated;
                    if (args->json) {
                        std::cout << nlohmann::json{{"app", name},
                                                    {"combination", c.name()},
                                                    {"evaluated", engine.counters().evaluated},
                                                    {"enumerated", engine.counters().enumerated},
                                                    {"featurizations",
                                                     engine.counters().featurizations},
                                                    {"search_ms", engine.elapsedMs()},
                                                    {"cost", engine.best()->cost.total}}
                                         .dump()
                                  << "\n";
                    } else {
                        std::ostringstream cell;
                        cell << engine.counters().evaluated << " " << std::fixed
                             << std::setprecision(0) << engine.elapsedMs();
                        std::cout << std::right << std::setw(22) << cell.str() << std::flush;
                    }
                }
                if (fraction && !args->json && onStates > 0 && offStates > 0) {
                    const double percent = 100.0 * double(onStates) / double(offStates);
                    logFractions += std::log(percent);
                    ++fractions;
                    std::ostringstream cells;
                    cells << std::fixed << std::setprecision(2) << std::setw(9) << percent << "%";
                    const auto paper = paperTable.find(name);
                    if (paper != paperTable.end()) {
                        cells << std::setw(9) << paper->second << "%";
                        logPaper += std::log(paper->second);
                        ++papers;
                    } else {
                        cells << std::setw(10) << "-";
                    }
                    std::cout << cells.str();
                }
                if (args->anderson) {
                    const AutoschedulerRun t =
                        runAnderson2021(buildApp(name), gpu, args->beam, extra);
                    if (args->json) {
                        std::cout << nlohmann::json{{"app", name},
                                                    {"combination", "anderson2021"},
                                                    {"search_ms", t.milliseconds},
                                                    {"error", t.error}}
                                         .dump()
                                  << "\n";
                    } else if (t.error.empty()) {
                        std::cout << std::right << std::setw(16) << std::fixed
                                  << std::setprecision(0) << t.milliseconds << std::setw(10);
                        // Without our all-on run (--anderson2021-only) there is no ratio.
                        if (allOnMs > 0)
                            std::cout << std::setprecision(3) << allOnMs / t.milliseconds;
                        else
                            std::cout << "-";
                    } else {
                        std::cout << "  Anderson2021 failed: " << t.error;
                    }
                }
                if (!args->json) std::cout << "\n";
            }
            if (!args->json && fractions > 0) {
                std::cout << std::fixed << std::setprecision(2)
                          << "states evaluated with sampling and freezing on: "
                          << std::exp(logFractions / fractions) << "% of both off, geomean over "
                          << fractions << " apps";
                if (papers == fractions)
                    std::cout << " (the paper's Table 1 on the same apps: "
                              << std::exp(logPaper / papers) << "%)";
                std::cout << "\n";
            }
            return 0;
        };
    });
}

} // namespace beamscope::cli
