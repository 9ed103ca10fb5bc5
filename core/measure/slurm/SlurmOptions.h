// SlurmOptions: how Beamscope submits measurement jobs to a Slurm cluster — the directory shared
// with the cluster's nodes, the sbatch resources (partition, account, GRES, time limit, extra
// options), where each job compiles, and how often the queue is polled. Read from a config file
// (key = value lines, '#' comments) and then overridden by command-line flags:
//
//   dir = /shared/beamscope-jobs   # --slurm-dir: job files and results, visible on the nodes
//   partition = gpu                # --slurm-partition
//   account = lab                  # --slurm-account
//   gres = gpu:1                   # --slurm-gres ("none": no GRES request)
//   time = 10                      # --slurm-time: sbatch --time (minutes or D-HH:MM:SS)
//   option = --qos=short           # --slurm-option, repeatable: passed to sbatch as is
//   compile = local                # --slurm-compile local|job
//   worker = /shared/bin/beamscope-worker  # the worker as the nodes see it (compile = job)
//   aot_runner = /shared/bin/beamscope-aot-runner  # runs shipped artifacts (compile = local)
//   max_parallel = 8               # array throttle (sbatch --array=0-N%8); 0: no limit
//   poll = 2                       # seconds between squeue polls
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace beamscope {

struct SlurmOptions {
    std::string dir;                  ///< shared job directory (required)
    std::string partition;            ///< "" : the cluster's default partition
    std::string account;              ///< "" : the user's default account
    std::string gres = "gpu:1";       ///< "" : no GRES (jobs then share a node-local device lock)
    std::string time;                 ///< "" : from the job's time limit
    std::vector<std::string> options; ///< extra sbatch options
    /// true: the candidates are AOT-compiled on this machine (in parallel on every core) into
    /// shared objects shipped in the batch directory with the inputs and references, and the
    /// nodes run them with beamscope-aot-runner, which needs no Halide (AotArtifact.h); what
    /// does not compile never takes a cluster slot and the PTX report comes from here.
    /// false: the job's beamscope-worker builds and JIT-compiles it (nodes need libHalide).
    bool compileLocally = true;
    std::string worker; ///< beamscope-worker on the nodes; "" : this machine's worker path
    /// beamscope-aot-runner on the nodes; "" : the one beside `worker`
    std::string aotRunner;
    int maxParallel = 0; ///< at most this many array tasks at once (0: no limit)
    double pollS = 2;    ///< squeue polling interval

    /// Reads `path` over the current values; throws UsageError naming the file and line.
    void loadFile(const std::string &path);
    /// Sets one key ("partition", "gres", ...) from text; throws UsageError for a bad key/value.
    void set(const std::string &key, const std::string &value);
};

/// The options of `configFile` ("" : none) with `settings` (key, value) applied over them in
/// order, empty values skipped: how the CLI's --slurm-* flags and the GUI's Slurm settings
/// override a config file. Throws UsageError (bad file, key or value; no directory).
SlurmOptions slurmOptionsFrom(const std::string &configFile,
                              const std::vector<std::pair<std::string, std::string>> &settings);

} // namespace beamscope
