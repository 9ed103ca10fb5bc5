// SearchEngine: stepping (enumerate, bucket per parent and sample, evaluate, select with the
// penalties of 4.5), passes, the freezing pre-pass, blessing good states for later passes, pins
// and cancellation.
#include "search/SearchEngine.h"

#include "cost/CostModelFactory.h"
#include "search/FreezeCosts.h"
#include "search/StructuralHash.h"
#include "util/Error.h"
#include "util/Timing.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <set>

namespace beamscope {

namespace {

using Clock = std::chrono::steady_clock;

void checkCancel(const CancelToken *cancel) {
    if (cancel && cancel->load(std::memory_order_relaxed)) throw SearchCancelled();
}

constexpr int kFullDepth = kMaxHashDepth;

} // namespace

SearchOptions SearchOptions::greedy() {
    SearchOptions o;
    o.beamSize = 1;
    o.passes = 1;
    return o;
}

SearchOptions SearchOptions::greedyFrom(const SearchOptions &options) {
    SearchOptions o = options;
    o.beamSize = 1;
    o.passes = 1;
    o.freezeFuncs.clear();
    return o;
}

SearchEngine::SearchEngine(std::shared_ptr<const FunctionDAG> dag, SearchOptions options,
                           std::shared_ptr<CostModel> model)
    : m_dag(std::move(dag)), m_options(std::move(options)),
      m_space(m_options.gpu.smCount ? m_options.gpu : GpuSpec::defaultSpec(), m_options.space),
      m_rng(m_options.seed) {
    if (m_options.gpu.smCount == 0) m_options.gpu = GpuSpec::defaultSpec();
    if (m_options.beamSize < 1) throw UsageError("the beam size must be at least 1");
    if (m_options.passes < 1) throw UsageError("the number of passes must be at least 1");
    m_model = model ? std::move(model) : makeCostModel(m_options.costModel, m_options.gpu);
    m_termNames = m_model->termNames();
    m_featurizer = std::make_unique<Featurizer>(m_options.gpu, m_options.memoization);
    m_pins = resolvePins(m_options.pins, *m_dag, m_options.gpu);
    m_frozenPlacements.resize(m_dag->nodes().size());
    for (const ResolvedPin &pin : m_pins) {
        if (pin.frozen) m_frozen.insert(pin.node);
    }
    m_order = m_dag->outputsFirst();
    for (int node : m_order) {
        if (readsInPlace(m_dag->node(node), m_options.pins)) m_inputs.insert(node);
    }
    // Input wrappers are read in place from the start, as the authors' implementation reads
    // its input nodes: no step, no state costed for them, and every state's cost sees them
    // inlined. Only the other Funcs are searched.
    m_start = ScheduleState::initial(m_dag);
    for (int node : m_order) {
        if (m_inputs.count(node)) m_start = m_start->withInline(node);
    }
    std::erase_if(m_order, [&](int node) { return m_inputs.count(node) > 0; });
    for (const std::string &name : m_options.freezeFuncs) {
        const int node = m_dag->find(name);
        if (node < 0 || m_dag->node(node).isInput)
            throw Error("cannot freeze '" + name + "': the pipeline has no Func of that name");
        if (m_inputs.count(node))
            throw Error("cannot freeze '" + name +
                        "': it wraps an input and is inlined without search");
        m_freezeOverride.insert(node);
    }
    // The pre-pass takes the place of one of the passes, and needs one left after it. An
    // explicit frozen set asks for it whatever the pipeline's size.
    const bool prepass =
        m_options.freezing && m_order.size() > 1 && m_options.passes > 1 &&
        (int(m_order.size()) >= m_options.freezeMinFuncs || !m_options.freezeFuncs.empty());
    m_mainPasses = m_options.passes - (prepass ? 1 : 0);
    m_freezingSummary = summarizeFreezing();
    startPass(prepass ? 0 : 1);
}

std::string SearchEngine::summarizeFreezing() const {
    if (freezes()) return "on";
    if (!m_options.freezing) return "off";
    if (m_order.size() <= 1) return "off: one Func";
    if (m_options.passes <= 1) return "off: one pass";
    return "off: " + std::to_string(m_order.size()) + " searched Funcs, fewer than " +
           std::to_string(m_options.freezeMinFuncs);
}

int SearchEngine::estimatedSteps() const {
    if (m_finished) return m_stepIndex;
    // A Func takes one step when inlined for sure or frozen, two otherwise (location, tiling);
    // the set of frozen Funcs is known once the pre-pass is over.
    int full = 0, afterFreezing = 0;
    for (int node : m_order) {
        const bool one = m_dag->node(node).inlinedWithoutSearch;
        full += one ? 1 : 2;
        afterFreezing += one || m_frozen.count(node) ? 1 : 2;
    }
    if (freezes() && m_pass == 0) return full + afterFreezing * m_mainPasses;
    // A main pass takes fewer where the whole beam inlines a Func (no tiling step): once one has
    // ended, the passes to come are taken to be as long as the last.
    const int perPass = m_lastPassSteps > 0 ? m_lastPassSteps : afterFreezing;
    const int inPass = m_stepIndex - m_passStartStep;
    return m_passStartStep + std::max(perPass, inPass + 1) + perPass * (m_mainPasses - m_pass);
}

void SearchEngine::startPass(int pass) {
    m_pass = pass;
    m_cursor = 0;
    m_phase = Phase::ComputeLocation;
    m_space.options().rootOrInlineOnly = pass == 0;
    BeamEntry start;
    start.state = m_start;
    start.decision = "start";
    m_beam = {start};
}

bool SearchEngine::needsTiling(int node) const {
    for (const BeamEntry &e : m_beam) {
        const FuncPlacement &p = e.state->placement(node);
        if (p.kind == ComputeKind::Root && !p.tiled) return true;
    }
    return false;
}

bool SearchEngine::allowedByPins(const FuncPlacement &placement, int node) const {
    for (const ResolvedPin &pin : m_pins) {
        if (pin.node == node && !pinSatisfied(pin, *m_dag, placement)) return false;
        if (pin.host == node) {
            // The host of a pinned fusion must stay able to host it.
            const ComputeKind k = placement.kind;
            const bool ok = k == ComputeKind::Root ||
                            (k == ComputeKind::Block && pin.location == ComputeKind::Thread);
            if (!ok) return false;
        }
    }
    return true;
}

std::vector<StepCandidate> SearchEngine::enumerate(int node, Phase phase,
                                                   std::vector<PrunedCandidate> &pruned,
                                                   const CancelToken *cancel) {
    std::vector<StepCandidate> out;
    const ResolvedPin *pin = nullptr;
    for (const ResolvedPin &p : m_pins) {
        if (p.node == node) pin = &p;
    }
    for (size_t b = 0; b < m_beam.size(); ++b) {
        checkCancel(cancel);
        const ScheduleState &state = *m_beam[b].state;
        std::vector<Candidate> kept;
        if (phase == Phase::Tiling) {
            const FuncPlacement &p = state.placement(node);
            if (p.kind != ComputeKind::Root || p.tiled) {
                StepCandidate carry;
                carry.state = m_beam[b].state;
                carry.label = "unchanged";
                carry.parent = int(b);
                carry.cost = m_beam[b].cost.total;
                out.push_back(carry);
                continue;
            }
            // A Func's tilings do not depend on the parent: its menu is made once.
            auto menu = m_tilingMenus.find(node);
            if (menu == m_tilingMenus.end())
                menu = m_tilingMenus.emplace(node, m_space.tilingMenu(*m_dag, node)).first;
            // Hashing beyond depth 0 builds every candidate's kernels: share them per tiling.
            m_space.applyTilingMenu(menu->second, state, node, kept, pruned,
                                    samplingDepth(m_pass) > 0);
            if (pin && !pin->threads.empty()) {
                // A pinned tiling outside the enumerated menu is built directly.
                bool found = false;
                for (const Candidate &c : kept)
                    found |= pinSatisfied(*pin, *m_dag, *c.child.placement);
                if (!found) {
                    ResolvedPin exact = *pin;
                    if (exact.serial.empty()) exact.serial.assign(exact.threads.size(), 1);
                    exact.location = ComputeKind::Root;
                    if (auto d = applyFrozenPin(exact, state))
                        kept.push_back({std::move(*d), "pinned tiling"});
                }
            }
        } else if (m_frozen.count(node)) {
            std::optional<Derivation> child;
            if (pin && pin->frozen) {
                child = applyFrozenPin(*pin, state);
            } else {
                const FuncPlacement &f = m_frozenPlacements[size_t(node)];
                child = state.derive(node, f.kind == ComputeKind::Inline
                                               ? state.inlinePlacement(node)
                                               : state.rootTilingPlacement(node, f.tilings));
            }
            if (!child)
                throw Error("the frozen pin on '" + m_dag->node(node).name +
                            "' cannot be applied here");
            const char *kind = computeKindName(child->placement->kind);
            kept.push_back({std::move(*child), std::string("frozen ") + kind});
        } else if (pin && m_pass == 0) {
            // The pre-pass only tries root and inline, but a pin may ask for a fusion.
            SearchSpaceOptions full = m_space.options();
            full.rootOrInlineOnly = false;
            SearchSpace(m_options.gpu, full).locations(state, node, kept, pruned);
        } else {
            m_space.locations(state, node, kept, pruned);
        }
        if (kept.empty()) {
            // Every option was dropped for wasting hardware: the least bad ones still schedule
            // the Func (a Func must be computed somewhere).
            for (const PrunedCandidate &p : pruned) {
                if (p.child && p.child->parent.get() == &state) {
                    kept.push_back(
                        {*p.child, p.label + " (kept: " + pruneReasonName(p.reason) + ")"});
                }
            }
        }
        for (Candidate &c : kept) {
            if (!allowedByPins(*c.child.placement, node)) continue;
            StepCandidate sc;
            sc.child = std::move(c.child);
            sc.label = std::move(c.label);
            sc.parent = int(b);
            out.push_back(std::move(sc));
        }
    }
    if (out.empty()) {
        throw Error("no schedule for '" + m_dag->node(node).name + "' satisfies the pins");
    }
    return out;
}

void SearchEngine::evaluate(std::vector<StepCandidate> &candidates, const std::vector<int> &which,
                            std::vector<StateCost> &costs, StepTimings &timings,
                            const CancelToken *cancel) {
    costs.assign(which.size(), StateCost{});
    auto t = Clock::now();
    std::vector<std::vector<std::shared_ptr<const KernelFeatures>>> features(which.size());
    for (size_t k = 0; k < which.size(); ++k) {
        if (k % 32 == 0) checkCancel(cancel);
        features[k] = m_featurizer->featurize(*candidates[size_t(which[k])].state);
    }
    timings.featurize += msSince(t);
    t = Clock::now();
    for (size_t k = 0; k < which.size(); ++k) {
        m_model->enqueue(*candidates[size_t(which[k])].state, std::move(features[k]), &costs[k]);
    }
    m_model->evaluateAll();
    timings.cost += msSince(t);
}

SearchStepPtr SearchEngine::step(const CancelToken *cancel) {
    if (m_finished) return m_last;
    // A cancelled step must leave the engine exactly where it was, so that the search goes on
    // as if never interrupted: the sampling PRNG and the featurization memo are rolled back.
    const Rng rngBefore = m_rng;
    try {
        return advance(cancel);
    } catch (const SearchCancelled &) {
        m_rng = rngBefore;
        m_featurizer->rollback();
        throw;
    }
}

namespace {

// The named steps of SearchEngine::advance, in the order it takes them.

/// Fig. 3: each candidate's hash at the step's depth. Inlining is always costed (the authors'
/// implementation adds it outside the buckets): it gets a bucket of its own.
void hashCandidates(std::vector<StepCandidate> &candidates, int depth) {
    for (StepCandidate &c : candidates) {
        if (c.state) {
            c.hash = searchHash(*c.state, depth);
            continue;
        }
        c.hash = searchHash(c.child, depth);
        if (c.child.placement->kind == ComputeKind::Inline) c.hash = ~c.hash;
    }
}

/// 3.1, 4.4: hierarchical sampling, per parent, of the candidates not yet costed (carried-over
/// states are already costed and kept). Fills s.buckets, materializes the sampled candidates and
/// returns their indices, bucket by bucket.
std::vector<int> sampleBuckets(SearchStep &s, bool sampling, Rng &rng) {
    std::vector<uint64_t> hashes;
    std::vector<int> fresh, parents;
    for (size_t i = 0; i < s.candidates.size(); ++i) {
        if (std::isnan(s.candidates[i].cost)) fresh.push_back(int(i));
    }
    for (int i : fresh) {
        hashes.push_back(s.candidates[size_t(i)].hash);
        parents.push_back(s.candidates[size_t(i)].parent);
    }
    s.buckets = bucketAndSample(hashes, parents, sampling, rng);
    std::vector<int> which;
    for (Bucket &b : s.buckets) {
        for (int &m : b.members)
            m = fresh[size_t(m)];
        for (int &m : b.sampled) {
            m = fresh[size_t(m)];
            which.push_back(m);
            StepCandidate &c = s.candidates[size_t(m)];
            c.sampled = true;
            c.state = c.child.materialize();
        }
    }
    return which;
}

/// What selectBeam needs of the engine (4.5's penalties).
struct BeamRule {
    int beamSize = 0;
    bool penalize = false;
    int pass = 0;
    double knownBadPenalty = 0;
    const std::set<uint64_t> *permitted = nullptr; ///< hashes earlier passes blessed
};

/// 4.5: the beam in order of cost, penalizing as the authors' implementation does: a state taken
/// is first charged once (lazily, when it comes up) by the number of states with its depth-p hash
/// taken before it in this step, plus knownBadPenalty when its depth p - 2 hash is not among those
/// the earlier passes kept; a state no longer the cheapest after its charge goes back in the
/// queue. Sampled candidates get `costs` (in `which` order); carried-over ones keep their parent's
/// cost and ranked cost from `previous`.
std::vector<BeamEntry> selectBeam(SearchStep &s, const std::vector<int> &which,
                                  std::vector<StateCost> costs,
                                  const std::vector<BeamEntry> &previous, const BeamRule &rule) {
    struct Ranked {
        int index;
        double rank;
        bool charged;
    };
    std::vector<Ranked> queue;
    std::vector<StateCost> costOf(s.candidates.size());
    for (size_t k = 0; k < which.size(); ++k) {
        StepCandidate &c = s.candidates[size_t(which[k])];
        c.cost = costs[k].total;
        costOf[size_t(which[k])] = std::move(costs[k]);
        queue.push_back({which[k], c.cost, false});
    }
    for (size_t i = 0; i < s.candidates.size(); ++i) {
        const StepCandidate &c = s.candidates[i];
        if (!c.sampled && !std::isnan(c.cost)) {
            costOf[i] = previous[size_t(c.parent)].cost;
            queue.push_back({int(i), previous[size_t(c.parent)].rankCost, false});
        }
    }
    // A min-heap on (rank, index): ties go to the earlier candidate, so the order is total.
    const auto later = [](const Ranked &a, const Ranked &b) {
        return a.rank > b.rank || (a.rank == b.rank && a.index > b.index);
    };
    std::make_heap(queue.begin(), queue.end(), later);
    std::map<uint64_t, int> taken;
    std::vector<BeamEntry> beam;
    std::set<uint64_t> inBeam;
    while (int(beam.size()) < rule.beamSize && !queue.empty()) {
        std::pop_heap(queue.begin(), queue.end(), later);
        Ranked r = queue.back();
        queue.pop_back();
        StepCandidate &c = s.candidates[size_t(r.index)];
        const uint64_t full = structuralHash(*c.state, kFullDepth);
        if (inBeam.count(full)) continue; // a duplicate of a state already in the beam
        if (rule.penalize && !r.charged) {
            r.charged = true;
            double factor = ++taken[searchHash(*c.state, rule.pass)];
            if (rule.pass >= 2 && !rule.permitted->count(searchHash(*c.state, rule.pass - 2))) {
                factor += rule.knownBadPenalty;
            }
            if (factor > 1) {
                c.penalized = true;
                r.rank *= factor;
                if (!queue.empty() && r.rank > queue.front().rank) {
                    queue.push_back(r);
                    std::push_heap(queue.begin(), queue.end(), later);
                    continue;
                }
            }
        }
        inBeam.insert(full);
        c.inBeam = true;
        BeamEntry e;
        e.state = c.state;
        e.cost = costOf[size_t(r.index)];
        e.rankCost = r.rank;
        e.hash = c.hash;
        e.decision = c.label;
        beam.push_back(std::move(e));
    }
    return beam;
}

} // namespace

SearchStepPtr SearchEngine::advance(const CancelToken *cancel) {
    const auto start = Clock::now();
    auto snapshot = std::make_shared<SearchStep>();
    SearchStep &s = *snapshot;
    const int node = m_order[m_cursor];
    s.index = m_stepIndex;
    s.pass = m_pass;
    s.hashDepth = samplingDepth(m_pass);
    s.passes = m_mainPasses;
    s.freezing = m_freezingSummary;
    s.node = node;
    s.func = m_dag->node(node).name;
    s.phase = m_phase;
    s.termNames = m_termNames;

    // 4.1-4.3 and 4.6: the decision's candidates for every beam state, and what was pruned.
    auto t = Clock::now();
    s.candidates = enumerate(node, m_phase, s.pruned, cancel);
    hashCandidates(s.candidates, s.hashDepth);
    s.timings.enumerate = msSince(t);

    t = Clock::now();
    const std::vector<int> which = sampleBuckets(s, m_options.sampling, m_rng);
    s.timings.sample = msSince(t);

    // 5: featurize and cost the sampled candidates.
    std::vector<StateCost> costs;
    evaluate(s.candidates, which, costs, s.timings, cancel);

    t = Clock::now();
    BeamRule rule;
    rule.beamSize = m_options.beamSize;
    rule.penalize = penalizing();
    rule.pass = m_pass;
    rule.knownBadPenalty = m_options.knownBadPenalty;
    rule.permitted = &m_permitted;
    m_beam = selectBeam(s, which, std::move(costs), m_beam, rule);
    s.timings.select = msSince(t);

    m_counters.enumerated += int64_t(s.candidates.size() + s.pruned.size());
    m_counters.pruned += int64_t(s.pruned.size());
    m_counters.evaluated += int64_t(which.size());
    m_counters.featurizations = m_featurizer->featurizations();
    m_counters.memoHits = m_featurizer->memoHits();
    m_counters.memoMisses = m_featurizer->memoMisses();

    // The next decision: tiling follows the location decision when some state put the Func at
    // root; the pass ends after the last Func.
    if (m_phase == Phase::ComputeLocation && needsTiling(node)) {
        m_phase = Phase::Tiling;
    } else {
        m_phase = Phase::ComputeLocation;
        ++m_cursor;
    }
    s.beam = m_beam;
    if (m_cursor == m_order.size()) {
        s.passFinished = true;
        finishPass();
    }
    s.finished = m_finished;
    s.best = m_best;
    s.frozen.assign(m_frozen.begin(), m_frozen.end());
    s.freezeRanking = m_freezeRanking;
    s.counters = m_counters;
    ++m_stepIndex;
    m_elapsedMs += msSince(start);
    m_featurizer->commit();
    m_last = snapshot;
    return m_last;
}

void SearchEngine::finishPass() {
    // Called within the pass's last step, before m_stepIndex counts it.
    if (m_pass >= 1) m_lastPassSteps = m_stepIndex + 1 - m_passStartStep;
    m_passStartStep = m_stepIndex + 1;
    if (m_pass == 0) {
        freezeAfterPrepass();
        startPass(1);
        return;
    }
    const BeamEntry *cheapest = cheapestComplete(m_beam);
    if (cheapest && (!m_best || cheapest->cost.total < m_best->cost.total)) m_best = *cheapest;
    if (m_pass < m_mainPasses) {
        blessBeam();
        startPass(m_pass + 1);
    } else {
        m_finished = true;
    }
}

int SearchEngine::funcsLeftUnfrozen(int n) {
    if (n <= 1) return 1;
    return std::max(1, n - int(double(n) - std::log2(double(n))));
}

bool SearchEngine::isInputWrapper(const Node &node) {
    if (node.isInput || node.isOutput || node.stages.size() != 1) return false;
    if (node.function.has_update_definition()) return false;
    const Halide::Internal::Call *call = node.function.is_wrapper();
    return call && (call->call_type == Halide::Internal::Call::Image || call->param.defined() ||
                    call->image.defined());
}

bool SearchEngine::readsInPlace(const Node &node, const std::vector<Pin> &pins) {
    for (const Pin &p : pins) {
        if (p.func == node.name || p.host == node.name) return false;
    }
    return isInputWrapper(node);
}

bool SearchEngine::penalizing() const {
    return m_options.beamSize > 1 && m_mainPasses > 1 && m_pass >= 1;
}

void SearchEngine::blessBeam() {
    // The final states within 20% of the pass's best, and every state on the way to them, are
    // good at this pass's sampling depth; the next passes penalize states outside them.
    if (m_beam.empty()) return;
    const double limit = 1.2 * m_beam.front().rankCost;
    std::set<const ScheduleState *> seen;
    for (const BeamEntry &e : m_beam) {
        if (e.rankCost > limit) break;
        for (const ScheduleState *s = e.state.get(); s && seen.insert(s).second; s = s->parent()) {
            m_permitted.insert(searchHash(*s, samplingDepth(m_pass)));
        }
    }
}

void SearchEngine::freezeAfterPrepass() {
    // The authors' rule: each Func's cost is its stages' cost in the pre-pass's best state, an
    // inlined Func's compute its own (FreezeCosts); cheapest first (ties in search order, as the
    // reference's sort leaves them for up to 16 Funcs), and N - log2(N) rounded down are frozen,
    // so ceil(log2(N)) stay.
    const BeamEntry &best = m_beam.front();
    const auto compute = std::find(m_termNames.begin(), m_termNames.end(), "compute");
    const std::vector<double> costs = funcCostsForFreezing(
        *m_dag, *best.state, best.cost,
        compute == m_termNames.end() ? -1 : int(compute - m_termNames.begin()));
    std::vector<FreezeRank> ranking;
    for (int node : m_order) {
        ranking.push_back({node, costs[size_t(node)], false});
    }
    std::stable_sort(ranking.begin(), ranking.end(),
                     [](const FreezeRank &a, const FreezeRank &b) { return a.cost < b.cost; });
    const int n = int(ranking.size());
    const int count = n - funcsLeftUnfrozen(n);
    for (int i = 0; i < n; ++i) {
        FreezeRank &r = ranking[size_t(i)];
        // An explicit set (options.freezeFuncs) replaces the rule's choice.
        const bool chosen =
            m_freezeOverride.empty() ? i < count : m_freezeOverride.count(r.node) > 0;
        if (!chosen || m_frozen.count(r.node)) continue;
        bool pinned = false;
        for (const ResolvedPin &p : m_pins)
            pinned |= p.node == r.node || p.host == r.node;
        if (pinned) continue; // a user's pin keeps the Func under search
        m_frozen.insert(r.node);
        m_frozenPlacements[size_t(r.node)] = best.state->placement(r.node);
    }
    for (FreezeRank &r : ranking)
        r.frozen = m_frozen.count(r.node) > 0;
    m_freezeRanking = std::make_shared<const std::vector<FreezeRank>>(std::move(ranking));
}

const std::vector<FreezeRank> &SearchEngine::freezeRanking() const {
    static const std::vector<FreezeRank> none;
    return m_freezeRanking ? *m_freezeRanking : none;
}

SearchStepPtr SearchEngine::run(const CancelToken *cancel) {
    while (!m_finished)
        step(cancel);
    return m_last;
}

} // namespace beamscope
