// WhyNot answers as JSON (beamscope-cli why --json) and as readable lines.
#include "search/WhyNot.h"

#include "search/SearchReport.h"
#include "search/TermsJson.h"
#include "util/JsonNumber.h"

#include <cmath>
#include <ostream>

namespace beamscope {

namespace {

nlohmann::json answerJson(const WhyAnswer &a, const std::vector<std::string> &names) {
    nlohmann::json j = {
        {"verdict", whyVerdictName(a.verdict)},
        {"step", a.step},
        {"pass", a.pass},
        {"phase", a.phase},
        {"detail", a.detail},
        {"label", a.label},
        {"cost_ms", jsonNumber(a.cost)},
        {"cutoff_ms", jsonNumber(a.cutoff)},
        {"terms_delta", a.termsDelta ? termsJson(*a.termsDelta, names) : nlohmann::json::object()}};
    if (!a.reason.empty()) j["reason"] = a.reason;
    if (!a.against.empty())
        j["against"] = {{"decision", a.against}, {"cost_ms", jsonNumber(a.againstCost)}};
    nlohmann::json stages = nlohmann::json::array();
    for (const WhyStageDelta &d : a.stagesDelta)
        stages.push_back(
            {{"stage", d.stage}, {"total", d.total}, {"terms", termsJson(d.delta, names)}});
    j["stages_delta"] = stages;
    if (a.bucketHash) {
        nlohmann::json reps = nlohmann::json::array();
        for (const WhyCandidate &c : a.representatives)
            reps.push_back(
                {{"label", c.label}, {"cost_ms", jsonNumber(c.cost)}, {"in_beam", c.inBeam}});
        j["bucket"] = {{"hash", hashToHex(*a.bucketHash)},
                       {"size", a.bucketSize},
                       {"parent", a.bucketParent},
                       {"representatives", reps}};
    }
    return j;
}

std::string passName(int pass) {
    return pass == 0 ? "pre-pass" : "pass " + std::to_string(pass);
}

/// " at step N", counted from 1 as the Timeline and the Why not dialog count; JSON keeps the
/// index.
std::string atStep(int step) {
    return step < 0 ? std::string() : " at step " + std::to_string(step + 1);
}

} // namespace

nlohmann::json whyToJson(const WhyResult &r) {
    nlohmann::json j = answerJson(r.answer, r.termNames);
    j["func"] = r.func;
    j["decision"] = r.decision;
    j["best_ms"] = r.bestCost;
    nlohmann::json passes = nlohmann::json::array();
    for (const WhyAnswer &a : r.passes) {
        passes.push_back({{"pass", a.pass},
                          {"verdict", whyVerdictName(a.verdict)},
                          {"step", a.step},
                          {"detail", a.detail}});
    }
    j["passes"] = passes;
    return j;
}

void printWhy(const WhyResult &r, std::ostream &os) {
    const WhyAnswer &a = r.answer;
    os << r.func << " " << r.decision << ": " << whyVerdictName(a.verdict) << atStep(a.step) << " ("
       << passName(a.pass) << ", " << a.phase << ")\n";
    os << "  " << a.detail << "\n";
    if (a.termsDelta) {
        os << "  against '" << a.against << "' (" << a.againstCost << " ms), per term (ms):";
        for (size_t t = 0; t < r.termNames.size(); ++t)
            os << " " << r.termNames[t] << " " << std::showpos << (*a.termsDelta)[t]
               << std::noshowpos;
        os << "\n";
        for (const WhyStageDelta &d : a.stagesDelta)
            os << "    " << d.stage << " " << std::showpos << d.total << std::noshowpos << "\n";
    }
    for (const WhyCandidate &c : a.representatives)
        os << "  costed instead: '" << c.label << "' " << c.cost << " ms"
           << (c.inBeam ? " (in the beam)" : "") << "\n";
    for (const WhyAnswer &p : r.passes)
        os << "  " << passName(p.pass) << ": " << whyVerdictName(p.verdict) << atStep(p.step)
           << "\n";
}

} // namespace beamscope
