// runWorker: job file in TMPDIR, runProcess with the job's timeout, then classification of how
// the worker ended. The worker prints its Measurement as the last JSON line of stdout; an
// error exit prints {"failure": "..."} there instead.
#include "measure/WorkerRunner.h"

#include "measure/CrashTriage.h"
#include "measure/DeviceLock.h"
#include "util/Subprocess.h"
#include "util/Error.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace beamscope {

namespace {

std::string executableDirectory() {
    char buffer[4096];
    const ssize_t n = readlink("/proc/self/exe", buffer, sizeof buffer - 1);
    if (n <= 0) return "";
    const std::string path(buffer, size_t(n));
    return path.substr(0, path.rfind('/'));
}

std::string writeJobFile(const BenchJob &job) {
    const char *dir = std::getenv("TMPDIR");
    std::string pattern = std::string(dir && *dir ? dir : "/tmp") + "/beamscope-job-XXXXXX.json";
    std::vector<char> path(pattern.begin(), pattern.end());
    path.push_back('\0');
    const int fd = mkstemps(path.data(), 5);
    if (fd < 0) throw Error("cannot create a job file in " + pattern);
    close(fd);
    std::ofstream out(path.data());
    out << job.toJson().dump() << "\n";
    if (!out) throw Error(std::string("cannot write job file ") + path.data());
    return path.data();
}

/// The last line of `out` that parses as a JSON object, or null.
nlohmann::json lastJsonLine(const std::string &out) {
    std::istringstream lines(out);
    std::string line;
    nlohmann::json found;
    while (std::getline(lines, line)) {
        if (line.empty() || line[0] != '{') continue;
        nlohmann::json parsed = nlohmann::json::parse(line, nullptr, false);
        if (parsed.is_object()) found = std::move(parsed);
    }
    return found;
}

} // namespace

std::string defaultWorkerPath() {
    const std::string dir = executableDirectory();
    if (dir.empty()) return "";
    for (const std::string &candidate :
         {dir + "/beamscope-worker", dir + "/../worker/beamscope-worker",
          dir + "/../app/worker/beamscope-worker"}) {
        if (isExecutableFile(candidate)) return candidate;
    }
    return "";
}

Measurement runWorker(const BenchJob &job, const WorkerOptions &options) {
    Measurement failed;
    failed.label = job.label;
    failed.predicted = job.predicted;
    failed.target = job.target;
    const std::string worker =
        options.workerPath.empty() ? defaultWorkerPath() : options.workerPath;
    if (worker.empty() || !isExecutableFile(worker)) {
        failed.failure = "worker not found" + (worker.empty() ? std::string() : ": " + worker);
        return failed;
    }
    std::string jobFile;
    try {
        jobFile = writeJobFile(job);
    } catch (const Error &e) {
        failed.failure = e.what();
        return failed;
    }
    ProcessOptions process;
    process.timeoutS = job.timeoutS;
    process.cancel = options.cancel;
    process.environment = options.environment;
    // The timeout is the worker's own work: waiting for a device another measurement holds
    // (another bench, tune or the GUI on the same device) stops its clock.
    process.pauseLine = kDeviceLockWaitLine;
    process.resumeLine = kDeviceLockHeldLine;
    const ProcessResult run = runProcess({worker, jobFile}, process);
    if (!options.keepJobFiles) unlink(jobFile.c_str());
    Measurement m = workerMeasurement(job, run);
    const bool crashed =
        !run.cancelled && !run.spawnFailed && !run.timedOut && run.signal != 0 && !run.succeeded();
    if (crashed && options.triageCrashes && !(options.cancel && options.cancel->load())) {
        const CrashVerdict verdict = triageCrash(job, worker, options.environment, options.cancel);
        // A triage the cancel cut short (its run or the kernel build alone) proved nothing: the
        // crash is kept without a verdict, as the Slurm runner keeps it.
        if (!(options.cancel && options.cancel->load())) {
            m.crashVerdict = verdict.verdict;
            m.failure += "; triage: " + verdict.verdict + " (" + verdict.detail + ")";
        }
    }
    return m;
}

Measurement workerMeasurement(const BenchJob &job, const ProcessResult &run) {
    Measurement failed;
    failed.label = job.label;
    failed.predicted = job.predicted;
    failed.target = job.target;
    failed.maxUnrolledPoints = job.maxUnrolledPoints;
    const nlohmann::json result = lastJsonLine(run.out);
    const std::string errTail = lastLine(run.err);
    if (run.succeeded() && result.is_object() && result.contains("label")) {
        Measurement m = Measurement::fromJson(result);
        m.label = job.label;
        m.predicted = job.predicted;
        return m;
    }
    if (run.cancelled) {
        failed.failure = kCancelledFailure;
    } else if (run.spawnFailed) {
        failed.failure = "worker " + run.describeEnd(job.timeoutS);
    } else if (run.timedOut) {
        failed.failure = "hang: " + run.describeEnd(job.timeoutS);
    } else if (run.signal != 0) {
        failed.failure =
            "crash: " + run.describeEnd(job.timeoutS) + (errTail.empty() ? "" : " — " + errTail);
    } else if (result.is_object() && result.contains("failure") && result["failure"].is_string()) {
        failed = Measurement::fromJson(result);
        failed.label = job.label;
        failed.predicted = job.predicted;
        failed.failure = "error: " + result["failure"].get<std::string>();
    } else {
        failed.failure = "error: worker " + run.describeEnd(job.timeoutS) +
                         (errTail.empty() ? "" : ": " + errTail);
    }
    return failed;
}

} // namespace beamscope
