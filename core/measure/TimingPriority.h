// TimingPriority: the measuring thread at real-time priority (SCHED_FIFO) for the timed runs on
// a CUDA device, where the process may raise it (root or RLIMIT_RTPRIO; else it stays normal).
// On a machine whose cores are all busy compiling (collect, benches side by side) a thread
// waiting for the GPU at normal priority loses the CPU for whole scheduler slices: the H100
// checks' medians clustered at multiples of 4 ms (the tick at HZ=250) while their minima did not
// (docs/design-notes.md, "Timing on a busy machine"). A SCHED_FIFO thread is not preempted by
// them. BEAMSCOPE_TIMING_PRIORITY=normal turns it off (to compare). Header-only, free of Halide.
#pragma once

#include <sched.h>

#include <cstdlib>
#include <cstring>

namespace beamscope {

class TimingPriority {
public:
    /// Raises the calling thread's priority when `wanted` (a CUDA run) and not turned off.
    explicit TimingPriority(bool wanted) {
        if (!wanted) return;
        const char *env = std::getenv("BEAMSCOPE_TIMING_PRIORITY");
        if (env && std::strcmp(env, "normal") == 0) return;
        m_oldPolicy = sched_getscheduler(0);
        if (m_oldPolicy < 0 || sched_getparam(0, &m_oldParam) != 0) return;
        sched_param fifo{};
        fifo.sched_priority = 1; // the lowest real-time priority: above every normal thread
        m_raised = sched_setscheduler(0, SCHED_FIFO, &fifo) == 0;
    }
    ~TimingPriority() {
        if (m_raised) sched_setscheduler(0, m_oldPolicy, &m_oldParam);
    }
    TimingPriority(const TimingPriority &) = delete;
    TimingPriority &operator=(const TimingPriority &) = delete;

    bool raised() const { return m_raised; }
    /// "realtime" or "normal", as measurements record it.
    const char *name() const { return m_raised ? "realtime" : "normal"; }

private:
    bool m_raised = false;
    int m_oldPolicy = -1;
    sched_param m_oldParam{};
};

} // namespace beamscope
