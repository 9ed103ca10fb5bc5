// How many timed runs a measurement takes: at least the job's repeats, and more while their
// times add up to less than a minimum total, at most kMaxTimedRuns. A pipeline that runs in
// 20 us on a GPU is timed with the host's clock around each run, so one run is a few launches
// plus the jitter of the host; three such runs give a noisy minimum and median (random
// pipelines measured twice on the H100 disagreed by up to 3x), a hundred cost 2 ms of device
// time. A run of milliseconds (every run on PoCL) takes the repeats alone.
#pragma once

#include <chrono>
#include <vector>

namespace beamscope {

/// The most timed runs the minimum total asks for; explicit repeats may ask for more.
constexpr int kMaxTimedRuns = 100;

/// The default minimum total of a measurement's timed runs, milliseconds.
constexpr double kDefaultMinTimedMs = 10.0;

/// True while a measurement with `runs` timed runs adding up to `totalMs` wants another.
inline bool wantsAnotherTimedRun(int runs, double totalMs, int repeats, double minTotalMs) {
    if (runs < repeats) return true;
    return runs < kMaxTimedRuns && totalMs < minTotalMs;
}

/// Calls `runOnce` `warmup` times untimed, then times calls to it (the steady clock around each)
/// while wantsAnotherTimedRun() says so: the timed runs' milliseconds, in order. The worker and
/// beamscope-aot-runner time their runs with it; what `runOnce` throws stops the runs.
template <class RunOnce>
std::vector<double> timeRuns(int warmup, int repeats, double minTotalMs, RunOnce &&runOnce) {
    using Clock = std::chrono::steady_clock;
    for (int i = 0; i < warmup; ++i)
        runOnce();
    std::vector<double> times;
    double totalMs = 0;
    while (wantsAnotherTimedRun(int(times.size()), totalMs, repeats, minTotalMs)) {
        const Clock::time_point start = Clock::now();
        runOnce();
        times.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
        totalMs += times.back();
    }
    return times;
}

} // namespace beamscope
