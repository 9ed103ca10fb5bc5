// Affine analysis of index expressions: a small recursive matcher over Halide's integer IR.
#include "dag/Affine.h"

#include "dag/FloorDiv.h"

#include <numeric>

namespace beamscope {

using namespace Halide;
using namespace Halide::Internal;

namespace {

AffineForm constantForm(size_t loopCount, int64_t value) {
    AffineForm f;
    f.coeffs.assign(loopCount, 0);
    f.constant = value;
    return f;
}

/// Divides everything by the common gcd; keeps floor((...)/d) exactly equal.
void normalize(AffineForm &f) {
    int64_t g = f.denominator;
    g = std::gcd(g, f.constant);
    for (int64_t c : f.coeffs) g = std::gcd(g, c);
    if (g > 1) {
        f.denominator /= g;
        f.constant /= g;
        for (int64_t &c : f.coeffs) c /= g;
    }
}

/// a*sa + b*sb over a common denominator (exact when both denominators are 1).
AffineForm combine(const AffineForm &a, int64_t sa, const AffineForm &b, int64_t sb) {
    AffineForm out;
    out.denominator = a.denominator * b.denominator / std::gcd(a.denominator, b.denominator);
    const int64_t ma = out.denominator / a.denominator;
    const int64_t mb = out.denominator / b.denominator;
    out.coeffs.resize(a.coeffs.size());
    for (size_t i = 0; i < a.coeffs.size(); ++i) {
        out.coeffs[i] = sa * ma * a.coeffs[i] + sb * mb * b.coeffs[i];
    }
    out.constant = sa * ma * a.constant + sb * mb * b.constant;
    normalize(out);
    return out;
}

class AffineAnalyzer {
public:
    AffineAnalyzer(size_t loopCount, const LoopIndexOf &loopIndexOf, const ConstantOf &constantOf)
        : m_loopCount(loopCount), m_loopIndexOf(loopIndexOf), m_constantOf(constantOf) {}

    std::optional<AffineForm> analyze(const Expr &e) const {
        if (const IntImm *imm = e.as<IntImm>()) return constantForm(m_loopCount, imm->value);
        if (const UIntImm *imm = e.as<UIntImm>()) {
            return constantForm(m_loopCount, static_cast<int64_t>(imm->value));
        }
        if (const Variable *v = e.as<Variable>()) return variable(v->name);
        if (const Add *add = e.as<Add>()) return sum(add->a, add->b, 1);
        if (const Sub *sub = e.as<Sub>()) return sum(sub->a, sub->b, -1);
        if (const Mul *mul = e.as<Mul>()) return product(mul->a, mul->b);
        if (const Div *div = e.as<Div>()) return quotient(div->a, div->b);
        if (const Min *m = e.as<Min>()) return clamped(m->a, m->b, false);
        if (const Max *m = e.as<Max>()) return clamped(m->a, m->b, true);
        if (const Call *call = e.as<Call>()) {
            // likely() only steers loop partitioning; the value is its argument.
            if (call->is_intrinsic(Call::likely) || call->is_intrinsic(Call::likely_if_innermost)) {
                return analyze(call->args[0]);
            }
        }
        if (const Cast *cast = e.as<Cast>()) {
            if (cast->type.is_int_or_uint() && cast->value.type().is_int_or_uint()) {
                return analyze(cast->value);
            }
        }
        return std::nullopt;
    }

private:
    std::optional<AffineForm> variable(const std::string &name) const {
        const int index = m_loopIndexOf ? m_loopIndexOf(name) : -1;
        if (index >= 0) {
            AffineForm f = constantForm(m_loopCount, 0);
            f.coeffs[static_cast<size_t>(index)] = 1;
            return f;
        }
        if (m_constantOf) {
            if (std::optional<int64_t> value = m_constantOf(name)) {
                return constantForm(m_loopCount, *value);
            }
        }
        return std::nullopt;
    }

    std::optional<AffineForm> sum(const Expr &a, const Expr &b, int64_t sign) const {
        auto fa = analyze(a);
        if (!fa || fa->isClamped()) return std::nullopt;
        auto fb = analyze(b);
        if (!fb || fb->isClamped()) return std::nullopt;
        return combine(*fa, 1, *fb, sign);
    }

    std::optional<AffineForm> product(const Expr &a, const Expr &b) const {
        auto fa = analyze(a);
        if (!fa || fa->isClamped()) return std::nullopt;
        auto fb = analyze(b);
        if (!fb || fb->isClamped()) return std::nullopt;
        if (fb->isConstant() && fb->denominator == 1) return scaled(*fa, fb->constant);
        if (fa->isConstant() && fa->denominator == 1) return scaled(*fb, fa->constant);
        return std::nullopt;
    }

    std::optional<AffineForm> quotient(const Expr &a, const Expr &b) const {
        auto fb = analyze(b);
        if (!fb || !fb->isConstant() || fb->denominator != 1 || fb->constant <= 0) {
            return std::nullopt;
        }
        auto fa = analyze(a);
        if (!fa || fa->isClamped()) return std::nullopt;
        fa->denominator *= fb->constant;
        normalize(*fa);
        return fa;
    }

    /// min(a, b) or max(a, b) where one side is constant: a clamp of the other side.
    std::optional<AffineForm> clamped(const Expr &a, const Expr &b, bool isMax) const {
        auto fa = analyze(a);
        auto fb = analyze(b);
        if (!fa || !fb) return std::nullopt;
        const bool aConst = fa->isConstant() && !fa->isClamped();
        const bool bConst = fb->isConstant() && !fb->isClamped();
        if (aConst == bConst) return std::nullopt;
        AffineForm f = aConst ? *fb : *fa;
        const AffineForm &c = aConst ? *fa : *fb;
        const int64_t bound = floorDiv(c.constant, c.denominator);
        if (isMax) {
            f.clampMin = f.clampMin ? std::max(*f.clampMin, bound) : bound;
            if (f.clampMax) f.clampMax = std::max(*f.clampMax, bound);
        } else {
            f.clampMax = f.clampMax ? std::min(*f.clampMax, bound) : bound;
            if (f.clampMin) f.clampMin = std::min(*f.clampMin, bound);
        }
        return f;
    }

    static AffineForm scaled(AffineForm f, int64_t factor) {
        for (int64_t &c : f.coeffs) c *= factor;
        f.constant *= factor;
        normalize(f);
        return f;
    }

    size_t m_loopCount;
    const LoopIndexOf &m_loopIndexOf;
    const ConstantOf &m_constantOf;
};

} // namespace

Interval AffineForm::over(const Box &loops) const {
    int64_t lo = constant, hi = constant;
    for (size_t i = 0; i < coeffs.size(); ++i) {
        const int64_t c = coeffs[i];
        if (c == 0) continue;
        const Interval &r = loops[i];
        if (c > 0) {
            lo += c * r.min;
            hi += c * r.max;
        } else {
            lo += c * r.max;
            hi += c * r.min;
        }
    }
    Interval r{floorDiv(lo, denominator), floorDiv(hi, denominator)};
    if (clampMin) {
        r.min = std::max(r.min, *clampMin);
        r.max = std::max(r.max, *clampMin);
    }
    if (clampMax) {
        r.min = std::min(r.min, *clampMax);
        r.max = std::min(r.max, *clampMax);
    }
    return r;
}

bool AffineForm::isIdentity(size_t i) const {
    if (constant != 0 || denominator != 1 || isClamped()) return false;
    for (size_t j = 0; j < coeffs.size(); ++j) {
        if (coeffs[j] != (j == i ? 1 : 0)) return false;
    }
    return true;
}

bool AffineForm::isConstant() const {
    return std::all_of(coeffs.begin(), coeffs.end(), [](int64_t c) { return c == 0; });
}

std::optional<AffineForm> analyzeAffine(const Expr &e, size_t loopCount,
                                        const LoopIndexOf &loopIndexOf,
                                        const ConstantOf &constantOf) {
    return AffineAnalyzer(loopCount, loopIndexOf, constantOf).analyze(e);
}

std::optional<int64_t> evaluateConstant(const Expr &e, const ConstantOf &constantOf) {
    const LoopIndexOf none = [](const std::string &) { return -1; };
    if (auto f = analyzeAffine(e, 0, none, constantOf)) return f->over({}).min;
    if (auto c = as_const_int(simplify(e))) return *c;
    return std::nullopt;
}

} // namespace beamscope
