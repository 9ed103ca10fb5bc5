// BenchVerdict: the conclusion drawn from a BenchReport and its one-line text.
#include "bench/BenchVerdict.h"

#include "bench/CandidateLabel.h"

#include <cstdio>

namespace beamscope {

namespace {

/// `v` with `decimals` digits after the point.
std::string withDecimals(double v, int decimals) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, v);
    return buffer;
}

/// `v` with 4 significant digits, as a user reads a time ("0.4123", "12.35").
std::string significant(double v) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.4g", v);
    return buffer;
}

} // namespace

BenchVerdict benchVerdict(const BenchReport &report) {
    BenchVerdict v;
    v.cancelled = report.cancelled;
    v.rowsMeasured = int(report.candidates.size() + report.baselines.size());
    v.chosenWhy = report.chosenWhy;
    v.device = report.device.describe();
    v.pipeline = report.pipeline;
    v.modelledGpu = report.gpu.name;
    if (report.chosen >= 0 && size_t(report.chosen) < report.candidates.size()) {
        const Measurement &chosen = report.candidates[size_t(report.chosen)];
        v.chosen = report.chosen;
        v.chosenLabel = chosen.label;
        if (chosen.measuredMs) v.chosenMs = chosen.measuredMs->median;
    }
    if (v.chosenMs && *v.chosenMs > 0) {
        for (const Measurement &b : report.baselines) {
            if (!b.measuredMs || !b.correct.value_or(false)) continue;
            const std::string prefix = "baseline:";
            BaselineSpeedup s;
            s.baseline = b.label.rfind(prefix, 0) == 0 ? b.label.substr(prefix.size()) : b.label;
            s.baselineMs = b.measuredMs->median;
            s.speedup = s.baselineMs / *v.chosenMs;
            v.speedups.push_back(s);
        }
    }
    // Predictions are for the GPU model searched for; say so when the device is another one.
    if (report.device.kind != DeviceKind::None) {
        const GpuSpec fitting = gpuSpecForDevice(report.device);
        if (!fitting.name.empty() && fitting.name != report.gpu.name) v.fittingGpu = fitting.name;
    }
    return v;
}

std::string BenchVerdict::text() const {
    std::string t;
    if (cancelled) t += "Cancelled: " + std::to_string(rowsMeasured) + " of the rows measured. ";
    if (chosen < 0) return t + "No candidate chosen: " + chosenWhy + ".";
    t += "Chosen " + candidateLabelInWords(chosenLabel);
    if (!chosenMs) return t + ".";
    t += ": " + significant(*chosenMs) + " ms";
    for (const BaselineSpeedup &s : speedups) {
        const bool faster = s.speedup >= 1;
        t += ", " + withDecimals(faster ? s.speedup : 1 / s.speedup, 2) +
             (faster ? "× faster than " : "× slower than ") + s.baseline;
    }
    t += " — on " + device + ", pipeline " + pipeline + ".";
    if (!fittingGpu.empty()) {
        t += " The search modelled the " + modelledGpu + "; the " + fittingGpu +
             " model fits this device: search with it to compare like with like.";
    }
    return t;
}

} // namespace beamscope
