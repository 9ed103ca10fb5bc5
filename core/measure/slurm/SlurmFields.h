// SlurmFields: small helpers for reading the Slurm tools' text output (squeue's and sacct's
// '|'-separated lines, their numbers) shared by SlurmQueue and SlurmAccounting.
#pragma once

#include <string>
#include <vector>

namespace beamscope::slurm {

/// Whether `id` is one of the array jobs we follow.
bool followed(const std::vector<long> &arrays, long id);
/// The fields of `text` separated by `sep`; a trailing separator gives a last empty field.
std::vector<std::string> splitFields(const std::string &text, char sep);
/// `text` as a whole decimal number, else `fallback`.
long toLong(const std::string &text, long fallback);

} // namespace beamscope::slurm
