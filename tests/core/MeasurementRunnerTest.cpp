// Measurement runners: the local runner on two real OpenCL devices (PoCL exposes two when
// POCL_DEVICES="pthread pthread"): every job runs, both devices are used, a worker really is
// pinned to the device its environment names (an index past the last device fails); progress
// lines; the Slurm tools' output parsers on output captured from Slurm 22.05; the Slurm config
// file. The real cluster is exercised end to end by tests/slurm/slurm_tune.sh.
#include "bench/DeviceList.h"
#include "bench/LocalRunner.h"
#include "bench/slurm/SlurmOptions.h"
#include "bench/slurm/SlurmQueue.h"
#include "util/Error.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>

using namespace beamscope;

namespace {

WorkerOptions testWorker() {
    WorkerOptions options;
#ifdef BEAMSCOPE_TEST_WORKER
    options.workerPath = BEAMSCOPE_TEST_WORKER;
#endif
    return options;
}

BenchJob naiveJob(const std::string &label) {
    BenchJob job;
    job.label = label;
    job.source = {"stencil_chain", "", {"length=2", "width=64", "height=48"}};
    job.baseline = "naive";
    job.target = "host-opencl";
    job.repeats = 2;
    job.timeoutS = 120;
    return job;
}

} // namespace

TEST(LocalRunner, MeasuresOnTwoPoclDevicesAtOnce) {
    // Each test runs in its own process (gtest_discover_tests): PoCL reads this at its start.
    setenv("POCL_DEVICES", "pthread pthread", 1);
    const DeviceInfo device = detectOpenClDevice();
    ASSERT_EQ(device.kind, DeviceKind::OpenCL) << "PoCL is part of the test machine's set-up";
    const std::vector<DeviceSlot> slots = listDevices(device);
    ASSERT_EQ(slots.size(), 2u);
    EXPECT_EQ(slots[0].label, "opencl:0");
    EXPECT_EQ(slots[1].label, "opencl:1");
    EXPECT_NE(slots[0].lockPath, slots[1].lockPath);
    EXPECT_NE(
        std::find(slots[1].environment.begin(), slots[1].environment.end(), "HL_GPU_DEVICE=1"),
        slots[1].environment.end());

    LocalRunner runner(slots, 0, testWorker());
    EXPECT_EQ(runner.workers(), 2); // one per device on a CPU device
    std::vector<BenchJob> jobs;
    for (int i = 0; i < 4; ++i)
        jobs.push_back(naiveJob("j" + std::to_string(i)));
    RunnerProgress last;
    int peakRunning = 0;
    std::set<size_t> done;
    RunnerCallbacks callbacks;
    callbacks.onProgress = [&](const RunnerProgress &p) {
        last = p;
        peakRunning = std::max(peakRunning, p.running());
        for (const NodeProgress &n : p.nodes)
            EXPECT_LE(n.running, 1) << n.node << ": two jobs on one device at once";
    };
    callbacks.onDone = [&](size_t i, const Measurement &) { done.insert(i); };
    const std::vector<Measurement> rows = runner.run(jobs, callbacks);
    ASSERT_EQ(rows.size(), 4u);
    for (const Measurement &m : rows) {
        EXPECT_FALSE(m.failed()) << m.label << ": " << m.failure;
        EXPECT_TRUE(m.correct.value_or(false)) << m.label;
    }
    EXPECT_EQ(done.size(), 4u);
    EXPECT_EQ(peakRunning, 2) << "the two devices never worked at the same time";
    EXPECT_EQ(last.done(), 4);
    EXPECT_EQ(last.pending(), 0);
    int devicesUsed = 0;
    for (const NodeProgress &n : last.nodes)
        devicesUsed += n.node.rfind("opencl:", 0) == 0 && n.done > 0;
    EXPECT_EQ(devicesUsed, 2) << last.line();

    // The worker runs where its environment points: a third device does not exist.
    DeviceSlot missing = slots[1];
    missing.index = 2;
    missing.label = "opencl:2";
    missing.environment.back() = "HL_GPU_DEVICE=2";
    LocalRunner wrong({missing}, 1, testWorker());
    const std::vector<Measurement> bad = wrong.run({naiveJob("nowhere")}, {});
    ASSERT_EQ(bad.size(), 1u);
    EXPECT_TRUE(bad[0].failed()) << "HL_GPU_DEVICE=2 ran although PoCL has two devices";
}

TEST(RunnerProgress, LineCountsPerNode) {
    RunnerProgress p;
    p.at("(queue)").pending = 3;
    p.at("node-a").running = 1;
    p.at("node-a").done = 2;
    p.at("node-b").done = 1;
    EXPECT_EQ(p.line(), "3 pending, 1 running, 3 done — (queue) 3/0/0, node-a 0/1/2, node-b 0/0/1");
    EXPECT_EQ(parseRunnerKind("slurm"), RunnerKind::Slurm);
    EXPECT_THROW(parseRunnerKind("ssh"), UsageError);
}

TEST(SlurmQueue, ParsesSbatchAndTaskStrings) {
    EXPECT_EQ(parseSbatchParsable("4\n"), 4);
    EXPECT_EQ(parseSbatchParsable("12345;cluster-a\n"), 12345);
    EXPECT_FALSE(parseSbatchParsable("sbatch: error: Batch job submission failed\n"));
    EXPECT_EQ(expandTaskString("1-3%1"), (std::vector<int>{1, 2, 3}));
    EXPECT_EQ(expandTaskString("0,2,5-6"), (std::vector<int>{0, 2, 5, 6}));
    EXPECT_TRUE(expandTaskString("N/A").empty());
}

TEST(SlurmQueue, ParsesSqueueJsonOfSlurm2205) {
    // Abridged from `squeue --states=all --json -j 4` on Debian 12's Slurm 22.05.8: the array's
    // unstarted tasks are one entry with a task string; task 1 ended with exit status 1 (wait
    // status 256); a job of another array (1) is listed although -j asked for 4.
    const std::string text = R"({"meta": {}, "errors": [], "jobs": [
      {"job_id": 6, "array_job_id": 4, "array_task_id": 0, "array_task_string": "",
       "job_state": "RUNNING", "state_reason": "None", "nodes": "beamscope-node", "exit_code": 0},
      {"job_id": 7, "array_job_id": 4, "array_task_id": 1, "array_task_string": "",
       "job_state": "FAILED", "state_reason": "NonZeroExitCode", "nodes": "beamscope-node",
       "exit_code": 256},
      {"job_id": 4, "array_job_id": 4, "array_task_id": null, "array_task_string": "2-3%1",
       "job_state": "PENDING", "state_reason": "JobArrayTaskLimit", "nodes": "", "exit_code": 0},
      {"job_id": 2, "array_job_id": 1, "array_task_id": 0, "array_task_string": "",
       "job_state": "COMPLETED", "state_reason": "None", "nodes": "beamscope-node", "exit_code": 0},
      {"job_id": 5, "array_job_id": 0, "array_task_id": null, "array_task_string": "",
       "job_state": "RUNNING", "state_reason": "None", "nodes": "beamscope-node", "exit_code": 0}
    ]})";
    const std::vector<SlurmTask> tasks = parseSqueueJson(text, {4});
    ASSERT_EQ(tasks.size(), 4u);
    EXPECT_EQ(tasks[0].task, 0);
    EXPECT_FALSE(tasks[0].finished());
    EXPECT_EQ(tasks[1].describe(), "FAILED (NonZeroExitCode, exit status 1)");
    EXPECT_TRUE(tasks[1].finished());
    EXPECT_EQ(tasks[2].task, 2);
    EXPECT_EQ(tasks[3].task, 3);
    EXPECT_EQ(tasks[3].state, "PENDING");
    EXPECT_EQ(tasks[3].node, "");
    EXPECT_THROW(parseSqueueJson("squeue: error: Invalid job id", {4}), Error);
}

TEST(SlurmQueue, ParsesSqueueTextFormat) {
    // `squeue -h -r --states=all -o '%F|%K|%T|%r|%N'` lines.
    const std::string text = "4|1|PENDING|JobArrayTaskLimit|\n4|0|RUNNING|None|beamscope-node\n"
                             "9|0|TIMEOUT|TimeLimit|beamscope-node\n5|N/A|RUNNING|None|x\n";
    const std::vector<SlurmTask> tasks = parseSqueueText(text, {4, 9});
    ASSERT_EQ(tasks.size(), 3u);
    EXPECT_EQ(tasks[1].node, "beamscope-node");
    EXPECT_EQ(tasks[2].describe(), "TIMEOUT (TimeLimit)");
    EXPECT_TRUE(tasks[2].finished());
}

TEST(SlurmOptions, ConfigFileThenFlags) {
    const std::string path = testing::TempDir() + "/beamscope-slurm.conf";
    {
        std::ofstream out(path);
        out << "# site settings\ndir = /shared/jobs\npartition = gpu  # the A100s\n"
               "gres = none\noption = --qos=short\noption = --exclusive\ncompile = job\n"
               "max_parallel = 8\n";
    }
    SlurmOptions o;
    o.loadFile(path);
    EXPECT_EQ(o.dir, "/shared/jobs");
    EXPECT_EQ(o.partition, "gpu");
    EXPECT_EQ(o.gres, "");
    EXPECT_EQ(o.options, (std::vector<std::string>{"--qos=short", "--exclusive"}));
    EXPECT_FALSE(o.compileLocally);
    EXPECT_EQ(o.maxParallel, 8);
    o.set("gres", "gpu:a100:1");
    EXPECT_EQ(o.gres, "gpu:a100:1");
    {
        std::ofstream out(path);
        out << "dir = /x\nqueue = fast\n";
    }
    try {
        SlurmOptions bad;
        bad.loadFile(path);
        FAIL() << "an unknown key was accepted";
    } catch (const UsageError &e) {
        EXPECT_NE(std::string(e.what()).find(":2: unknown slurm option 'queue'"), std::string::npos)
            << e.what();
    }
    EXPECT_THROW(o.set("compile", "remote"), UsageError);
    EXPECT_THROW(SlurmOptions().loadFile("/nonexistent/slurm.conf"), UsageError);
}
