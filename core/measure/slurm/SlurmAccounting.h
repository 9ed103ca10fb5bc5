// SlurmAccounting: the final state of array tasks that squeue no longer lists (the controller
// forgets a finished job MinJobAge seconds after it ends), from Slurm's accounting through sacct:
//   - accounting storage (slurmdbd): `sacct --json -j ARRAYS` where sacct has --json, else
//     `sacct --parsable2 -j ARRAYS` (array tasks as "ARRAY_TASK");
//   - no accounting storage but job completion logging (JobCompType=jobcomp/filetxt, as on the
//     test cluster): `sacct --completion --parsable2 -j IDS`, which knows tasks only by their
//     own job ids (SLURM_JOB_ID), so those squeue reported are mapped back to array tasks;
//   - neither: nothing (the caller then reports "left the queue without a result").
// The parsers are plain functions of sacct's output, tested on real output without a cluster.
#pragma once

#include "measure/slurm/SlurmQueue.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace beamscope {

/// Own job id of a task (SLURM_JOB_ID) → (array job id, task id).
using SlurmJobIds = std::map<long, std::pair<long, int>>;

/// The tasks of `arrays` in `sacct --json` output (job steps are not listed by sacct -X; a
/// record without an array task id is skipped). Throws Error when the text is not sacct JSON.
std::vector<SlurmTask> parseSacctJson(const std::string &text, const std::vector<long> &arrays);

/// The tasks in `sacct --parsable2 --noheader -o JobID,State,ExitCode,NodeList` lines: JobID
/// "ARRAY_TASK" (accounting storage) is read as is; a plain id (job completion records) is
/// looked up in `ids`; lines of other arrays, job steps ("123.batch") and unknown ids are
/// skipped. ExitCode is "status:signal"; a state like "CANCELLED by 0" keeps its first word.
std::vector<SlurmTask> parseSacctParsable(const std::string &text, const std::vector<long> &arrays,
                                          const SlurmJobIds &ids);

/// Where final states come from on this cluster (probed once per SlurmAccounting).
enum class SlurmAccountingSource { Storage, Completion, None };

class SlurmAccounting {
public:
    explicit SlurmAccounting(std::string binDir = "");
    /// The final states Slurm's accounting has for tasks of `arrays` (`ids`: the own job ids
    /// squeue reported, needed with job completion records). Empty when sacct is missing or
    /// accounting and completion logging are both disabled; never throws.
    std::vector<SlurmTask> finalStates(const std::vector<long> &arrays,
                                       const SlurmJobIds &ids) const;
    /// Which source finalStates used last (None before the first call).
    SlurmAccountingSource source() const { return m_source; }
    /// "sacct (accounting storage)", "sacct --completion (job completion log)", "none: ...".
    std::string describe() const;

private:
    std::string m_binDir;
    mutable SlurmAccountingSource m_source = SlurmAccountingSource::None;
    mutable std::string m_why; ///< why there is no source (sacct's message)
};

} // namespace beamscope
