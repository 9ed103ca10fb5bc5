// Ablation: the paper's Tables 1-3 for this implementation (`beamscope-cli ablate`). For each
// catalog app, the search runs under each on/off combination of hierarchical sampling (S),
// freezing (F) and memoized featurization (M); what it counts (states evaluated, enumerated,
// featurizations) and how long it took are kept. Table 1's figure is the states evaluated with
// sampling and freezing on as a percentage of both off, per app and as a geomean over the apps,
// beside the paper's own. Halide's Anderson2021 plugin can be timed on the same app and GPU.
#pragma once

#include "measure/UpstreamAutoscheduler.h"
#include "search/SearchEngine.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace beamscope {

/// Which of the three techniques a run has on.
struct AblationCombination {
    bool sampling = true, freezing = true, memo = true;
    /// "SFM" with a '-' for each one off ("S-M", "---").
    std::string name() const;
};

/// Every combination, all on first and all off last; `quick`: only those two.
std::vector<AblationCombination> ablationCombinations(bool quick);

struct AblationOptions {
    /// Beam, passes, seed, GPU and search space; sampling, freezing and memoization are set per
    /// combination.
    SearchOptions search;
    std::vector<AblationCombination> combinations;
    /// Halide's Anderson2021 parameters beyond the GPU's and the beam size (KEY=VALUE).
    std::map<std::string, std::string> andersonParams;
    /// The paper's Table 1 per app (percent of the states with both off), where it has the app.
    std::map<std::string, double> paperPercent;
};

/// One search under one combination.
struct AblationRun {
    AblationCombination combination;
    SearchCounters counters;
    double searchMs = 0; ///< wall time: not deterministic
    double cost = 0;     ///< the result's predicted cost, ms
};

/// One app's runs and Table 1's figure for it.
struct AblationApp {
    std::string app;
    std::vector<AblationRun> runs;
    /// States evaluated with S and F on as a percentage of both off; absent unless both ran
    /// and evaluated states.
    std::optional<double> percentOfOff;
    std::optional<double> paperPercent; ///< the paper's figure for the app, when it has one
    /// The all-on run's search time (0 when it did not run).
    double allOnMs = 0;
};

/// The geomean of Table 1's figure over the apps that have one.
struct AblationSummary {
    int apps = 0;       ///< apps with a figure (0: no summary)
    double percent = 0; ///< geomean of their figures
    /// The paper's geomean over the same apps, when the paper has every one of them.
    std::optional<double> paperPercent;
};

/// The catalog apps to ablate: `names`, or every catalog app when it is empty.
std::vector<std::string> ablationApps(const std::vector<std::string> &names);

/// Parses Anderson2021 parameters given as KEY=VALUE (throws UsageError naming a bad one).
std::map<std::string, std::string> parseAndersonParams(const std::vector<std::string> &keyValues);

/// Runs `app`'s search under each combination of `options`, in order; `onRun` (if set) sees
/// each run as it ends, so a front end can show it at once.
AblationApp ablateApp(const std::string &app, const AblationOptions &options,
                      const std::function<void(const AblationRun &)> &onRun = {});

/// Times Halide's Anderson2021 on `app` with the search's GPU and beam size and
/// options.andersonParams (an error is in the result, not thrown).
AutoschedulerRun ablateAnderson2021(const std::string &app, const AblationOptions &options);

/// Table 1's geomean over `apps`.
AblationSummary summarizeAblation(const std::vector<AblationApp> &apps);

} // namespace beamscope
