// Measurement as JSON (the worker's result line) and as text.
#include "measure/Measurement.h"

#include "util/JsonNumber.h"

#include <algorithm>
#include <cmath>
#include <ostream>

namespace beamscope {

namespace {

double numberOr(const nlohmann::json &json, const char *key, double fallback) {
    auto it = json.find(key);
    return it != json.end() && it->is_number() ? it->get<double>() : fallback;
}

} // namespace

nlohmann::json Measurement::toJson() const {
    nlohmann::json j;
    j["label"] = label;
    j["predicted"] = jsonNumber(predicted);
    j["measured_ms"] = measuredMs ? nlohmann::json{{"median", measuredMs->median},
                                                   {"min", measuredMs->min},
                                                   {"max", measuredMs->max}}
                                  : nlohmann::json();
    if (timedRuns > 0) j["timed_runs"] = timedRuns;
    j["registers"] = registers >= 0 ? nlohmann::json(registers) : nlohmann::json();
    j["spill_bytes"] = spillBytes >= 0 ? nlohmann::json(spillBytes) : nlohmann::json();
    j["correct"] = correct ? nlohmann::json(*correct) : nlohmann::json();
    j["max_error"] = jsonNumber(maxError);
    j["failure"] = failure.empty() ? nlohmann::json() : nlohmann::json(failure);
    j["max_rel_error"] = jsonNumber(maxRelError);
    j["search_ms"] = jsonNumber(searchMs);
    j["compile_ms"] = jsonNumber(compileMs);
    if (std::isfinite(deviceMs)) { // absent for runs that never held the device
        j["device_setup_ms"] = jsonNumber(deviceSetupMs);
        j["device_wait_ms"] = jsonNumber(deviceWaitMs);
        j["device_ms"] = jsonNumber(deviceMs);
        if (!timingPriority.empty()) j["timing_priority"] = timingPriority;
    }
    j["target"] = target;
    j["ptx_arch"] = ptxArch;
    j["max_unrolled_points"] = maxUnrolledPoints;
    nlohmann::json ks = nlohmann::json::array();
    for (const KernelResources &k : kernels) {
        ks.push_back({{"name", k.name},
                      {"registers", k.registers},
                      {"spill_store_bytes", k.spillStoreBytes},
                      {"spill_load_bytes", k.spillLoadBytes},
                      {"stack_bytes", k.stackBytes}});
    }
    j["kernels"] = ks;
    if (!kernelTimes.empty()) {
        nlohmann::json times = nlohmann::json::array();
        for (const KernelTime &k : kernelTimes)
            times.push_back({{"name", k.name}, {"ms", k.ms}, {"launches", k.launches}});
        j["kernel_times"] = times;
    }
    if (!kernelTimesNote.empty()) j["kernel_times_note"] = kernelTimesNote;
    j["reused"] = reused;
    j["check_note"] = checkNote.empty() ? nlohmann::json() : nlohmann::json(checkNote);
    j["crash_verdict"] = crashVerdict.empty() ? nlohmann::json() : nlohmann::json(crashVerdict);
    if (!ranFrom.empty()) j["ran_from"] = ranFrom;
    return j;
}

Measurement Measurement::fromJson(const nlohmann::json &j) {
    Measurement m;
    if (!j.is_object()) return m;
    m.label = j.value("label", std::string());
    m.predicted = numberOr(j, "predicted", kUnknown);
    if (auto it = j.find("measured_ms"); it != j.end() && it->is_object()) {
        m.measuredMs =
            RunTimes{numberOr(*it, "median", 0), numberOr(*it, "min", 0), numberOr(*it, "max", 0)};
    }
    m.timedRuns = jsonIntegerOr(j, "timed_runs", m.timedRuns);
    m.registers = jsonIntegerOr(j, "registers", m.registers);
    m.spillBytes = jsonIntegerOr(j, "spill_bytes", m.spillBytes);
    if (auto it = j.find("correct"); it != j.end() && it->is_boolean()) m.correct = it->get<bool>();
    m.maxError = numberOr(j, "max_error", kUnknown);
    if (auto it = j.find("failure"); it != j.end() && it->is_string())
        m.failure = it->get<std::string>();
    m.maxRelError = numberOr(j, "max_rel_error", kUnknown);
    m.searchMs = numberOr(j, "search_ms", kUnknown);
    m.compileMs = numberOr(j, "compile_ms", kUnknown);
    m.deviceSetupMs = numberOr(j, "device_setup_ms", kUnknown);
    m.deviceWaitMs = numberOr(j, "device_wait_ms", kUnknown);
    m.deviceMs = numberOr(j, "device_ms", kUnknown);
    m.timingPriority = j.value("timing_priority", std::string());
    m.target = j.value("target", std::string());
    m.ptxArch = j.value("ptx_arch", std::string());
    m.maxUnrolledPoints = jsonIntegerOr(j, "max_unrolled_points", kLegacyMaxUnrolledPoints);
    if (auto it = j.find("kernels"); it != j.end() && it->is_array()) {
        for (const auto &k : *it) {
            KernelResources r;
            r.name = k.value("name", std::string());
            r.registers = jsonIntegerOr(k, "registers", 0);
            r.spillStoreBytes = jsonIntegerOr(k, "spill_store_bytes", std::int64_t(0));
            r.spillLoadBytes = jsonIntegerOr(k, "spill_load_bytes", std::int64_t(0));
            r.stackBytes = jsonIntegerOr(k, "stack_bytes", std::int64_t(0));
            m.kernels.push_back(r);
        }
    }
    if (auto it = j.find("kernel_times"); it != j.end() && it->is_array()) {
        for (const auto &k : *it) {
            if (!k.is_object()) continue;
            const auto name = k.find("name");
            m.kernelTimes.push_back(
                {name != k.end() && name->is_string() ? name->get<std::string>() : "",
                 numberOr(k, "ms", 0), jsonIntegerOr(k, "launches", 0)});
        }
    }
    if (auto it = j.find("kernel_times_note"); it != j.end() && it->is_string())
        m.kernelTimesNote = it->get<std::string>();
    m.reused = j.value("reused", false);
    if (auto it = j.find("check_note"); it != j.end() && it->is_string())
        m.checkNote = it->get<std::string>();
    if (auto it = j.find("crash_verdict"); it != j.end() && it->is_string())
        m.crashVerdict = it->get<std::string>();
    if (auto it = j.find("ran_from"); it != j.end() && it->is_string())
        m.ranFrom = it->get<std::string>();
    return m;
}

void Measurement::dump(std::ostream &os) const {
    os << "label: " << label << "\n";
    os << "predicted: " << predicted << "\n";
    if (measuredMs) {
        os << "measured_ms: median " << measuredMs->median << " min " << measuredMs->min << " max "
           << measuredMs->max << "\n";
    } else {
        os << "measured_ms: -\n";
    }
    os << "registers: " << registers << "\nspill_bytes: " << spillBytes << "\n";
    os << "correct: " << (correct ? (*correct ? "true" : "false") : "-") << "\n";
    os << "max_error: " << maxError << "\nfailure: " << failure << "\n";
    if (!checkNote.empty()) os << "check_note: " << checkNote << "\n";
    if (!crashVerdict.empty()) os << "crash_verdict: " << crashVerdict << "\n";
    if (!ranFrom.empty()) os << "ran_from: " << ranFrom << "\n";
    for (const KernelResources &k : kernels) {
        os << "kernel " << k.name << ": " << k.registers << " registers, " << k.spillStoreBytes
           << " B spill stores, " << k.spillLoadBytes << " B spill loads\n";
    }
    for (const KernelTime &k : kernelTimes) {
        os << "kernel time " << k.name << ": " << k.ms << " ms (" << k.launches
           << (k.launches == 1 ? " launch" : " launches") << ")\n";
    }
    if (!kernelTimesNote.empty()) os << "kernel_times_note: " << kernelTimesNote << "\n";
}

RunTimes summarizeTimes(std::vector<double> samples) {
    if (samples.empty()) return {};
    std::sort(samples.begin(), samples.end());
    const size_t n = samples.size();
    const double median = n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
    return {median, samples.front(), samples.back()};
}

} // namespace beamscope
