// Measurement runners: the local runner on two real OpenCL devices (PoCL exposes two when
// POCL_DEVICES="pthread pthread"): every job runs, both devices are used, a worker really is
// pinned to the device its environment names (an index past the last device fails); progress
// lines; the Slurm tools' output parsers (squeue, sacct) on output captured from Slurm 22.05;
// a crash read from Slurm's record of a task that wrote no result; the Slurm config file. The real
// cluster is exercised end to end by tests/slurm/slurm_tune.sh.
#include "BenchTestUtil.h"
#include "measure/DeviceList.h"
#include "measure/LocalRunner.h"
#include "measure/slurm/SlurmAccounting.h"
#include "measure/slurm/SlurmCrashTriage.h"
#include "measure/slurm/SlurmOptions.h"
#include "measure/slurm/SlurmQueue.h"
#include "util/Error.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <set>

using namespace beamscope;
using namespace beamscope::testing;

namespace {

BenchJob naiveJob(const std::string &label) {
    return smallChainJob(label, 2, 120);
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

TEST(SlurmQueue, SqueueTextCarriesTheTasksOwnJobId) {
    // `... -o '%F|%K|%T|%r|%N|%A'` as Slurm 22.05 prints it (a pending range has no own id).
    const std::string text = "1|2|COMPLETED|None|beamscope-node|1\n1|0|COMPLETED|None|"
                             "beamscope-node|2\n1|1|FAILED|NonZeroExitCode|beamscope-node|3\n"
                             "7|3-5|PENDING|Priority||7\n";
    const std::vector<SlurmTask> tasks = parseSqueueText(text, {1, 7});
    ASSERT_EQ(tasks.size(), 6u);
    EXPECT_EQ(tasks[0].jobId, 1);
    EXPECT_EQ(tasks[2].jobId, 3);
    EXPECT_EQ(tasks[3].jobId, 0);
}

TEST(SlurmAccounting, ParsesCompletionLogRecords) {
    // `sacct --completion --parsable2 --noheader -j 2,3,1 -o JobID,State,ExitCode,NodeList` on
    // the test cluster (jobcomp/filetxt): tasks by their own job ids, mapped back to the array.
    const std::string text = "2|COMPLETED|0:0|beamscope-node\n3|FAILED|3:0|beamscope-node\n"
                             "1|COMPLETED|0:0|beamscope-node\n9|FAILED|1:0|other\n";
    const SlurmJobIds ids = {{2, {1, 0}}, {3, {1, 1}}, {1, {1, 2}}};
    const std::vector<SlurmTask> tasks = parseSacctParsable(text, {1}, ids);
    ASSERT_EQ(tasks.size(), 3u); // job 9 is not one of ours
    EXPECT_EQ(tasks[1].task, 1);
    EXPECT_EQ(tasks[1].describe(), "FAILED (exit status 3)");
    EXPECT_EQ(tasks[2].task, 2);
    EXPECT_EQ(tasks[2].node, "beamscope-node");
}

TEST(SlurmAccounting, ParsesStorageRecords) {
    // With accounting storage, sacct names array tasks ARRAY_TASK; steps and other arrays are
    // skipped; "CANCELLED by 0" keeps its state word; a signal is the second ExitCode field.
    const std::string text = "40_0|COMPLETED|0:0|n1\n40_0.batch|COMPLETED|0:0|n1\n"
                             "40_1|TIMEOUT|0:15|n2\n40_2|CANCELLED by 0|0:0|None assigned\n"
                             "41_0|FAILED|1:0|n1\n40_[3-5]|PENDING|0:0|None assigned\n";
    const std::vector<SlurmTask> tasks = parseSacctParsable(text, {40}, {});
    ASSERT_EQ(tasks.size(), 3u);
    EXPECT_EQ(tasks[1].describe(), "TIMEOUT (signal 15)");
    EXPECT_EQ(tasks[2].state, "CANCELLED");
    EXPECT_EQ(tasks[2].node, "");
    // sacct --json: a sample written in the shape Slurm 22.05 documents (no slurmdbd here to
    // capture it from), and 23.02's {"number": N} and state lists.
    const std::string json = R"({"jobs": [
        {"job_id": 51, "array": {"job_id": 50, "task_id": 0}, "nodes": "n1",
         "state": {"current": "COMPLETED", "reason": "None"},
         "exit_code": {"status": "SUCCESS", "return_code": 0}},
        {"job_id": 52, "array": {"job_id": 50, "task_id": 1}, "nodes": "n2",
         "state": {"current": "OUT_OF_MEMORY", "reason": "None"},
         "exit_code": {"status": "SIGNALED", "return_code": 0, "signal": {"signal_id": 9}}},
        {"job_id": 53, "array": {"job_id": {"number": 50, "set": true},
                                 "task_id": {"number": 2, "set": true}}, "nodes": "n1",
         "state": {"current": ["FAILED"], "reason": "NonZeroExitCode"},
         "exit_code": {"status": ["ERROR"], "return_code": {"number": 2, "set": true}}},
        {"job_id": 60, "array": {"job_id": 0, "task_id": null}, "state": {"current": "COMPLETED"}}
    ]})";
    const std::vector<SlurmTask> fromJson = parseSacctJson(json, {50});
    ASSERT_EQ(fromJson.size(), 3u);
    EXPECT_EQ(fromJson[0].jobId, 51);
    EXPECT_EQ(fromJson[1].describe(), "OUT_OF_MEMORY (signal 9)");
    EXPECT_EQ(fromJson[2].task, 2);
    EXPECT_EQ(fromJson[2].describe(), "FAILED (NonZeroExitCode, exit status 2)");
    EXPECT_THROW(parseSacctJson("sacct: fatal: slurm not configured with slurmdbd", {50}), Error);
}

TEST(SlurmCrashTriage, ACrashFromSlurmsRecordOfATaskWithoutResult) {
    // The first two lines are `sacct --completion` on the test cluster after a task's program
    // died by SIGSEGV and its status file could not be written (run.sh exited 128+11), beside
    // a task that completed; the others are the states that are not crashes: a time limit
    // (SIGTERM, or 137 from `timeout -s KILL`), scancel, a plain error exit. A task that Slurm
    // reports killed by another signal (SIGABRT) is a crash too.
    const std::string text = "2|FAILED|139:0|beamscope-node\n1|COMPLETED|0:0|beamscope-node\n"
                             "3|TIMEOUT|0:15|beamscope-node\n4|FAILED|137:0|beamscope-node\n"
                             "5|CANCELLED|0:9|beamscope-node\n6|FAILED|1:0|beamscope-node\n"
                             "7|FAILED|0:6|beamscope-node\n";
    SlurmJobIds ids;
    for (long id = 1; id <= 7; ++id)
        ids[id] = {1, int(id)};
    std::map<int, int> signals;
    std::map<int, SlurmTask> tasks;
    for (const SlurmTask &t : parseSacctParsable(text, {1}, ids)) {
        signals[t.task] = slurmCrashSignal(t);
        tasks[t.task] = t;
    }
    EXPECT_EQ(signals,
              (std::map<int, int>{{1, 0}, {2, 11}, {3, 0}, {4, 0}, {5, 0}, {6, 0}, {7, 6}}));
    EXPECT_EQ(slurmCrashFailure(tasks[2], 11), "crash: signal 11 (Segmentation fault) — no result "
                                               "file; slurm: FAILED (exit status 139)");
    EXPECT_FALSE(submitHostName().empty());
}

TEST(SlurmOptions, ConfigFileThenFlags) {
    const std::string path = ::testing::TempDir() + "/beamscope-slurm.conf";
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
