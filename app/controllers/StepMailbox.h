// StepMailbox: a running search's results on their way to the GUI thread. The worker puts each
// step in (its record for the history, and the step itself as the next snapshot to show); the
// GUI thread takes what has come on a timer of its own (SearchController). Nothing is posted to
// the GUI thread per step: a search that steps faster than the views repaint kept the GUI's
// posted-event queue from ever draining, and its timers did not fire for as long as it ran
// (0.4-0.9 s gaps on a loaded 2-core machine, local_laplacian at 5 ms a step).
#pragma once

#include "controllers/StepHistory.h"
#include "search/SearchStep.h"

#include <mutex>
#include <utility>
#include <vector>

namespace beamscope {

class StepMailbox {
public:
    /// What the GUI keeps of one step.
    struct StepResult {
        int index = 0;
        int pass = 0;
        double bestCost = 0; ///< best cost in the beam (ms)
        HistoryRecord record;
    };
    /// The steps put in since the last take, the search's state after the newest, and (when
    /// asked for and not taken before) the newest step whole.
    struct Batch {
        std::vector<StepResult> steps;
        int done = 0;
        int estimated = 0;
        SearchCounters counters;
        SearchStepPtr snapshot;
    };

    /// Adds a step (worker thread); `step` replaces the snapshot not yet taken, which is freed
    /// here, on the worker, as big steps must not be freed on the GUI thread.
    void put(StepResult result, int done, int estimated, const SearchCounters &counters,
             SearchStepPtr step) {
        std::unique_lock lock(m_mutex);
        m_batch.steps.push_back(std::move(result));
        m_batch.done = done;
        m_batch.estimated = estimated;
        m_batch.counters = counters;
        std::swap(m_batch.snapshot, step);
        lock.unlock(); // `step` (the older snapshot) is freed after the lock is released
    }
    /// Everything put in since the last take (GUI thread). Without `withSnapshot` the newest
    /// step stays for a later take.
    Batch take(bool withSnapshot) {
        std::lock_guard lock(m_mutex);
        Batch out;
        std::swap(out.steps, m_batch.steps);
        out.done = m_batch.done;
        out.estimated = m_batch.estimated;
        out.counters = m_batch.counters;
        if (withSnapshot) std::swap(out.snapshot, m_batch.snapshot);
        return out;
    }

private:
    std::mutex m_mutex;
    Batch m_batch;
};

} // namespace beamscope
