// How many timed runs a measurement takes: at least the job's repeats, and more while their
// times add up to less than a minimum total, at most kMaxTimedRuns. A pipeline that runs in
// 20 us on a GPU is timed with the host's clock around each run, so one run is a few launches
// plus the jitter of the host; three such runs give a noisy minimum and median (random
// pipelines measured twice on the H100 disagreed by up to 3x), a hundred cost 2 ms of device
// time. A run of milliseconds (every run on PoCL) takes the repeats alone.
#pragma once

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

} // namespace beamscope
