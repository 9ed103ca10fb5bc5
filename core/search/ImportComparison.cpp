// Comparing Beamscope's search with an imported schedule: one search, a Why not? per imported
// decision observing its steps, both schedules costed with one model; JSON and text reports.
#include "search/ImportComparison.h"

#include "cost/CostModelFactory.h"
#include "cost/CostOf.h"
#include "schedule/ScheduleIO.h"
#include "search/PlacementPin.h"
#include "search/TermsJson.h"
#include "util/Error.h"
#include "util/Text.h"

#include <cmath>
#include <iomanip>
#include <ostream>

namespace beamscope {

namespace {

/// Per stage of `dag`, the cost of that stage in `cost` (nullptr when it has none).
const StageCost *stageCost(const StateCost &cost, int node, int stage) {
    for (const StageCost &s : cost.stages)
        if (s.node == node && s.stage == stage) return &s;
    return nullptr;
}

} // namespace

ImportComparison compareWithImport(const std::shared_ptr<const FunctionDAG> &dag,
                                   const SearchOptions &options, const ScheduleImport &imported,
                                   const std::string &what, const CancelToken *cancel) {
    ImportComparison c;
    c.what = what;
    if (imported.state) {
        // The import's DAG is another instance's: replay it here by Func name.
        c.theirs = scheduleFromJson(dag, scheduleToJson(*imported.state));
    }
    // One Why not? per representable decision, all following the same search.
    std::vector<std::unique_ptr<WhyNot>> whys(imported.funcs.size());
    for (const ImportedFunc &f : imported.funcs) {
        FuncComparison fc;
        fc.name = f.name;
        fc.theirs = f.theirs;
        fc.representable = f.representable;
        fc.constructs = f.constructs;
        fc.differences = f.differences;
        fc.node = dag->find(f.name);
        if (fc.node < 0) {
            throw Error("the imported schedule names '" + f.name +
                        "', which the pipeline does not have");
        }
        if (!f.representable || !f.placement) {
            fc.whyError = "not representable in Beamscope's space";
        } else {
            try {
                whys[c.funcs.size()] = std::make_unique<WhyNot>(
                    dag, options, pinOfPlacement(*dag, fc.node, *f.placement));
            } catch (const Error &e) {
                fc.whyError = e.what();
            }
        }
        c.funcs.push_back(std::move(fc));
    }
    SearchEngine engine(dag, options);
    while (!engine.finished()) {
        const SearchStepPtr step = engine.step(cancel);
        for (auto &w : whys)
            if (w) w->observe(step);
    }
    c.searchMs = engine.elapsedMs();
    if (!engine.best()) throw Error("the search found no complete schedule");
    c.ours = engine.best()->state;
    for (size_t i = 0; i < c.funcs.size(); ++i) {
        FuncComparison &fc = c.funcs[i];
        fc.ours = describePlacement(*dag, fc.node, c.ours->placement(fc.node));
        if (whys[i]) fc.why = whys[i]->result();
    }
    c.model = options.costModel;
    const ModelCost ours = costOf(*c.ours, options.costModel, options.gpu);
    c.oursCost = ours.cost;
    c.termNames = ours.termNames;
    if (c.theirs) c.theirsCost = costOf(*c.theirs, options.costModel, options.gpu).cost;
    return c;
}

nlohmann::json comparisonToJson(const ImportComparison &c) {
    nlohmann::json funcs = nlohmann::json::array();
    int representable = 0;
    for (const FuncComparison &f : c.funcs) {
        representable += f.representable ? 1 : 0;
        nlohmann::json why = nullptr;
        if (f.why) {
            why = {{"verdict", whyVerdictName(f.why->answer.verdict)},
                   {"decision", f.why->decision},
                   {"step", f.why->answer.step},
                   {"pass", f.why->answer.pass},
                   {"detail", f.why->answer.detail}};
        } else {
            why = {{"verdict", nullptr}, {"detail", f.whyError}};
        }
        funcs.push_back(
            {{"name", f.name},
             {"ours", f.ours},
             {"theirs", f.theirs},
             {"representable", f.representable},
             {"reason", f.representable ? nlohmann::json(nullptr)
                                        : nlohmann::json(joinStrings(f.constructs, "; "))},
             {"constructs", f.constructs},
             {"differences", f.differences},
             {"why_not", why}});
    }
    nlohmann::json stages = nlohmann::json::array();
    const FunctionDAG &dag = c.ours->dag();
    for (const Node &n : dag.nodes()) {
        for (size_t s = 0; s < n.stages.size(); ++s) {
            const StageCost *o = stageCost(c.oursCost, n.index, int(s));
            const StageCost *t = c.theirsCost ? stageCost(*c.theirsCost, n.index, int(s)) : nullptr;
            if (!o && !t) continue;
            const auto side = [&](const StageCost *sc) {
                if (!sc) return nlohmann::json(nullptr);
                nlohmann::json j = termsJson(sc->terms, c.termNames);
                j["total"] = sc->total();
                return j;
            };
            stages.push_back({{"stage", n.stages[s].name}, {"ours", side(o)}, {"theirs", side(t)}});
        }
    }
    nlohmann::json cost = {
        {"model", c.model},
        {"ours", c.oursCost.total},
        {"theirs", c.theirsCost ? nlohmann::json(c.theirsCost->total) : nlohmann::json(nullptr)},
        {"terms",
         {{"ours", termsJson(c.oursCost.terms, c.termNames)},
          {"theirs",
           c.theirsCost ? termsJson(c.theirsCost->terms, c.termNames) : nlohmann::json(nullptr)}}},
        {"stages", stages}};
    return {{"with", c.what},
            {"funcs", funcs},
            {"representable", representable == int(c.funcs.size())},
            {"cost", cost}};
}

void printComparison(const ImportComparison &c, std::ostream &os) {
    int representable = 0;
    for (const FuncComparison &f : c.funcs)
        representable += f.representable ? 1 : 0;
    os << c.ours->dag().pipelineName() << ": Beamscope's search against " << c.what << " ("
       << representable << " of " << c.funcs.size() << " Funcs representable)\n";
    for (const FuncComparison &f : c.funcs) {
        os << f.name << "\n  ours:   " << f.ours << "\n  theirs: " << f.theirs << "\n";
        if (!f.representable) {
            for (const std::string &s : f.constructs)
                os << "  not representable: " << s << "\n";
        }
        for (const std::string &s : f.differences)
            os << "  lowered differently: " << s << "\n";
        if (f.why) {
            os << "  why not: " << whyVerdictName(f.why->answer.verdict) << " at step "
               << f.why->answer.step << ": " << f.why->answer.detail << "\n";
        } else {
            os << "  why not: " << f.whyError << "\n";
        }
    }
    os << "predicted (" << c.model << "): ours " << c.oursCost.total << " ms, theirs ";
    if (c.theirsCost) {
        os << c.theirsCost->total << " ms\n";
        for (size_t t = 0; t < c.termNames.size(); ++t) {
            os << "  " << std::left << std::setw(12) << c.termNames[t] << std::right << " ours "
               << c.oursCost.terms[t] << ", theirs " << c.theirsCost->terms[t] << "\n";
        }
    } else {
        os << "not costed (not every Func is representable)\n";
    }
}

} // namespace beamscope
