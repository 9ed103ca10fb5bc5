// candidateLabelInWords: the 0-based identifiers renumbered from 1.
#include "bench/CandidateLabel.h"

#include <cctype>

namespace beamscope {

namespace {

/// The number `text` holds when it is all digits (and short enough); -1 otherwise.
long digitsValue(const std::string &text) {
    if (text.empty() || text.size() > 9) return -1;
    for (char c : text) {
        if (!std::isdigit(static_cast<unsigned char>(c))) return -1;
    }
    return std::stol(text);
}

} // namespace

std::string candidateLabelInWords(const std::string &label) {
    // "r<round>:<label>": the tuner's rounds.
    const size_t colon = label.find(':');
    if (colon != std::string::npos && colon > 1 && label[0] == 'r') {
        const long round = digitsValue(label.substr(1, colon - 1));
        if (round >= 0)
            return "round " + std::to_string(round + 1) + ", " +
                   candidateLabelInWords(label.substr(colon + 1));
    }
    // "<kind>#<index>" with no space: the samplers' identifiers.
    const size_t hash = label.find('#');
    if (hash == std::string::npos || hash == 0) return label;
    const std::string kind = label.substr(0, hash);
    if (kind.find_first_of(" :") != std::string::npos) return label;
    const long index = digitsValue(label.substr(hash + 1));
    return index < 0 ? label : kind + " #" + std::to_string(index + 1);
}

} // namespace beamscope
