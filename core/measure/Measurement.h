// Measurement: the outcome of compiling and benchmarking one candidate schedule — run times,
// PTX resource usage, correctness against the reference, or the reason it failed. A failing
// candidate is a Measurement with `failure` set, never an exception in the tool.
#pragma once

#include "measure/KernelActivity.h"
#include "schedule/UnrollLimit.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <iosfwd>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace beamscope {

/// Resources ptxas reports for one kernel.
struct KernelResources {
    std::string name;
    int registers = 0;
    std::int64_t spillStoreBytes = 0;
    std::int64_t spillLoadBytes = 0;
    std::int64_t stackBytes = 0;
    bool operator==(const KernelResources &) const = default;
};

/// Median, min and max over the timed repeats, milliseconds.
struct RunTimes {
    double median = 0, min = 0, max = 0;
    bool operator==(const RunTimes &) const = default;
};

struct Measurement {
    static constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();

    std::string label;                  ///< "beam#0", "greedy#3", "baseline:naive", ...
    double predicted = kUnknown;        ///< cost model prediction, ms (NaN for baselines)
    std::optional<RunTimes> measuredMs; ///< absent when not run
    /// How many timed runs measuredMs summarizes (the job's repeats, or more: TimedRuns.h);
    /// 0: not run, or measured before it was recorded.
    int timedRuns = 0;
    int registers = -1;                 ///< max registers per thread over kernels; -1: unknown
    std::int64_t spillBytes = -1;       ///< spill stores + loads over kernels; -1: unknown
    std::optional<bool> correct;        ///< absent when the output was not checked
    double maxError = kUnknown;         ///< max absolute error against the reference
    std::string failure;                ///< why it failed; empty when it did not

    // Details beyond the summary row.
    double maxRelError = kUnknown; ///< max |error| / max(|reference|, 1)
    double searchMs = kUnknown;    ///< autoscheduler time (Halide baselines)
    double compileMs = kUnknown;   ///< JIT compile time for the run target
    /// Where a run's time went around the device (collect's time line sums them): creating the
    /// device context and uploading the inputs, waiting for the device lock, and holding it
    /// (warm-up with the kernels' module load, timed repeats, download).
    double deviceSetupMs = kUnknown, deviceWaitMs = kUnknown, deviceMs = kUnknown;
    /// The timed runs' thread priority: "realtime" (SCHED_FIFO, CUDA runs where the process
    /// may), "normal", or "" (not run, or measured before it was recorded). TimingPriority.h.
    std::string timingPriority;
    std::string target;                   ///< Halide target it ran on ("" if not run)
    std::string ptxArch;                  ///< "sm_75" when ptxas reported resources
    /// The most serial points per thread the schedule's lowering unrolled (UnrollLimit.h):
    /// this build's limit; a record that does not say was lowered with the legacy limit.
    std::int64_t maxUnrolledPoints = kMaxUnrolledPoints;
    std::vector<KernelResources> kernels; ///< per-kernel ptxas report
    /// Each kernel's own time on the device (CUDA runs, read with CUPTI after the timed runs;
    /// KernelActivity.h), longest first; empty with `kernelTimesNote` saying why.
    std::vector<KernelTime> kernelTimes;
    std::string kernelTimesNote; ///< why a CUDA run has no kernel times ("" otherwise)
    bool reused = false; ///< taken from the measurement database instead of being run again
    /// Set when the outputs were checked against the device's naive output because that differs
    /// from the CPU reference too (a float-sensitive pipeline), with the CPU difference.
    std::string checkNote;
    /// Set when the worker died by a signal: CrashTriage's verdict ("schedule reads out of
    /// bounds", "device compiler crashed", ...); the evidence is in `failure`.
    std::string crashVerdict;
    /// "shipped artifact" when beamscope-aot-runner ran a compiled artifact shipped to a Slurm
    /// node (AotArtifact.h): the node compiled nothing; "" : the worker compiled it.
    std::string ranFrom;

    bool failed() const { return !failure.empty(); }
    /// True when ptxas reported spilling (spillBytes > 0).
    bool spills() const { return spillBytes > 0; }

    /// {"label", "predicted", "measured_ms": {"median","min","max"}, "registers",
    /// "spill_bytes", "correct", "max_error", "failure", ...details, "reused"}; unknown values
    /// are null.
    nlohmann::json toJson() const;
    /// Reads what toJson writes; missing keys keep their defaults.
    static Measurement fromJson(const nlohmann::json &json);
    /// One "key: value" line per field.
    void dump(std::ostream &os) const;
};

/// Median, min and max of `samples` (non-empty), in the samples' unit.
RunTimes summarizeTimes(std::vector<double> samples);

} // namespace beamscope
