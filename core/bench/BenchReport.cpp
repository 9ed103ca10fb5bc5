// BenchReport as JSON (written by the CLI's --json and into session files, read back when a
// session is reopened) and as the CLI's table (ending with the BenchVerdict line).
#include "bench/BenchRun.h"
#include "bench/BenchVerdict.h"
#include "bench/CandidateLabel.h"

#include "util/Error.h"
#include "util/JsonNumber.h"
#include "util/Text.h"

#include <cmath>
#include <iomanip>
#include <ostream>
#include <sstream>

namespace beamscope {

nlohmann::json BenchReport::toJson() const {
    nlohmann::json j;
    j["pipeline"] = pipeline;
    j["device"] = device.toJson();
    j["target"] = target;
    j["gpu"] = gpu.name;
    j["cost_model"] = costModel;
    j["mode"] = mode == BenchMode::TopK ? "topk" : "oneshot";
    j["ptx_capability"] = ptxCapability;
    j["candidates"] = nlohmann::json::array();
    for (size_t i = 0; i < candidates.size(); ++i) {
        nlohmann::json c = candidates[i].toJson();
        if (i < schedules.size()) c["schedule"] = schedules[i];
        j["candidates"].push_back(c);
    }
    j["baselines"] = nlohmann::json::array();
    for (const Measurement &m : baselines)
        j["baselines"].push_back(m.toJson());
    j["survivors"] = survivors;
    j["chosen"] = chosen >= 0 ? nlohmann::json(candidates[size_t(chosen)].label) : nlohmann::json();
    j["chosen_why"] = chosenWhy;
    j["beam_search_ms"] = beamSearchMs;
    j["greedy_search_ms"] = greedySearchMs;
    if (!freezing.empty()) j["freezing"] = freezing;
    j["bench_ms"] = benchMs;
    j["duplicates"] = duplicates;
    j["reused"] = reused;
    j["recorded"] = recorded;
    if (cancelled) j["cancelled"] = true;
    return j;
}

BenchReport BenchReport::fromJson(const nlohmann::json &j) {
    if (!j.is_object()) throw Error("benchmark report: not a JSON object");
    refuseFractionalIntegers(j, {"ptx_capability", "duplicates", "reused", "recorded"},
                             "benchmark report");
    if (auto it = j.find("survivors"); it != j.end() && it->is_array()) {
        for (const nlohmann::json &v : *it)
            if (v.is_number_float()) throw Error("benchmark report: 'survivors' must be integers");
    }
    try {
        BenchReport r;
        r.pipeline = j.value("pipeline", std::string());
        if (j.contains("device")) r.device = DeviceInfo::fromJson(j.at("device"));
        r.target = j.value("target", std::string());
        r.gpu.name = j.value("gpu", std::string());
        r.costModel = j.value("cost_model", std::string());
        r.mode = j.value("mode", std::string()) == "topk" ? BenchMode::TopK : BenchMode::OneShot;
        r.ptxCapability = j.value("ptx_capability", 0);
        for (const nlohmann::json &c : j.value("candidates", nlohmann::json::array())) {
            r.candidates.push_back(Measurement::fromJson(c));
            r.schedules.push_back(c.value("schedule", nlohmann::json()));
        }
        for (const nlohmann::json &b : j.value("baselines", nlohmann::json::array()))
            r.baselines.push_back(Measurement::fromJson(b));
        r.survivors = j.value("survivors", std::vector<size_t>());
        if (auto it = j.find("chosen"); it != j.end() && it->is_string()) {
            for (size_t i = 0; i < r.candidates.size(); ++i) {
                if (r.candidates[i].label == it->get<std::string>()) r.chosen = int(i);
            }
        }
        r.chosenWhy = j.value("chosen_why", std::string());
        r.beamSearchMs = j.value("beam_search_ms", 0.0);
        r.greedySearchMs = j.value("greedy_search_ms", 0.0);
        r.freezing = j.value("freezing", std::string());
        r.benchMs = j.value("bench_ms", 0.0);
        r.duplicates = j.value("duplicates", 0);
        r.reused = j.value("reused", 0);
        r.recorded = j.value("recorded", 0);
        r.cancelled = j.value("cancelled", false);
        return r;
    } catch (const nlohmann::json::exception &e) {
        throw Error(std::string("benchmark report: ") + e.what());
    }
}

void BenchReport::printKernelTimes(std::ostream &os) const {
    constexpr size_t kShown = 3; // the longest kernels of a row; the JSON report has them all
    std::vector<const Measurement *> rows;
    if (chosen >= 0) rows.push_back(&candidates[size_t(chosen)]);
    for (const Measurement &m : baselines)
        rows.push_back(&m);
    for (const Measurement *m : rows) {
        if (m->kernelTimes.empty()) {
            if (!m->kernelTimesNote.empty())
                os << "\nkernels of " << candidateLabelInWords(m->label) << ": "
                   << m->kernelTimesNote;
            continue;
        }
        double sum = 0;
        for (const KernelTime &k : m->kernelTimes)
            sum += k.ms;
        os << "\nkernels of " << candidateLabelInWords(m->label) << ": " << m->kernelTimes.size()
           << ", " << fixed(sum, 3) << " ms on the device";
        if (m->measuredMs) os << " of " << fixed(m->measuredMs->median, 3) << " ms";
        for (size_t i = 0; i < std::min(kShown, m->kernelTimes.size()); ++i) {
            const KernelTime &k = m->kernelTimes[i];
            os << (i == 0 ? ": " : ", ") << k.name << " " << fixed(k.ms, 3) << " ms";
            if (k.launches > 1) os << " (" << k.launches << " launches)";
        }
    }
}

void BenchReport::printTable(std::ostream &os) const {
    os << "pipeline " << pipeline << ", device " << device.describe() << "\n";
    os << "target " << (target.empty() ? "none (compile only)" : target) << ", GPU model "
       << gpu.name << ", PTX report "
       << (ptxCapability > 0 ? "sm_" + std::to_string(ptxCapability) : std::string("off"))
       << ", mode " << (mode == BenchMode::TopK ? "topk" : "oneshot")
       << (costModel.empty() ? "" : ", ranked by the " + costModel + " model") << "\n";
    os << "search: beam " << fixed(beamSearchMs, 1) << " ms, greedy samples "
       << fixed(greedySearchMs, 1) << " ms" << (freezing.empty() ? "" : ", freezing " + freezing)
       << (duplicates ? ", " + std::to_string(duplicates) + " duplicate(s) dropped" : "") << "\n\n";
    // The label column fits the longest label ("  baseline:anderson2021-paper") and a space.
    size_t labelWidth = 24;
    for (const auto *rows : {&candidates, &baselines})
        for (const Measurement &m : *rows)
            labelWidth = std::max(labelWidth, candidateLabelInWords(m.label).size() + 3);
    const int width = int(labelWidth);
    os << std::left << std::setw(width) << "label" << std::right << std::setw(13) << "predicted_ms"
       << std::setw(11) << "median_ms" << std::setw(6) << "regs" << std::setw(8) << "spills"
       << std::setw(9) << "correct" << std::setw(11) << "search_ms"
       << "  failure\n";
    auto row = [&](const Measurement &m, bool chosenRow) {
        os << std::left << std::setw(width)
           << ((chosenRow ? "* " : "  ") + candidateLabelInWords(m.label)) << std::right
           << std::setw(13) << fixed(m.predicted, 4) << std::setw(11)
           << (m.measuredMs ? fixed(m.measuredMs->median, 3) : "-") << std::setw(6)
           << (m.registers >= 0 ? std::to_string(m.registers) : "-") << std::setw(8)
           << (m.spillBytes >= 0 ? std::to_string(m.spillBytes) : "-") << std::setw(9)
           << (m.correct ? (*m.correct ? "true" : "false") : "-") << std::setw(11)
           << fixed(m.searchMs, 1) << "  " << (m.reused ? "reused " : "")
           << (m.failure.empty() ? "" : m.failure)
           << (m.checkNote.empty() ? "" : (m.failure.empty() ? "" : "; ") + m.checkNote) << "\n";
    };
    for (size_t i = 0; i < candidates.size(); ++i)
        row(candidates[i], int(i) == chosen);
    if (!baselines.empty()) {
        os << "\n";
        for (const Measurement &m : baselines)
            row(m, false);
    }
    os << "\nchosen: "
       << (chosen >= 0
               ? candidateLabelInWords(candidates[size_t(chosen)].label) + " (" + chosenWhy + ")"
               : chosenWhy);
    if (chosen >= 0 && candidates[size_t(chosen)].measuredMs)
        os << ", median " << fixed(candidates[size_t(chosen)].measuredMs->median) << " ms";
    printKernelTimes(os);
    // The speedups and the GPU model hint, worded as the GUI's Benchmark dock shows them.
    os << "\nverdict: " << benchVerdict(*this).text();
    os << "\nbench time " << fixed(benchMs / 1000, 1) << " s\n";
}

} // namespace beamscope
