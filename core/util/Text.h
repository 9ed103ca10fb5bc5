// Text: string helpers more than one part of core needs.
#pragma once

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <string>
#include <vector>

namespace beamscope {

/// `text` in ASCII lower case: names of presets, baselines, plugins and devices compare so.
inline std::string asciiLower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return text;
}

/// `items` with `separator` between them.
inline std::string joinStrings(const std::vector<std::string> &items,
                               const std::string &separator) {
    std::string out;
    for (size_t i = 0; i < items.size(); ++i)
        out += (i ? separator : "") + items[i];
    return out;
}

/// `v` with `precision` digits after the point, "-" when it is not finite (a missing figure in a
/// report's column).
inline std::string fixed(double v, int precision = 3) {
    if (!std::isfinite(v)) return "-";
    std::ostringstream os;
    os << std::fixed << std::setprecision(precision) << v;
    return os.str();
}

} // namespace beamscope
