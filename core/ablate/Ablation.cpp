// Ablation: the combinations, one app's searches under each, Table 1's figure and its geomean.
#include "ablate/Ablation.h"

#include "pipeline/AppCatalog.h"
#include "util/Error.h"

#include <cmath>

namespace beamscope {

std::string AblationCombination::name() const {
    return std::string(sampling ? "S" : "-") + (freezing ? "F" : "-") + (memo ? "M" : "-");
}

std::vector<AblationCombination> ablationCombinations(bool quick) {
    std::vector<AblationCombination> combinations;
    for (int mask = 7; mask >= 0; --mask) {
        if (quick && mask != 7 && mask != 0) continue;
        combinations.push_back({bool(mask & 4), bool(mask & 2), bool(mask & 1)});
    }
    return combinations;
}

std::vector<std::string> ablationApps(const std::vector<std::string> &names) {
    if (!names.empty()) return names;
    std::vector<std::string> apps;
    for (const AppDefinition &a : appCatalog())
        apps.push_back(a.name);
    return apps;
}

std::map<std::string, std::string> parseAndersonParams(const std::vector<std::string> &keyValues) {
    std::map<std::string, std::string> params;
    for (const std::string &kv : keyValues) {
        const size_t eq = kv.find('=');
        if (eq == std::string::npos || eq == 0)
            throw UsageError("--anderson2021-param wants KEY=VALUE, not '" + kv + "'");
        params[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    return params;
}

AblationApp ablateApp(const std::string &app, const AblationOptions &options,
                      const std::function<void(const AblationRun &)> &onRun) {
    AblationApp out;
    out.app = app;
    auto dag = std::make_shared<const FunctionDAG>(buildApp(app));
    int64_t onStates = 0, offStates = 0;
    for (const AblationCombination &c : options.combinations) {
        SearchOptions search = options.search;
        search.sampling = c.sampling;
        search.freezing = c.freezing;
        search.memoization = c.memo;
        SearchEngine engine(dag, search);
        engine.run();
        AblationRun run{c, engine.counters(), engine.elapsedMs(), engine.best()->cost.total};
        if (c.sampling && c.freezing && c.memo) {
            out.allOnMs = run.searchMs;
            onStates = run.counters.evaluated;
        }
        // Memoization does not change the counts: S F M against - - M, or - - -.
        if (!c.sampling && !c.freezing) offStates = run.counters.evaluated;
        out.runs.push_back(run);
        if (onRun) onRun(run);
    }
    if (onStates > 0 && offStates > 0) {
        out.percentOfOff = 100.0 * double(onStates) / double(offStates);
        const auto paper = options.paperPercent.find(app);
        if (paper != options.paperPercent.end()) out.paperPercent = paper->second;
    }
    return out;
}

AutoschedulerRun ablateAnderson2021(const std::string &app, const AblationOptions &options) {
    return runAnderson2021(buildApp(app), options.search.gpu, options.search.beamSize,
                           options.andersonParams);
}

AblationSummary summarizeAblation(const std::vector<AblationApp> &apps) {
    AblationSummary summary;
    double logPercent = 0, logPaper = 0;
    int papers = 0;
    for (const AblationApp &a : apps) {
        if (!a.percentOfOff) continue;
        logPercent += std::log(*a.percentOfOff);
        ++summary.apps;
        if (a.paperPercent) {
            logPaper += std::log(*a.paperPercent);
            ++papers;
        }
    }
    if (summary.apps == 0) return summary;
    summary.percent = std::exp(logPercent / summary.apps);
    if (papers == summary.apps) summary.paperPercent = std::exp(logPaper / papers);
    return summary;
}

} // namespace beamscope
