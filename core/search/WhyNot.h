// WhyNot: "why not this schedule?" For a decision described with a pin's fields (Func,
// location, host, thread and serial tile sizes) it follows a search step by step and says what
// happened to the decision: never reached (the Func frozen or pinned otherwise, or the decision
// not in the search space), pruned (reason, detail), not sampled (its bucket and the
// representatives costed instead), costed and cut from the beam (its cost, the beam's cut-off and
// the difference per cost term and per stage against the state that survived), or chosen.
// Candidates are matched to the description with the pins' matcher (pinSatisfied).
#pragma once

#include "search/SearchEngine.h"

#include <nlohmann/json.hpp>

#include <iosfwd>
#include <limits>
#include <optional>

namespace beamscope {

/// What happened to a described decision.
enum class WhyVerdict : uint8_t { NotReached, Pruned, NotSampled, Cut, Chosen };
/// "not_reached", "pruned", "not_sampled", "cut", "chosen".
const char *whyVerdictName(WhyVerdict v);

/// A candidate a verdict names (e.g. a bucket's representatives).
struct WhyCandidate {
    std::string label;
    double cost = std::numeric_limits<double>::quiet_NaN();
    bool inBeam = false;
};

/// A stage whose cost differs between the decision's state and the one compared with it.
struct WhyStageDelta {
    std::string stage;
    CostTerms delta{}; ///< per term: decision's state minus the other
    double total = 0;
};

/// The decision's fate in one pass (or, as WhyResult::answer, in the search).
struct WhyAnswer {
    WhyVerdict verdict = WhyVerdict::NotReached;
    int step = -1; ///< the step that settled it (its index; text says index + 1, as the Timeline)
    int pass = -1;
    std::string phase;  ///< phase of that step
    std::string detail; ///< one readable sentence
    std::string label;  ///< the matching candidate's decision label, when there was one
    double cost = std::numeric_limits<double>::quiet_NaN();   ///< its cost (cut, chosen)
    double cutoff = std::numeric_limits<double>::quiet_NaN(); ///< the beam's cut-off (cut)
    std::string reason;                                       ///< prune reason name (pruned)
    /// The state compared against (cut: the survivor from the same parent, else the cut-off
    /// entry; chosen: the runner-up), its decision label and cost.
    std::string against;
    double againstCost = std::numeric_limits<double>::quiet_NaN();
    std::optional<CostTerms> termsDelta; ///< per term: this state minus `against`
    std::vector<WhyStageDelta> stagesDelta;
    /// not_sampled: the bucket (hash at the step's depth, size, parent beam index).
    std::optional<uint64_t> bucketHash;
    int bucketSize = 0;
    int bucketParent = -1;
    std::vector<WhyCandidate> representatives;
};

struct WhyResult {
    std::string func;
    std::string decision; ///< the description, e.g. "inline" or "root threads 32x8"
    WhyAnswer answer;     ///< chosen, or the decision's fate in the pass that found the best
    std::vector<WhyAnswer> passes; ///< its fate in every pass, in order (pre-pass first)
    std::vector<std::string> termNames;
    double bestCost = 0;
};

/// Follows one search and answers for one described decision.
class WhyNot {
public:
    /// `decision` is resolved like a pin (throws Error for an unknown Func or an impossible
    /// description); `options` are the search's.
    WhyNot(std::shared_ptr<const FunctionDAG> dag, const SearchOptions &options,
           const Pin &decision);
    ~WhyNot();
    WhyNot(const WhyNot &) = delete;
    WhyNot &operator=(const WhyNot &) = delete;

    /// Every step of the search, in order from step 0.
    void observe(const SearchStepPtr &step);
    /// The answer once the last step has been observed; throws Error before.
    WhyResult result() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

/// Runs the search of `options` over `dag` and answers for `decision`.
WhyResult whyNot(std::shared_ptr<const FunctionDAG> dag, const SearchOptions &options,
                 const Pin &decision, const CancelToken *cancel = nullptr);

/// {"verdict", "step", "pass", "func", "decision", "phase", "detail", "label", "cost_ms",
/// "cutoff_ms", "terms_delta", "stages_delta", "against", "reason", "bucket", "passes"}.
nlohmann::json whyToJson(const WhyResult &r);
/// The answer as a few readable lines.
void printWhy(const WhyResult &r, std::ostream &os);
/// A description's short text: "inline", "block of f serial 2x2", "root threads 32x8 serial 1x2".
std::string describeDecision(const Pin &decision);

} // namespace beamscope
