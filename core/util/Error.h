// beamscope::Error: the one exception type core throws; its message is fit to show a user.
#pragma once

#include <stdexcept>
#include <string>

namespace beamscope {

/// An error a user can act on (bad input, failed build of a pipeline, ...); what() is one line.
class Error : public std::runtime_error {
public:
    explicit Error(const std::string &message) : std::runtime_error(message) {}
};

/// A usage error (unknown name, bad option value): front ends exit with status 2 for these.
class UsageError : public Error {
public:
    explicit UsageError(const std::string &message) : Error(message) {}
};

/// Runs f, turning Halide's exceptions into beamscope::Error prefixed with context.
template <typename F> auto wrapHalideErrors(const std::string &context, F &&f) -> decltype(f());

} // namespace beamscope

#include "util/ErrorWrap.inl"
