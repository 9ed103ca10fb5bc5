// JsonNumber: a double as a JSON value, null when it is not finite (JSON has no NaN or infinity);
// and a JSON value as an integer of a given type, only when it is one and fits (converting a
// double such as 1e67, or a too large integer, to an integer type is undefined or wraps).
#pragma once

#include "util/Error.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <type_traits>

namespace beamscope {

inline nlohmann::json jsonNumber(double v) {
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json();
}

/// `v` as an Int when it is a JSON integer within Int's range, else nothing.
template <class Int> std::optional<Int> jsonInteger(const nlohmann::json &v) {
    using Limits = std::numeric_limits<Int>;
    if (v.is_number_unsigned()) {
        const std::uint64_t u = v.get<std::uint64_t>();
        if (u > std::uint64_t(Limits::max())) return std::nullopt;
        return Int(u);
    }
    if (!v.is_number_integer()) return std::nullopt;
    const std::int64_t i = v.get<std::int64_t>();
    if constexpr (std::is_unsigned_v<Int>) {
        if (i < 0 || std::uint64_t(i) > std::uint64_t(Limits::max())) return std::nullopt;
    } else {
        if (i < std::int64_t(Limits::min()) || i > std::int64_t(Limits::max())) return std::nullopt;
    }
    return Int(i);
}

/// The integer at `key` of object `j`, or `fallback` when it is missing or not such an integer.
template <class Int> Int jsonIntegerOr(const nlohmann::json &j, const char *key, Int fallback) {
    const auto it = j.find(key);
    if (it == j.end()) return fallback;
    return jsonInteger<Int>(*it).value_or(fallback);
}

/// Refuses object `j` when one of `keys` holds a number with a fraction or an exponent (an integer
/// field read later by the JSON library's conversion, undefined for a double such as 2E55):
/// throws Error("WHAT: 'KEY' must be an integer").
inline void refuseFractionalIntegers(const nlohmann::json &j,
                                     std::initializer_list<const char *> keys, const char *what) {
    for (const char *key : keys) {
        if (j.contains(key) && j[key].is_number_float())
            throw Error(std::string(what) + ": '" + key + "' must be an integer");
    }
}

} // namespace beamscope
