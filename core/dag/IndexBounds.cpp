// Interval bounds of loop-only non-affine index expressions (IndexBounds.h).
#include "dag/IndexBounds.h"

#include "dag/FloorDiv.h"

namespace beamscope {

using namespace Halide;
using namespace Halide::Internal;

namespace {

int64_t euclidMod(int64_t a, int64_t b) { return a - floorDiv(a, b) * b; }

class IndexBoundsAnalyzer {
public:
    IndexBoundsAnalyzer(const LoopIndexOf &loopIndexOf, const ConstantOf &constantOf)
        : m_loopIndexOf(loopIndexOf), m_constantOf(constantOf) {}

    /// Appends `e`'s program to `out`; false when `e` is outside the language.
    bool emit(const Expr &e, std::vector<IndexBounds::Step> &out) const {
        using Op = IndexBounds::Op;
        if (const IntImm *imm = e.as<IntImm>()) {
            out.push_back({Op::Constant, imm->value});
            return true;
        }
        if (const UIntImm *imm = e.as<UIntImm>()) {
            out.push_back({Op::Constant, int64_t(imm->value)});
            return true;
        }
        if (const Variable *v = e.as<Variable>()) {
            if (const int index = m_loopIndexOf ? m_loopIndexOf(v->name) : -1; index >= 0) {
                out.push_back({Op::Loop, index});
                return true;
            }
            if (auto value = m_constantOf ? m_constantOf(v->name) : std::nullopt) {
                out.push_back({Op::Constant, *value});
                return true;
            }
            return false;
        }
        if (const Add *add = e.as<Add>()) return binary(add->a, add->b, Op::Add, out);
        if (const Sub *sub = e.as<Sub>()) return binary(sub->a, sub->b, Op::Sub, out);
        if (const Mul *mul = e.as<Mul>()) {
            if (auto c = constant(mul->b)) return emit(mul->a, out) && push(Op::Mul, *c, out);
            if (auto c = constant(mul->a)) return emit(mul->b, out) && push(Op::Mul, *c, out);
            return false;
        }
        if (const Div *div = e.as<Div>()) {
            auto c = constant(div->b);
            return c && *c > 0 && emit(div->a, out) && push(Op::Div, *c, out);
        }
        if (const Mod *mod = e.as<Mod>()) {
            auto c = constant(mod->b);
            return c && *c > 0 && emit(mod->a, out) && push(Op::Mod, *c, out);
        }
        if (const Cast *cast = e.as<Cast>()) {
            return cast->type.is_int_or_uint() && cast->value.type().is_int_or_uint() &&
                   emit(cast->value, out);
        }
        return false;
    }

private:
    bool binary(const Expr &a, const Expr &b, IndexBounds::Op op,
                std::vector<IndexBounds::Step> &out) const {
        return emit(a, out) && emit(b, out) && push(op, 0, out);
    }
    static bool push(IndexBounds::Op op, int64_t value, std::vector<IndexBounds::Step> &out) {
        out.push_back({op, value});
        return true;
    }
    std::optional<int64_t> constant(const Expr &e) const {
        return evaluateConstant(e, m_constantOf);
    }

    const LoopIndexOf &m_loopIndexOf;
    const ConstantOf &m_constantOf;
};

} // namespace

Interval IndexBounds::over(const Box &loops, bool loopPointsAreSymbolic) const {
    struct Entry {
        Interval range;
        bool fromLoops; // depends on a loop (a one-point remainder of it may be symbolic)
    };
    std::vector<Entry> stack;
    stack.reserve(program.size());
    for (const Step &s : program) {
        switch (s.op) {
        case Op::Constant:
            stack.push_back({{s.value, s.value}, false});
            break;
        case Op::Loop:
            if (size_t(s.value) >= loops.size() || loops[size_t(s.value)].empty()) return {};
            stack.push_back({loops[size_t(s.value)], true});
            break;
        case Op::Add:
        case Op::Sub: {
            const Entry b = stack.back();
            stack.pop_back();
            Interval &a = stack.back().range;
            a = s.op == Op::Add ? Interval{a.min + b.range.min, a.max + b.range.max}
                                : Interval{a.min - b.range.max, a.max - b.range.min};
            stack.back().fromLoops = stack.back().fromLoops || b.fromLoops;
            break;
        }
        case Op::Mul: {
            Interval &a = stack.back().range;
            a = s.value >= 0 ? Interval{a.min * s.value, a.max * s.value}
                             : Interval{a.max * s.value, a.min * s.value};
            break;
        }
        case Op::Div: {
            Interval &a = stack.back().range;
            a = {floorDiv(a.min, s.value), floorDiv(a.max, s.value)};
            break;
        }
        case Op::Mod: {
            Interval &a = stack.back().range;
            const int64_t point = euclidMod(a.min, s.value);
            const bool single =
                a.min == a.max && !(loopPointsAreSymbolic && stack.back().fromLoops);
            a = single ? Interval{point, point} : Interval{0, s.value - 1};
            break;
        }
        }
    }
    return stack.size() == 1 ? stack.back().range : Interval{};
}

std::optional<IndexBounds> analyzeIndexBounds(const Expr &e, const LoopIndexOf &loopIndexOf,
                                              const ConstantOf &constantOf) {
    IndexBounds bounds;
    if (!IndexBoundsAnalyzer(loopIndexOf, constantOf).emit(e, bounds.program)) return std::nullopt;
    return bounds;
}

} // namespace beamscope
