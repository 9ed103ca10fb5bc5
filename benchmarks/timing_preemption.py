#!/usr/bin/env python3
"""Why timed runs go to SCHED_FIFO (measure/TimingPriority.h; docs/design-notes.md, "Timing on a
busy machine"), shown on the CPU alone: a thread that spins for 2 ms (as a thread waiting for
the GPU spins in the CUDA driver) is timed by the wall clock 40 times, with every core running a
hog, at normal priority and then at SCHED_FIFO (needs root or RLIMIT_RTPRIO), then without hogs.

    python3 benchmarks/timing_preemption.py [HOGS]      (HOGS: default 2 per core)
"""
import multiprocessing
import os
import statistics
import sys
import time


def hog():
    while True:
        pass


def timed_spins(n=40, spin_s=0.002):
    times = []
    for _ in range(n):
        start = time.perf_counter()
        end = time.thread_time() + spin_s
        while time.thread_time() < end:
            pass
        times.append((time.perf_counter() - start) * 1e3)
    return times


def report(what):
    t = timed_spins()
    print(f"{what:28} median {statistics.median(t):6.2f} ms  min {min(t):5.2f}  max {max(t):6.2f}")


def main():
    hogs = int(sys.argv[1]) if len(sys.argv) > 1 else 2 * os.cpu_count()
    procs = [multiprocessing.Process(target=hog, daemon=True) for _ in range(hogs)]
    for p in procs:
        p.start()
    time.sleep(0.5)
    report(f"{hogs} hogs, normal priority")
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))
        report(f"{hogs} hogs, SCHED_FIFO")
        os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
    except PermissionError:
        print("SCHED_FIFO not allowed here (needs root or RLIMIT_RTPRIO)")
    for p in procs:
        p.terminate()
    for p in procs:
        p.join()
    report("no hogs, normal priority")


if __name__ == "__main__":
    main()
