// Contents: TuneRound and TuneReport as JSON, the one-line round summary, and the CLI's printout.
#include "tune/Tuner.h"

#include "bench/CandidateLabel.h"
#include "util/JsonNumber.h"
#include "util/Text.h"

#include <cmath>
#include <iomanip>
#include <ostream>
#include <sstream>

namespace beamscope {

namespace {

double medianOf(const std::optional<Measurement> &m) {
    return m && m->measuredMs && m->correct.value_or(false) ? m->measuredMs->median
                                                            : Measurement::kUnknown;
}

} // namespace

nlohmann::json TuneRound::toJson() const {
    nlohmann::json pairs = nlohmann::json::array();
    for (const auto &[p, m] : predictedVsMeasured)
        pairs.push_back({jsonNumber(p), jsonNumber(m)});
    return {{"round", round},
            {"measured", measured},
            {"failures", failures},
            {"reused", reused},
            {"best_ms", jsonNumber(bestMs)},
            {"round_best_ms", jsonNumber(roundBestMs)},
            {"model", model},
            {"tau", jsonNumber(tau)},
            {"pairwise_accuracy", jsonNumber(pairwiseAccuracy)},
            {"predicted_vs_measured", pairs},
            {"search_ms", searchMs},
            {"measure_ms", measureMs},
            {"train_ms", trainMs}};
}

std::string tuneRoundLine(const TuneRound &r) {
    std::ostringstream os;
    os << "round " << r.round << ": " << r.measured << " measured, " << r.failures << " failed";
    if (r.reused > 0) os << ", " << r.reused << " from the database";
    os << ", best " << fixed(r.bestMs, 4) << " ms, tau " << fixed(r.tau, 2) << " (" << r.model
       << " model)";
    return os.str();
}

nlohmann::json TuneReport::toJson() const {
    nlohmann::json j;
    j["pipeline"] = pipeline;
    j["run_id"] = runId;
    j["device"] = device.describe();
    j["gpu"] = gpu.name;
    j["rounds"] = nlohmann::json::array();
    for (const TuneRound &r : rounds)
        j["rounds"].push_back(r.toJson());
    j["best"] = best ? best->toJson() : nlohmann::json();
    j["best_schedule"] = bestSchedule;
    j["one_shot"] = oneShot ? oneShot->toJson() : nlohmann::json();
    j["baselines"] = nlohmann::json::array();
    for (const Measurement &b : baselines)
        j["baselines"].push_back(b.toJson());
    const double bestMs = medianOf(best);
    const double oneShotMs = medianOf(oneShot);
    nlohmann::json speedups = nlohmann::json::object();
    speedups["one_shot"] = jsonNumber(oneShotMs / bestMs);
    for (const Measurement &b : baselines)
        speedups[b.label.substr(b.label.find(':') + 1)] =
            jsonNumber(medianOf(std::optional<Measurement>(b)) / bestMs);
    j["speedup_of_best_over"] = speedups;
    j["model_path"] = modelPath;
    j["cancelled"] = cancelled;
    return j;
}

void TuneReport::printSummary(std::ostream &os) const {
    os << "tune " << pipeline << " on " << device.describe() << " (GPU model " << gpu.name
       << ", run " << runId << ")\n";
    for (const TuneRound &r : rounds)
        os << "  " << tuneRoundLine(r) << "\n";
    const double bestMs = medianOf(best);
    auto row = [&](const std::string &name, const std::optional<Measurement> &m, bool isBest) {
        os << "  " << std::left << std::setw(24) << name << std::right;
        if (!m) {
            os << "not measured\n";
            return;
        }
        const double ms = medianOf(m);
        if (!std::isfinite(ms)) {
            os << (m->failed() ? m->failure : std::string("no correct run")) << "\n";
            return;
        }
        os << std::setw(10) << fixed(ms, 4) << " ms";
        if (std::isfinite(bestMs) && !isBest)
            os << "   best is " << fixed(ms / bestMs, 2) << "x faster";
        os << "\n";
    };
    row("best (" + (best ? candidateLabelInWords(best->label) : std::string("none")) + ")", best,
        true);
    row("one-shot (analytic)", oneShot, false);
    for (const Measurement &b : baselines)
        row(b.label, b, false);
    if (!modelPath.empty()) os << "  model: " << modelPath << "\n";
    if (cancelled)
        os << "  cancelled: the rows measured so far are in the database; --resume continues\n";
}

} // namespace beamscope
