// Parsing and writing the `random:SEED[:STAGES]` pipeline names.
#include "pipeline/random/RandomSpec.h"

#include "util/Error.h"

#include <charconv>

namespace beamscope {

namespace {

const char *const kForm = "expected random:SEED or random:SEED:STAGES (SEED an integer >= 0, "
                          "STAGES from 4 to 60)";

/// A decimal integer with nothing around it, at most `max`.
bool parseDecimal(const std::string &text, std::uint64_t max, std::uint64_t &value) {
    if (text.empty() || text.size() > 19) return false;
    for (char c : text) {
        if (c < '0' || c > '9') return false;
    }
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && end == text.data() + text.size() && value <= max;
}

} // namespace

bool isRandomSpec(const std::string &name) {
    return name == "random" || name.rfind("random:", 0) == 0;
}

RandomSpec parseRandomSpec(const std::string &name) {
    const auto bad = [&name] { return UsageError("random pipeline '" + name + "': " + kForm); };
    if (!isRandomSpec(name) || name.size() <= 7) throw bad();
    const std::string rest = name.substr(7);
    const size_t colon = rest.find(':');
    RandomSpec spec;
    if (!parseDecimal(rest.substr(0, colon), (std::uint64_t(1) << 63) - 1, spec.seed)) throw bad();
    if (colon != std::string::npos) {
        std::uint64_t stages = 0;
        if (!parseDecimal(rest.substr(colon + 1), kMaxRandomStages, stages) ||
            stages < std::uint64_t(kMinRandomStages))
            throw bad();
        spec.stages = int(stages);
    }
    return spec;
}

std::string formatRandomSpec(const RandomSpec &spec) {
    std::string text = "random:" + std::to_string(spec.seed);
    if (spec.stages > 0) text += ":" + std::to_string(spec.stages);
    return text;
}

} // namespace beamscope
