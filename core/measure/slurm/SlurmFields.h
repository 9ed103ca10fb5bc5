// SlurmFields: small helpers for reading the Slurm tools' text output (squeue's and sacct's
// '|'-separated lines, their numbers) and their time limit, shared by SlurmQueue and
// SlurmAccounting.
#pragma once

#include <string>
#include <vector>

namespace beamscope::slurm {

/// How long squeue, sacct and scancel may take before the runner gives up on one call.
inline constexpr double kCommandTimeoutS = 60;

/// Whether `id` is one of the array jobs we follow.
bool followed(const std::vector<long> &arrays, long id);
/// The fields of `text` separated by `sep`; a trailing separator gives a last empty field.
std::vector<std::string> splitFields(const std::string &text, char sep);
/// `text` as a whole decimal number, else `fallback`.
long toLong(const std::string &text, long fallback);

} // namespace beamscope::slurm
