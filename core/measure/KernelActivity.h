// KernelActivity: each GPU kernel's own time on a CUDA device, read with CUPTI's activity API
// (start and end stamps the device writes for every kernel it runs). The worker's timed runs
// give one wall-clock time for the whole pipeline; these say which kernel it went to, what a
// per-kernel cost model is judged against (docs/design-notes.md, "Per-kernel times").
//
// CUPTI is loaded at run time (libcupti.so.13, or the file BEAMSCOPE_CUPTI names), never linked:
// Beamscope builds and runs without it, and a machine without it, without a driver or with a
// CUPTI that refuses says why in one line (`unavailable()`). Only one KernelActivity may record
// at a time in a process (CUPTI's buffer callbacks are process-wide); the worker makes one.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace beamscope {

/// One kernel launch as the device recorded it.
struct KernelRecord {
    std::string name; ///< the kernel's entry name, as in the PTX ("_kernel_output_s0_...")
    std::uint64_t startNs = 0, endNs = 0;
};

/// One kernel's time in a realization: the median over the profiled runs of its launches'
/// summed durations in a run.
struct KernelTime {
    std::string name;
    double ms = 0;
    int launches = 0; ///< launches per run (the most any run made)
    bool operator==(const KernelTime &) const = default;
};

/// Per-kernel times from `runs` (each the records of one realization, in any order): by name,
/// longest first (ties by name). A kernel missing from a run counts 0 ms in that run.
std::vector<KernelTime> summarizeKernelRuns(const std::vector<std::vector<KernelRecord>> &runs);

class KernelActivity {
public:
    /// Loads CUPTI and starts recording the kernels of every CUDA context in the process.
    KernelActivity();
    /// Stops recording (records not collected are dropped).
    ~KernelActivity();
    KernelActivity(const KernelActivity &) = delete;
    KernelActivity &operator=(const KernelActivity &) = delete;

    bool recording() const { return m_recording; }
    /// Why it does not record ("" when it does): one line.
    const std::string &unavailable() const { return m_unavailable; }
    /// The kernels that completed since the last call, once the device is synchronized (CUPTI's
    /// buffers are flushed first). Empty when not recording.
    std::vector<KernelRecord> collect();

private:
    bool m_recording = false;
    std::string m_unavailable;
};

} // namespace beamscope
