// BenchVerdict: what a finished benchmark says, in one place for both front ends — the chosen
// row, its speedup over each baseline measured beside it, and, when the search modelled another
// GPU than the device that ran the candidates, the GPU model that fits that device. The CLI's
// bench table (BenchReport::printTable) and the GUI's Benchmark dock print its one-line text.
#pragma once

#include "bench/BenchRun.h"

#include <optional>
#include <string>
#include <vector>

namespace beamscope {

/// The chosen schedule against one baseline measured in the same run.
struct BaselineSpeedup {
    std::string baseline;  ///< its name without the "baseline:" prefix ("naive", "li2018")
    double baselineMs = 0; ///< the baseline's median, ms
    double speedup = 0;    ///< baseline median / chosen median: above 1, ours is faster
};

/// A benchmark report's conclusion.
struct BenchVerdict {
    bool cancelled = false;
    int rowsMeasured = 0;           ///< candidates and baselines that finished
    int chosen = -1;                ///< index into the report's candidates, -1 when none
    std::string chosenLabel;        ///< "beam#0", "" when none
    std::string chosenWhy;          ///< why it was chosen, or why nothing was
    std::optional<double> chosenMs; ///< its measured median, when it was measured
    /// Against every correct, measured baseline, in the report's order (only when chosenMs).
    std::vector<BaselineSpeedup> speedups;
    std::string device; ///< DeviceInfo::describe() of where the rows ran
    std::string pipeline;
    std::string modelledGpu; ///< the GPU model the search used
    /// The GPU model that fits the device, when a device ran the rows and it is not the one
    /// modelled (predictions were for another GPU); "" otherwise.
    std::string fittingGpu;

    /// One line: "Chosen beam#0: 0.412 ms, 2.50× faster than naive, 1.10× slower than li2018 —
    /// on OpenCL CPU ..., pipeline blur. The search modelled the V100; ..."
    std::string text() const;
};

/// The verdict of `report` (a finished, cancelled or restored one).
BenchVerdict benchVerdict(const BenchReport &report);

} // namespace beamscope
