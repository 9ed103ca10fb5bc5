// WhyNot: following a search for one described decision.
// Contents: matching (the target Func's placement in a candidate, pinSatisfied); per pass, the
// steps that decide the Func and the later steps while a state carrying the decision is in the
// beam; classifying a step (in the beam, costed and cut, not sampled, or absent: frozen, pinned
// otherwise, pruned by the rules of 4.6 or not in the search space); cost-term differences;
// the headline answer.
#include "search/WhyNot.h"

#include "cost/CostModelFactory.h"
#include "cost/CostOf.h"
#include "search/PerLoop.h"
#include "util/Error.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace beamscope {

const char *whyVerdictName(WhyVerdict v) {
    static const char *const names[] = {"not_reached", "pruned", "not_sampled", "cut", "chosen"};
    return names[size_t(v)];
}

namespace {

std::string joinWithX(const std::vector<int64_t> &v) {
    std::string s;
    for (size_t i = 0; i < v.size(); ++i)
        s += (i ? "x" : "") + std::to_string(v[i]);
    return s;
}

std::string fmt(double v) {
    std::ostringstream os;
    os.precision(4);
    os << v;
    return os.str();
}

/// Per-dimension sizes as the per-loop sizes of `stage` (1 on loops over no dimension).
} // namespace

std::string describeDecision(const Pin &d) {
    std::string s = d.location ? computeKindName(*d.location) : "any location";
    if (!d.host.empty()) s += " of " + d.host;
    if (!d.threads.empty()) s += " threads " + joinWithX(d.threads);
    if (!d.serial.empty()) s += " serial " + joinWithX(d.serial);
    return s;
}

struct WhyNot::Impl {
    std::shared_ptr<const FunctionDAG> dag;
    SearchOptions options;
    ResolvedPin want;
    std::vector<ResolvedPin> pins; ///< the search's own pins
    bool inputWrapper = false;     ///< an input wrapper no pin names: inlined, never searched
    std::string described;
    std::shared_ptr<CostModel> model;
    std::vector<std::string> termNames;

    std::vector<WhyAnswer> passes;
    std::optional<WhyAnswer> open; ///< the pass under way: set once the Func was decided
    int passOfStep = -1;
    int lastDeciding = -1;
    std::string lastDecidingPhase;
    std::vector<BeamEntry> prevBeam; ///< the beam the next step starts from
    bool finished = false;
    std::optional<BeamEntry> best;
    int bestPass = -1;
    int freezeStep = -1; ///< the step after which the pre-pass froze Funcs

    bool matches(const FuncPlacement &p) const { return pinSatisfied(want, *dag, p); }
    /// The target Func's placement in candidate `c`.
    const FuncPlacement &placementIn(const StepCandidate &c) const {
        if (c.state) return c.state->placement(want.node);
        if (c.child.node == want.node) return *c.child.placement;
        return c.child.parent->placement(want.node);
    }
    const ScheduleState *parentOf(const StepCandidate &c) const {
        if (c.child.parent) return c.child.parent.get();
        if (c.state && !c.state->parent()) return c.state.get();
        if (c.parent >= 0 && size_t(c.parent) < prevBeam.size())
            return prevBeam[size_t(c.parent)].state.get();
        return c.state ? c.state->parent() : nullptr;
    }

    void step(const SearchStep &s);
    void closePass(const SearchStep &s, WhyAnswer a) {
        a.pass = s.pass;
        passes.push_back(std::move(a));
        open.reset();
    }
    WhyAnswer classify(const SearchStep &s, bool deciding);
    WhyAnswer absent(const SearchStep &s);
    void compare(WhyAnswer &a, const StateCost &mine, const BeamEntry &other);
    std::optional<std::string> pinConflict() const;
};

WhyNot::WhyNot(std::shared_ptr<const FunctionDAG> dag, const SearchOptions &options,
               const Pin &decision)
    : m_impl(std::make_unique<Impl>()) {
    Impl &m = *m_impl;
    m.dag = std::move(dag);
    m.options = options;
    if (m.options.gpu.smCount == 0) m.options.gpu = GpuSpec::defaultSpec();
    Pin d = decision;
    d.frozen = false;
    try {
        m.want = resolvePins({d}, *m.dag, m.options.gpu).front();
    } catch (const Error &e) {
        throw Error(std::string("why: ") + e.what()); // the description is checked like a pin
    }
    m.pins = resolvePins(m.options.pins, *m.dag, m.options.gpu);
    m.inputWrapper = SearchEngine::readsInPlace(m.dag->node(m.want.node), m.options.pins);
    m.described = describeDecision(d);
    m.model = makeCostModel(m.options.costModel, m.options.gpu);
    m.termNames = m.model->termNames();
}

WhyNot::~WhyNot() = default;

void WhyNot::observe(const SearchStepPtr &step) {
    if (!step) throw Error("why: no step to observe");
    m_impl->step(*step);
}

void WhyNot::Impl::compare(WhyAnswer &a, const StateCost &mine, const BeamEntry &other) {
    a.against = other.decision;
    a.againstCost = other.cost.total;
    CostTerms delta{};
    for (size_t t = 0; t < delta.size(); ++t)
        delta[t] = mine.terms[t] - other.cost.terms[t];
    a.termsDelta = delta;
    for (const StageCost &sc : mine.stages) {
        CostTerms theirs{};
        for (const StageCost &oc : other.cost.stages) {
            if (oc.node == sc.node && oc.stage == sc.stage) theirs = oc.terms;
        }
        WhyStageDelta d;
        d.stage = dag->node(sc.node).stages[size_t(sc.stage)].name;
        for (size_t t = 0; t < d.delta.size(); ++t) {
            d.delta[t] = sc.terms[t] - theirs[t];
            d.total += d.delta[t];
        }
        if (d.total != 0) a.stagesDelta.push_back(d);
    }
    // Stages only the other state has (e.g. a Func it computes at root that this one inlines).
    for (const StageCost &oc : other.cost.stages) {
        bool found = false;
        for (const StageCost &sc : mine.stages)
            found |= oc.node == sc.node && oc.stage == sc.stage;
        if (found) continue;
        WhyStageDelta d;
        d.stage = dag->node(oc.node).stages[size_t(oc.stage)].name;
        for (size_t t = 0; t < d.delta.size(); ++t) {
            d.delta[t] = -oc.terms[t];
            d.total += d.delta[t];
        }
        if (d.total != 0) a.stagesDelta.push_back(d);
    }
}

std::optional<std::string> WhyNot::Impl::pinConflict() const {
    for (const ResolvedPin &p : pins) {
        const std::string name = dag->node(p.node).name;
        if (p.node == want.node) {
            const bool differs =
                (p.location && want.location && *p.location != *want.location) ||
                (p.host >= 0 && want.host >= 0 && p.host != want.host) ||
                (!p.threads.empty() && !want.threads.empty() && p.threads != want.threads) ||
                (!p.serial.empty() && !want.serial.empty() && p.serial != want.serial);
            if (differs) {
                std::string how = p.location ? computeKindName(*p.location) : "";
                if (p.host >= 0) how += " of " + dag->node(p.host).name;
                if (!p.threads.empty()) how += " threads " + joinWithX(p.threads);
                if (!p.serial.empty()) how += " serial " + joinWithX(p.serial);
                return "'" + name + "' is pinned " + how + (p.frozen ? " (frozen)" : "");
            }
        }
        if (p.host == want.node && want.location) {
            const ComputeKind k = *want.location;
            const bool ok = k == ComputeKind::Root ||
                            (k == ComputeKind::Block && p.location == ComputeKind::Thread);
            if (!ok)
                return "'" + name + "' is pinned at the " + computeKindName(*p.location) +
                       " level of '" + dag->node(want.node).name +
                       "', which must stay able to host it";
        }
    }
    return std::nullopt;
}

void WhyNot::Impl::step(const SearchStep &s) {
    if (finished) throw Error("why: a step after the end of the search");
    if (s.pass != passOfStep) {
        open.reset();
        passOfStep = s.pass;
        lastDeciding = -1;
    }
    const bool deciding = s.node == want.node;
    const bool settled = !passes.empty() && passes.back().pass == s.pass;
    if (!settled && (deciding || open)) {
        WhyAnswer a = classify(s, deciding);
        if (a.step >= 0) {
            closePass(s, std::move(a));
        } else {
            if (deciding) {
                lastDeciding = s.index;
                lastDecidingPhase = phaseName(s.phase);
            }
            open = a;
        }
    }
    if (s.passFinished) {
        if (s.pass == 0) freezeStep = s.index;
        if (open) {
            // The decision reached the end of the pass: it is in the pass's result (the final
            // beam's cheapest complete state, as SearchEngine picks it), or it lost to it.
            WhyAnswer a;
            a.step = lastDeciding;
            a.phase = lastDecidingPhase;
            const BeamEntry *result = cheapestComplete(s.beam);
            const auto rankOf = [&s](const BeamEntry *e) { return size_t(e - s.beam.data()) + 1; };
            if (result && matches(result->state->placement(want.node))) {
                a.verdict = WhyVerdict::Chosen;
                a.cost = result->cost.total;
                a.label = result->decision;
                a.detail = "the pass's cheapest complete state takes it";
                const BeamEntry *runnerUp =
                    cheapestEntry(s.beam, [result](const BeamEntry &e) { return &e != result; });
                if (runnerUp) {
                    compare(a, result->cost, *runnerUp);
                    a.against =
                        "beam #" + std::to_string(rankOf(runnerUp)) + " (the pass's runner-up)";
                }
            } else {
                const BeamEntry *mine = cheapestEntry(s.beam, [this](const BeamEntry &e) {
                    return matches(e.state->placement(want.node));
                });
                a.verdict = WhyVerdict::Cut;
                a.step = s.index;
                a.phase = phaseName(s.phase);
                if (mine && result) {
                    a.cost = mine->cost.total;
                    a.label = "beam #" + std::to_string(rankOf(mine)) + " at the end of the pass";
                    a.cutoff = result->cost.total;
                    a.detail = "its best complete state ends the pass ranked " +
                               std::to_string(rankOf(mine)) + " of " +
                               std::to_string(s.beam.size()) +
                               " (by penalized cost), behind the pass's best (" + fmt(a.cost) +
                               " ms against " + fmt(a.cutoff) + " ms)";
                    compare(a, mine->cost, *result);
                    a.against = "beam #" + std::to_string(rankOf(result)) + " (the pass's best)";
                }
            }
            closePass(s, std::move(a));
        }
        if (s.best && (!best || s.best->state != best->state)) {
            best = s.best;
            bestPass = s.pass;
        }
    }
    prevBeam = s.passFinished ? std::vector<BeamEntry>{} : s.beam;
    if (s.finished) finished = true;
}

WhyAnswer WhyNot::Impl::classify(const SearchStep &s, bool deciding) {
    WhyAnswer a;
    a.phase = phaseName(s.phase);
    std::vector<int> matching;
    for (size_t i = 0; i < s.candidates.size(); ++i) {
        const StepCandidate &c = s.candidates[i];
        if (matches(placementIn(c))) matching.push_back(int(i));
    }
    for (int i : matching) {
        if (s.candidates[size_t(i)].inBeam) return a; // survives this step (step stays -1)
    }
    a.step = s.index;
    // Costed (sampled or carried) and cut: the cheapest of them against the survivor.
    int cheapest = -1;
    for (int i : matching) {
        const StepCandidate &c = s.candidates[size_t(i)];
        if (std::isnan(c.cost)) continue;
        if (cheapest < 0 || c.cost < s.candidates[size_t(cheapest)].cost) cheapest = i;
    }
    if (cheapest >= 0) {
        const StepCandidate &c = s.candidates[size_t(cheapest)];
        a.verdict = WhyVerdict::Cut;
        a.label = c.label;
        a.cost = c.cost;
        const bool full = int(s.beam.size()) >= options.beamSize;
        if (full) a.cutoff = s.beam.back().rankCost;
        const ScheduleState *parent = parentOf(c);
        const BeamEntry *survivor = nullptr;
        for (const BeamEntry &e : s.beam) {
            if (!survivor && (e.state.get() == parent || e.state->parent() == parent))
                survivor = &e;
        }
        const bool sameParent = survivor != nullptr;
        if (!survivor) survivor = &s.beam.back();
        const StateCost mine =
            c.child.placement ? costOf(*c.state, *model, options.gpu).cost : [&] {
                StateCost carried;
                for (const BeamEntry &e : prevBeam) {
                    if (e.state == c.state) carried = e.cost;
                }
                return carried;
            }();
        compare(a, mine, *survivor);
        if (full && c.penalized) {
            a.detail = "costed " + fmt(a.cost) +
                       " ms, but penalized as a repeat of its hash (4.5) it " +
                       "ranked past the beam's cut-off of " + fmt(a.cutoff) + " ms (a ranked cost)";
        } else if (full) {
            a.detail = "costed " + fmt(a.cost) + " ms, above the beam's cut-off of " +
                       fmt(a.cutoff) + " ms";
        } else {
            a.detail =
                "costed " + fmt(a.cost) + " ms, but it duplicates a state already in the beam";
        }
        a.detail += sameParent
                        ? "; compared with '" + survivor->decision + "' from the same parent"
                        : "; compared with the beam's last state ('" + survivor->decision + "')";
        if (!deciding)
            a.detail += " (decided earlier; its state was cut when '" + s.func + "' was decided)";
        return a;
    }
    if (!matching.empty()) {
        // Enumerated, never costed: its bucket's representatives were costed instead.
        const int member = matching.front();
        a.verdict = WhyVerdict::NotSampled;
        a.label = s.candidates[size_t(member)].label;
        for (const Bucket &b : s.buckets) {
            if (std::find(b.members.begin(), b.members.end(), member) == b.members.end()) continue;
            a.bucketHash = b.hash;
            a.bucketSize = int(b.members.size());
            a.bucketParent = b.parent;
            for (int r : b.sampled) {
                const StepCandidate &rep = s.candidates[size_t(r)];
                a.representatives.push_back({rep.label, rep.cost, rep.inBeam});
            }
        }
        a.detail = "in a bucket of " + std::to_string(a.bucketSize) + " (parent " +
                   std::to_string(a.bucketParent) + "), " +
                   std::to_string(a.representatives.size()) + " representative(s) costed instead";
        if (!deciding) a.detail += " (its states' children when '" + s.func + "' was decided)";
        return a;
    }
    return absent(s);
}

WhyAnswer WhyNot::Impl::absent(const SearchStep &s) {
    // No candidate of the step takes the decision.
    WhyAnswer a;
    a.step = s.index;
    a.phase = phaseName(s.phase);
    a.verdict = WhyVerdict::NotReached;
    const std::string name = dag->node(want.node).name;
    for (int f : s.frozen) {
        if (f != want.node) continue;
        std::string as = s.candidates.empty() ? "" : s.candidates.front().label;
        a.detail = "'" + name + "' is frozen (" + as + ")";
        if (freezeStep >= 0)
            a.detail += " since the pre-pass ended at step " + std::to_string(freezeStep + 1);
        return a;
    }
    if (auto conflict = pinConflict()) {
        a.detail = *conflict;
        return a;
    }
    // Pruned for wasting hardware (soft reasons keep their derivation): the engine's own record.
    for (const PrunedCandidate &p : s.pruned) {
        if (!p.child || p.child->node != want.node || !matches(*p.child->placement)) continue;
        a.verdict = WhyVerdict::Pruned;
        a.reason = pruneReasonName(p.reason);
        a.label = p.label;
        a.detail = "pruned as '" + p.label + "': " + a.reason + " (" + p.detail + ")";
        return a;
    }
    if (s.pass == 0 &&
        (want.location == ComputeKind::Block || want.location == ComputeKind::Thread)) {
        a.detail = "the freezing pre-pass tries root and inline only";
        return a;
    }
    // Build the decision on each parent and put it through the pruning rules. It counts as
    // pruned only when the step's pruned list holds it (under the label the search space gives
    // it); failing the rules without being listed means it was never enumerated.
    const StatePtr start = ScheduleState::initial(dag);
    std::vector<StatePtr> parents;
    for (const BeamEntry &e : prevBeam)
        parents.push_back(e.state);
    if (parents.empty()) parents.push_back(start);
    SearchSpaceOptions spaceOptions = options.space;
    spaceOptions.rootOrInlineOnly = false;
    const SearchSpace space(options.gpu, spaceOptions);
    const Node &n = dag->node(want.node);
    std::string unbuildable;
    bool built = false;
    std::optional<PrunedCandidate> failure; // the first rule it fails, with its label
    std::string filteredLabel;              // a root tiling that passes the rules
    for (const StatePtr &parent : parents) {
        const ScheduleState &st = *parent;
        std::optional<FuncPlacement> p;
        std::string label;
        const ComputeKind kind = want.location.value_or(ComputeKind::Root);
        if (kind == ComputeKind::Inline) {
            if (st.canInline(want.node))
                p = st.inlinePlacement(want.node);
            else
                unbuildable = "'" + name + "' cannot be inlined there";
            label = "inline";
        } else if (kind == ComputeKind::Thread || kind == ComputeKind::Block) {
            const LoopLevel level =
                kind == ComputeKind::Block ? LoopLevel::Block : LoopLevel::Thread;
            const std::string host = dag->node(want.host).name;
            if (!st.canFuse(want.node, want.host, level)) {
                unbuildable = "no beam state can compute it at the " +
                              std::string(computeKindName(kind)) + " level of '" + host +
                              "': " + st.describeFuseRefusal(want.node, want.host, level);
            } else if (kind == ComputeKind::Thread) {
                p = st.threadPlacement(want.node, want.host);
                label = "thread of " + host;
            } else if (!want.serial.empty()) {
                const std::vector<int64_t> serial = perLoop(n.stages[0], want.serial);
                p = st.blockPlacement(want.node, want.host, serial);
                label = "block of " + host + " serial " + joinWithX(serial);
            } else {
                unbuildable = "give serial sizes to check a block-level placement against the "
                              "pruning rules";
            }
        } else if (s.phase == Phase::Tiling && (!want.threads.empty() || !want.serial.empty())) {
            // Root tiling: missing sizes are 1. With 1 serial iteration every thread rule is at
            // its most lenient, so a thread rule failed holds for any serial size; without
            // thread sizes only the serial rule (independent of threads) is conclusive.
            std::vector<StageTiling> tilings;
            for (const Stage &stage : n.stages) {
                const std::vector<int64_t> ones(stage.loops.size(), 1);
                tilings.push_back(ScheduleState::makeTiling(
                    stage, want.threads.empty() ? ones : perLoop(stage, want.threads),
                    want.serial.empty() ? ones : perLoop(stage, want.serial)));
            }
            built = true;
            auto pr = space.checkRootTiling(n, tilings);
            if (!pr && !want.threads.empty()) {
                // Passes the rules; the parallelism filter may still have dropped it (listed
                // under this label with reason idle_sms).
                filteredLabel = "threads " + joinWithX(tilings.back().threads) + " serial " +
                                joinWithX(tilings.back().serial);
            }
            if (!pr || failure) continue;
            if (want.threads.empty() && pr->reason != PruneReason::SerialTooLargeToUnroll) continue;
            // The search space drops an over-long serial tile before choosing threads.
            pr->label = pr->reason == PruneReason::SerialTooLargeToUnroll
                            ? "serial " + joinWithX(want.serial)
                            : "threads " + joinWithX(tilings.back().threads) + " serial " +
                                  joinWithX(tilings.back().serial);
            failure = pr;
            continue;
        } else {
            unbuildable = "no beam state offers it at this step";
        }
        if (!p) continue;
        built = true;
        auto pr = space.check(st, want.node, *p);
        if (pr && !failure) {
            pr->label = label;
            failure = pr;
        }
    }
    // The step's pruned entry under `label` for `reason`, as the answer (`how` qualifies it).
    const auto listed = [&](const std::string &label, PruneReason reason, const std::string &how) {
        for (const PrunedCandidate &q : s.pruned) {
            if (q.label != label || q.reason != reason) continue;
            a.verdict = WhyVerdict::Pruned;
            a.reason = pruneReasonName(q.reason);
            a.label = q.label;
            a.detail =
                "pruned as '" + q.label + "'" + how + ": " + a.reason + " (" + q.detail + ")";
            return true;
        }
        return false;
    };
    if (failure) {
        if (listed(failure->label, failure->reason, "")) return a;
        a.reason = pruneReasonName(failure->reason);
        a.detail = "not in the search space at this step; it would be pruned anyway: " + a.reason +
                   " (" + failure->detail + ")";
        return a;
    }
    if (!filteredLabel.empty() &&
        listed(filteredLabel, PruneReason::IdleSms, " by the parallelism filter"))
        return a;
    std::string offered;
    int shown = 0;
    for (const StepCandidate &c : s.candidates) {
        if (!c.child.placement || shown == 4) continue;
        if (offered.find("'" + c.label + "'") != std::string::npos) continue;
        offered += (shown++ ? ", '" : "'") + c.label + "'";
    }
    a.detail =
        built ? "not in the search space: no candidate of this step takes it (offered: " + offered +
                    ")"
              : unbuildable;
    return a;
}

WhyResult WhyNot::result() const {
    const Impl &m = *m_impl;
    if (!m.finished || !m.best) throw Error("why: the search has not finished");
    WhyResult r;
    r.func = m.dag->node(m.want.node).name;
    r.decision = m.described;
    r.passes = m.passes;
    r.termNames = m.termNames;
    r.bestCost = m.best->cost.total;
    for (const WhyAnswer &a : m.passes) {
        if (a.pass == m.bestPass) r.answer = a;
    }
    if (m.inputWrapper) {
        // No step decides it: every pass starts with it inlined (SearchEngine::inputWrappers).
        r.answer.detail =
            "'" + r.func +
            "' only wraps an input buffer: it is inlined without search (the authors' "
            "implementation takes it as an input and never schedules it; pin it to search it)";
    }
    if (m.matches(m.best->state->placement(m.want.node)) &&
        r.answer.verdict != WhyVerdict::Chosen) {
        r.answer.verdict = WhyVerdict::Chosen;
        r.answer.detail = "the best schedule takes it";
    }
    if (r.answer.verdict == WhyVerdict::Chosen) {
        r.answer.detail = "the best schedule (pass " + std::to_string(m.bestPass) + ", cost " +
                          fmt(r.bestCost) + ") takes it" +
                          (r.answer.against.empty() ? "" : "; compared with " + r.answer.against);
    }
    return r;
}

WhyResult whyNot(std::shared_ptr<const FunctionDAG> dag, const SearchOptions &options,
                 const Pin &decision, const CancelToken *cancel) {
    WhyNot why(dag, options, decision);
    SearchEngine engine(dag, options);
    while (!engine.finished())
        why.observe(engine.step(cancel));
    return why.result();
}

} // namespace beamscope
