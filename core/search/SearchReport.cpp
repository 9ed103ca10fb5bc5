// JSON of search results and steps.
#include "search/SearchReport.h"

#include <cstdio>

namespace beamscope {

std::string hashToHex(uint64_t hash) {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(hash));
    return buf;
}

namespace {

/// The terms under the names of the model that computed them.
nlohmann::json termsToJson(const CostTerms &terms, const std::vector<std::string> &names) {
    nlohmann::json j = nlohmann::json::object();
    for (size_t t = 0; t < names.size() && t < terms.size(); ++t)
        j[names[t]] = terms[t];
    return j;
}

nlohmann::json countersToJson(const SearchCounters &c) {
    return {{"enumerated", c.enumerated}, {"pruned", c.pruned},
            {"evaluated", c.evaluated},   {"featurizations", c.featurizations},
            {"memo_hits", c.memoHits},    {"memo_misses", c.memoMisses}};
}

} // namespace

nlohmann::json funcsToJson(const ScheduleState &state, const StateCost &cost) {
    const FunctionDAG &dag = state.dag();
    nlohmann::json funcs = nlohmann::json::array();
    for (const Node &n : dag.nodes()) {
        if (n.isInput) continue;
        const FuncPlacement &p = state.placement(n.index);
        double funcCost = 0;
        for (const StageCost &sc : cost.stages) {
            if (sc.node == n.index) funcCost += sc.total();
        }
        nlohmann::json tiles = {{"block", nlohmann::json::array()},
                                {"thread", nlohmann::json::array()},
                                {"serial", nlohmann::json::array()}};
        nlohmann::json stages = nlohmann::json::array();
        for (size_t s = 0; s < p.tilings.size(); ++s) {
            const StageTiling &t = p.tilings[s];
            nlohmann::json st = {{"stage", n.stages[s].name},
                                 {"block", t.blocks},
                                 {"thread", t.threads},
                                 {"serial", t.serial}};
            if (s == 0) tiles = {{"block", t.blocks}, {"thread", t.threads}, {"serial", t.serial}};
            stages.push_back(st);
        }
        funcs.push_back({{"name", n.name},
                         {"decision", computeKindName(p.kind)},
                         {"consumer", p.host >= 0 ? nlohmann::json(dag.node(p.host).name)
                                                  : nlohmann::json(nullptr)},
                         {"tiles", tiles},
                         {"stage_tiles", stages},
                         {"cost", funcCost}});
    }
    return funcs;
}

nlohmann::json searchResultToJson(const SearchEngine &engine) {
    const BeamEntry *best = engine.best();
    const FunctionDAG &dag = engine.dag();
    nlohmann::json frozen = nlohmann::json::array();
    for (int f : engine.frozen())
        frozen.push_back(dag.node(f).name);
    nlohmann::json ranking = nlohmann::json::array();
    for (const SearchEngine::FreezeRank &r : engine.freezeRanking())
        ranking.push_back(
            {{"func", dag.node(r.node).name}, {"cost", r.cost}, {"frozen", r.frozen}});
    nlohmann::json stats = countersToJson(engine.counters());
    stats["passes"] = engine.options().passes;
    stats["beam"] = engine.options().beamSize;
    stats["seed"] = engine.options().seed;
    stats["search_ms"] = engine.elapsedMs();
    nlohmann::json j = {{"pipeline", dag.pipelineName()},
                        {"gpu", engine.options().gpu.name},
                        {"cost_model", engine.costModel().name()},
                        {"freezing", engine.freezingSummary()},
                        {"frozen", frozen},
                        {"freeze_ranking", ranking},
                        {"stats", stats}};
    if (best) {
        j["cost"] = best->cost.total;
        j["cost_terms"] = termsToJson(best->cost.terms, engine.costModel().termNames());
        j["funcs"] = funcsToJson(*best->state, best->cost);
    }
    return j;
}

nlohmann::json stepToJson(const SearchStep &step, const FunctionDAG &dag) {
    nlohmann::json beam = nlohmann::json::array();
    for (const BeamEntry &e : step.beam) {
        beam.push_back({{"cost", e.cost.total},
                        {"rank_cost", e.rankCost},
                        {"hash", hashToHex(e.hash)},
                        {"decision", e.decision}});
    }
    nlohmann::json buckets = nlohmann::json::array();
    for (const Bucket &b : step.buckets) {
        nlohmann::json sampled = nlohmann::json::array();
        for (int i : b.sampled) {
            const StepCandidate &c = step.candidates[size_t(i)];
            sampled.push_back({{"label", c.label},
                               {"cost", c.cost},
                               {"in_beam", c.inBeam},
                               {"penalized", c.penalized}});
        }
        buckets.push_back({{"hash", hashToHex(b.hash)},
                           {"parent", b.parent},
                           {"size", b.members.size()},
                           {"sampled", sampled}});
    }
    nlohmann::json pruned = nlohmann::json::array();
    for (const PrunedCandidate &p : step.pruned) {
        pruned.push_back(
            {{"label", p.label}, {"reason", pruneReasonName(p.reason)}, {"detail", p.detail}});
    }
    nlohmann::json frozen = nlohmann::json::array();
    for (int f : step.frozen)
        frozen.push_back(dag.node(f).name);
    // States costed in this step (the sampled members of its buckets): summing "evaluated"
    // over the lines of a pass or of a Func gives that pass's or Func's share of the total.
    size_t evaluated = 0;
    for (const Bucket &b : step.buckets)
        evaluated += b.sampled.size();
    return {{"step", step.index},
            {"pass", step.pass},
            {"passes", step.passes},
            {"depth", step.hashDepth},
            {"evaluated", evaluated},
            {"func", step.func},
            {"phase", phaseName(step.phase)},
            {"candidates", step.candidates.size()},
            {"beam", beam},
            {"buckets", buckets},
            {"pruned", pruned},
            {"frozen", frozen},
            {"counters", countersToJson(step.counters)},
            {"finished", step.finished}};
}

} // namespace beamscope
