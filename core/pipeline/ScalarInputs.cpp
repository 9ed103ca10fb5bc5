// Scalar input binding. Contents: text <-> value of each Halide scalar type (bool, 8- to 64-bit
// integers, float, double); the value an Expr (estimate, default) holds; the range check;
// bindScalarInputs; scalarValueText; scalarInputAssignments.
#include "pipeline/ScalarInputs.h"

#include "util/Error.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <system_error>

namespace beamscope {

namespace {

using Halide::Expr;
using Halide::Type;

/// A Halide type as a user reads it: "float32", "int32", "uint8", "bool".
std::string typeName(const Type &type) {
    if (type.is_bool()) return "bool";
    if (type.is_handle()) return "handle";
    return std::string(type.is_float()  ? "float"
                       : type.is_uint() ? "uint"
                                        : "int") +
           std::to_string(type.bits());
}

/// Shortest text that reads back to `value` (as a float when `bits` is 32).
std::string floatText(double value, int bits) {
    char text[64];
    const std::to_chars_result r = bits == 32
                                       ? std::to_chars(text, text + sizeof text, float(value))
                                       : std::to_chars(text, text + sizeof text, value);
    return std::string(text, r.ptr);
}

/// A parsed scalar: the constant Expr (estimate) and the raw value (binding).
struct ScalarValue {
    Expr expr;
    halide_scalar_value_t raw{};
};

/// Parses `text` as a value of `type`; nullopt when it is not one.
std::optional<ScalarValue> parseValue(const Type &type, const std::string &text) {
    using Halide::Internal::make_const;
    ScalarValue v;
    const char *begin = text.data(), *end = text.data() + text.size();
    if (text.empty()) return std::nullopt;
    if (type.is_bool()) {
        if (text != "true" && text != "false" && text != "1" && text != "0") return std::nullopt;
        v.raw.u.b = text == "true" || text == "1";
        v.expr = Halide::Internal::make_bool(v.raw.u.b);
        return v;
    }
    if (type.is_float()) {
        double d = 0;
        const std::from_chars_result r = std::from_chars(begin, end, d);
        if (r.ec != std::errc() || r.ptr != end || !std::isfinite(d)) return std::nullopt;
        if (type.bits() == 32) {
            if (std::fabs(d) > double(std::numeric_limits<float>::max())) return std::nullopt;
            v.raw.u.f32 = float(d);
            v.expr = make_const(type, double(v.raw.u.f32));
        } else if (type.bits() == 64) {
            v.raw.u.f64 = d;
            v.expr = make_const(type, d);
        } else {
            return std::nullopt; // float16 / bfloat16: no host representation here
        }
        return v;
    }
    if (type.is_uint()) {
        uint64_t u = 0;
        const std::from_chars_result r = std::from_chars(begin, end, u);
        const uint64_t hi = type.bits() == 64 ? std::numeric_limits<uint64_t>::max()
                                              : (uint64_t(1) << type.bits()) - 1;
        if (r.ec != std::errc() || r.ptr != end || u > hi) return std::nullopt;
        switch (type.bits()) {
        case 8:
            v.raw.u.u8 = uint8_t(u);
            break;
        case 16:
            v.raw.u.u16 = uint16_t(u);
            break;
        case 32:
            v.raw.u.u32 = uint32_t(u);
            break;
        default:
            v.raw.u.u64 = u;
            break;
        }
        v.expr = make_const(type, u);
        return v;
    }
    if (type.is_int()) {
        int64_t i = 0;
        const std::from_chars_result r = std::from_chars(begin, end, i);
        const int64_t lo = type.bits() == 64 ? std::numeric_limits<int64_t>::min()
                                             : -(int64_t(1) << (type.bits() - 1));
        const int64_t hi = type.bits() == 64 ? std::numeric_limits<int64_t>::max()
                                             : (int64_t(1) << (type.bits() - 1)) - 1;
        if (r.ec != std::errc() || r.ptr != end || i < lo || i > hi) return std::nullopt;
        switch (type.bits()) {
        case 8:
            v.raw.u.i8 = int8_t(i);
            break;
        case 16:
            v.raw.u.i16 = int16_t(i);
            break;
        case 32:
            v.raw.u.i32 = int32_t(i);
            break;
        default:
            v.raw.u.i64 = i;
            break;
        }
        v.expr = make_const(type, i);
        return v;
    }
    return std::nullopt;
}

/// The text of the constant `e` holds as a value of `type`; nullopt when it is not constant.
std::optional<std::string> constantText(const Type &type, const Expr &e) {
    if (!e.defined()) return std::nullopt;
    const Expr value = Halide::Internal::simplify(Halide::cast(type, e));
    if (type.is_bool()) {
        if (const auto u = Halide::Internal::as_const_uint(value)) return *u ? "true" : "false";
        if (const auto i = Halide::Internal::as_const_int(value)) return *i ? "true" : "false";
        return std::nullopt;
    }
    if (type.is_float()) {
        if (const auto f = Halide::Internal::as_const_float(value))
            return floatText(*f, type.bits());
        return std::nullopt;
    }
    if (const auto u = Halide::Internal::as_const_uint(value)) return std::to_string(*u);
    if (const auto i = Halide::Internal::as_const_int(value)) return std::to_string(*i);
    return std::nullopt;
}

/// The name a user gives an input: generator Parameters carry no uniquifying suffix, but
/// Params made by hand may ("amount$3").
std::string userName(const Halide::Parameter &parameter) {
    const std::string &name = parameter.name();
    const size_t dollar = name.rfind('$');
    return dollar == std::string::npos || dollar == 0 ? name : name.substr(0, dollar);
}

/// True when `value` is provably below `min` (or above `max`) of `parameter`.
bool outOfRange(const Halide::Parameter &parameter, const Expr &value) {
    using Halide::Internal::is_const_one;
    using Halide::Internal::simplify;
    const Expr min = parameter.min_value(), max = parameter.max_value();
    if (min.defined() && is_const_one(simplify(value < Halide::cast(value.type(), min))))
        return true;
    return max.defined() && is_const_one(simplify(value > Halide::cast(value.type(), max)));
}

std::string rangeText(const Halide::Parameter &parameter) {
    const Type t = parameter.type();
    const std::string lo = constantText(t, parameter.min_value()).value_or("-inf");
    const std::string hi = constantText(t, parameter.max_value()).value_or("inf");
    return "[" + lo + ", " + hi + "]";
}

} // namespace

void bindScalarInputs(PipelineInstance &instance, const std::vector<std::string> &overrides) {
    std::map<std::string, std::string> given;
    for (const std::string &text : overrides) {
        const size_t eq = text.find('=');
        if (eq == std::string::npos || eq == 0)
            throw UsageError("input '" + text + "' is not of the form NAME=VALUE");
        given[text.substr(0, eq)] = text.substr(eq + 1);
    }
    std::string names;
    for (const Halide::Parameter &p : instance.scalars)
        names += (names.empty() ? "" : ", ") + userName(p);
    for (const auto &[name, value] : given) {
        bool known = false;
        for (const Halide::Parameter &p : instance.scalars)
            known = known || userName(p) == name;
        if (!known) {
            throw UsageError("'" + instance.name + "' has no scalar input '" + name + "' (" +
                             (names.empty() ? "it has none" : "scalar inputs: " + names) + ")");
        }
    }
    for (Halide::Parameter &parameter : instance.scalars) {
        const std::string name = userName(parameter);
        const Type type = parameter.type();
        if (type.is_handle()) {
            throw Error("scalar input '" + name +
                        "' is a handle (void *), which Beamscope cannot bind");
        }
        std::optional<std::string> text;
        const char *origin = "--input";
        if (auto it = given.find(name); it != given.end()) {
            text = it->second;
        } else if ((text = constantText(type, parameter.estimate()))) {
            origin = "its estimate";
        } else if ((text = constantText(type, parameter.default_value()))) {
            origin = "its default";
        } else {
            throw Error("scalar input '" + name + "' (" + typeName(type) +
                        ") has no value: give one with --input " + name +
                        "=VALUE (it has no estimate and no default)");
        }
        const std::optional<ScalarValue> value = parseValue(type, *text);
        if (!value) {
            throw UsageError("scalar input '" + name + "': '" + *text + "' (from " + origin +
                             ") is not a " + typeName(type) + " value");
        }
        if (outOfRange(parameter, value->expr)) {
            throw UsageError("scalar input '" + name + "': " + *text + " (from " + origin +
                             ") is outside its range " + rangeText(parameter));
        }
        parameter.set_scalar(type, value->raw);
        parameter.set_estimate(value->expr);
    }
}

std::string scalarValueText(const Halide::Parameter &parameter) {
    if (!parameter.has_scalar_value())
        throw Error("scalar input '" + userName(parameter) + "' has no value");
    const std::optional<std::string> text = constantText(parameter.type(), parameter.scalar_expr());
    if (!text) throw Error("scalar input '" + userName(parameter) + "' has no constant value");
    return *text;
}

std::vector<std::string> scalarInputAssignments(const PipelineInstance &instance) {
    std::vector<std::string> out;
    for (const Halide::Parameter &p : instance.scalars)
        out.push_back(userName(p) + "=" + (p.has_scalar_value() ? scalarValueText(p) : "?"));
    return out;
}

} // namespace beamscope
