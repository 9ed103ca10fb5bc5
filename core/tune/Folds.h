// Folds of an evaluation (one model trained per held-out app) run side by side: in index order,
// stopping at the first failure, with an error that does not depend on the threads' timing.
#pragma once

#include <cstddef>
#include <functional>

namespace beamscope {

/// Runs fold(i) for i in [0, count) on `jobs` threads (at most `count`), taking the folds in index
/// order; after a failure no further fold starts (a fold trains for seconds to minutes), and the
/// first failure in index order is rethrown once the running folds have ended. A fold once taken
/// runs, and every fold below a failed one was taken before it, so which failure is rethrown is
/// the same however the threads interleave (with one job: the first that fails).
void runFolds(std::size_t count, int jobs, const std::function<void(std::size_t)> &fold);

} // namespace beamscope
