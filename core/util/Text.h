// Text: string helpers more than one part of core needs.
#pragma once

#include <algorithm>
#include <cctype>
#include <string>

namespace beamscope {

/// `text` in ASCII lower case: names of presets, baselines, plugins and devices compare so.
inline std::string asciiLower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return text;
}

} // namespace beamscope
