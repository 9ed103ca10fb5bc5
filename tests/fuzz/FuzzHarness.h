// What every parser fuzz harness checks: user input either parses or is refused with a
// beamscope::Error whose message is one line. Any other exception escaping a parser (a raw
// nlohmann or std exception, a Halide error) is what a front end would show as a confusing
// message or, on a worker thread, an abort: the harness aborts on it so libFuzzer records it.
#pragma once

#include "util/Error.h"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

namespace beamscope::fuzz {

[[noreturn]] inline void reject(const char *what, const char *message) {
    std::fprintf(stderr, "fuzz harness: %s: %s\n", what, message);
    std::abort();
}

/// Runs `parse`; returns normally when it succeeds or throws a one-line beamscope::Error.
template <typename Parse> void expectParsedOrRefused(Parse &&parse) {
    try {
        parse();
    } catch (const Error &e) {
        const std::string message = e.what();
        if (message.empty()) reject("empty error message", "");
        if (message.find('\n') != std::string::npos)
            reject("error message is not one line", message.c_str());
    } catch (const std::exception &e) {
        reject("exception other than beamscope::Error escaped", e.what());
    } catch (...) {
        reject("non-standard exception escaped", "");
    }
}

/// The input's bytes as text.
inline std::string_view asText(const uint8_t *data, size_t size) {
    return {reinterpret_cast<const char *>(data), size};
}

/// The input split at newlines: how several command-line values (-p, --estimate) are fed.
inline std::vector<std::string> asLines(const uint8_t *data, size_t size) {
    std::vector<std::string> lines;
    std::string current;
    for (char c : asText(data, size)) {
        if (c == '\n') {
            lines.push_back(current);
            current.clear();
        } else {
            current.push_back(c);
        }
    }
    if (!current.empty()) lines.push_back(current);
    return lines;
}

} // namespace beamscope::fuzz
