// SlurmRunner: checking the options (absolute paths, the worker and the AOT runner found) and
// run() as its three steps (SlurmRun.cpp: the local compile pass, following or submitting;
// SlurmFollow.cpp: the follow loop); the batch directory's files and submission are in
// SlurmBatches.cpp.
#include "measure/slurm/SlurmRunner.h"

#include "measure/WorkerRunner.h"
#include "measure/slurm/SlurmRun.h"
#include "util/Error.h"
#include "util/Subprocess.h"

#include <filesystem>

namespace beamscope {

namespace fs = std::filesystem;

SlurmRunner::SlurmRunner(SlurmOptions options, WorkerOptions worker, int compileJobs)
    : m_options(std::move(options)), m_worker(std::move(worker)), m_compileJobs(compileJobs) {
    if (m_options.dir.empty())
        throw UsageError("--runner slurm needs a directory shared with the cluster (--slurm-dir)");
    if (m_options.worker.empty())
        m_options.worker = m_worker.workerPath.empty() ? defaultWorkerPath() : m_worker.workerPath;
    if (m_options.worker.empty()) throw UsageError("slurm: no beamscope-worker to run on nodes");
    m_options.worker = fs::absolute(m_options.worker).string();
    if (m_options.aotRunner.empty()) { // beside the worker (install), else the build tree's
        const fs::path dir = fs::path(m_options.worker).parent_path();
        m_options.aotRunner = (dir / "beamscope-aot-runner").string();
        const fs::path built = dir / ".." / "aot-runner" / "beamscope-aot-runner";
        if (!isExecutableFile(m_options.aotRunner) && isExecutableFile(built.string()))
            m_options.aotRunner = built.lexically_normal().string();
    }
    m_options.aotRunner = fs::absolute(m_options.aotRunner).string();
    m_options.dir = fs::absolute(m_options.dir).string();
}

std::string SlurmRunner::describe() const {
    std::string text = "Slurm job arrays in " + m_options.dir;
    if (!m_options.partition.empty()) text += ", partition " + m_options.partition;
    if (!m_options.gres.empty()) text += ", --gres=" + m_options.gres;
    text += m_options.compileLocally ? ", compiled here and shipped" : ", compiled in the job";
    return text;
}

std::vector<Measurement> SlurmRunner::run(const std::vector<BenchJob> &jobs,
                                          const RunnerCallbacks &callbacks) {
    Run run(*this, jobs, callbacks);
    if (m_options.compileLocally && !jobs.empty()) run.compileHere();
    const std::vector<size_t> todo = run.unfinished();
    if (todo.empty() || run.cancelled()) return run.results();
    run.followEarlierOrSubmit(todo);
    return run.follow();
}

} // namespace beamscope
