// Per-stage algorithm features (independent of the schedule): an op histogram by op kind and
// scalar type, memory access pattern counts, and the Strahler number of the stage's expression.
#pragma once

#include <Halide.h>

#include <array>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>

namespace beamscope {

/// Operation kinds counted in the histogram.
enum class OpKind : uint8_t {
    Const, Cast, Variable, Param, Add, Sub, Mod, Mul, Div, Min, Max, EQ, NE, LT, LE,
    And, Or, Not, Select, ImageCall, FuncCall, SelfCall, ExternCall, Let, Count
};

/// Scalar types the histogram distinguishes.
enum class ScalarKind : uint8_t { Bool, UInt8, UInt16, UInt32, UInt64, Float, Double, Count };

/// How the loads of one call relate to the consumer's loops.
enum class AccessPattern : uint8_t { Pointwise, Transpose, Broadcast, Slice, Other, Count };

/// What is accessed.
enum class AccessKind : uint8_t { LoadFunc, LoadSelf, LoadImage, Store, Count };

constexpr size_t kOpKinds = static_cast<size_t>(OpKind::Count);
constexpr size_t kScalarKinds = static_cast<size_t>(ScalarKind::Count);
constexpr size_t kAccessPatterns = static_cast<size_t>(AccessPattern::Count);
constexpr size_t kAccessKinds = static_cast<size_t>(AccessKind::Count);

const char *opKindName(OpKind k);
const char *scalarKindName(ScalarKind k);
const char *accessPatternName(AccessPattern p);
const char *accessKindName(AccessKind k);

/// The scalar kind of a Halide type (ints and uints of a width share a bucket).
ScalarKind scalarKindOf(const Halide::Type &t);

struct AlgorithmFeatures {
    std::array<std::array<int32_t, kScalarKinds>, kOpKinds> ops{};
    std::array<std::array<int32_t, kAccessPatterns>, kAccessKinds> accesses{};
    int32_t strahler = 0; ///< registers needed to evaluate the stage's expression tree

    int32_t &op(OpKind k, ScalarKind s) { return ops[size_t(k)][size_t(s)]; }
    int32_t op(OpKind k, ScalarKind s) const { return ops[size_t(k)][size_t(s)]; }
    /// Total arithmetic/logic ops (everything but constants, variables, params, loads, lets).
    int64_t arithmeticOps() const;
    /// Total loads from Funcs and images.
    int64_t loads() const;
    void dump(std::ostream &os, const std::string &indent) const;
};

/// Classifies which pure variable of the consumer an index depends on, for access patterns.
using ArgLoopDependence = std::function<AccessPattern(const std::vector<Halide::Expr> &args)>;

/// Counts ops in all `values` (and call arguments in them), and the Strahler number.
/// `selfName` is the stage's own Func (calls to it count as SelfCall). `pattern` classifies
/// each call's arguments; `storeArgs` are the left-hand side arguments of the definition.
AlgorithmFeatures computeAlgorithmFeatures(const std::vector<Halide::Expr> &values,
                                           const std::vector<Halide::Expr> &storeArgs,
                                           const std::string &selfName,
                                           const ArgLoopDependence &pattern);

} // namespace beamscope
