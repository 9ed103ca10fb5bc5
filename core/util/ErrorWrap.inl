// Implementation of wrapHalideErrors (kept out of Error.h's declarations for readability).
#pragma once

#include <Halide.h>

namespace beamscope {

namespace detail {
/// First line of a possibly multi-line Halide message, trimmed.
inline std::string firstLine(const std::string &text) {
    std::string out;
    for (char c : text) {
        if (c == '\n') {
            if (!out.empty()) break;
            continue;
        }
        out += c;
    }
    while (!out.empty() && (out.back() == ' ' || out.back() == '\t')) out.pop_back();
    return out;
}
} // namespace detail

template <typename F> auto wrapHalideErrors(const std::string &context, F &&f) -> decltype(f()) {
    try {
        return f();
    } catch (const Error &) {
        throw;
    } catch (const Halide::CompileError &e) {
        throw Error(context + ": " + detail::firstLine(e.what()));
    } catch (const Halide::RuntimeError &e) {
        throw Error(context + ": " + detail::firstLine(e.what()));
    } catch (const Halide::InternalError &e) {
        throw Error(context + ": Halide internal error: " + detail::firstLine(e.what()));
    } catch (const std::exception &e) {
        throw Error(context + ": " + detail::firstLine(e.what()));
    }
}

} // namespace beamscope
