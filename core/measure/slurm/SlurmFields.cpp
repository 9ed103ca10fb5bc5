// SlurmFields: field splitting and number parsing for Slurm tool output (see the header).
#include "measure/slurm/SlurmFields.h"

#include <algorithm>
#include <cstdlib>
#include <sstream>

namespace beamscope::slurm {

bool followed(const std::vector<long> &arrays, long id) {
    return std::find(arrays.begin(), arrays.end(), id) != arrays.end();
}

std::vector<std::string> splitFields(const std::string &text, char sep) {
    std::vector<std::string> parts;
    std::string part;
    std::istringstream in(text);
    while (std::getline(in, part, sep))
        parts.push_back(part);
    if (!text.empty() && text.back() == sep) parts.emplace_back();
    return parts;
}

long toLong(const std::string &text, long fallback) {
    char *end = nullptr;
    const long v = std::strtol(text.c_str(), &end, 10);
    return end && end != text.c_str() && *end == '\0' ? v : fallback;
}

} // namespace beamscope::slurm
