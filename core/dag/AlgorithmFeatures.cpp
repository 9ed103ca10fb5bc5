// Op histogram, access patterns and Strahler number of a stage's definition.
#include "dag/AlgorithmFeatures.h"

namespace beamscope {

using namespace Halide;
using namespace Halide::Internal;

namespace {

const char *const kOpNames[] = {"const", "cast", "variable", "param", "add", "sub", "mod", "mul",
                                "div", "min", "max", "eq", "ne", "lt", "le", "and", "or", "not",
                                "select", "image_call", "func_call", "self_call", "extern_call",
                                "let"};
const char *const kScalarNames[] = {"bool", "u8", "u16", "u32", "u64", "float", "double"};
const char *const kPatternNames[] = {"pointwise", "transpose", "broadcast", "slice", "other"};
const char *const kAccessNames[] = {"load_func", "load_self", "load_image", "store"};

/// Walks every node (no sharing: an inlined expression used twice is computed twice).
class OpCounter : public IRVisitor {
public:
    OpCounter(AlgorithmFeatures &features, const std::string &selfName,
              const ArgLoopDependence &pattern)
        : m_f(features), m_self(selfName), m_pattern(pattern) {}

private:
    using IRVisitor::visit;

    void count(OpKind k, const Type &t) { ++m_f.op(k, scalarKindOf(t)); }

    void visit(const IntImm *op) override { count(OpKind::Const, op->type); }
    void visit(const UIntImm *op) override { count(OpKind::Const, op->type); }
    void visit(const FloatImm *op) override { count(OpKind::Const, op->type); }
    void visit(const Cast *op) override { count(OpKind::Cast, op->type); IRVisitor::visit(op); }
    void visit(const Reinterpret *op) override {
        count(OpKind::Cast, op->type);
        IRVisitor::visit(op);
    }
    void visit(const Variable *op) override {
        count(op->param.defined() ? OpKind::Param : OpKind::Variable, op->type);
    }
#define BEAMSCOPE_COUNT(NODE, KIND)                                                                \
    void visit(const NODE *op) override {                                                          \
        count(OpKind::KIND, op->type);                                                             \
        IRVisitor::visit(op);                                                                      \
    }
    BEAMSCOPE_COUNT(Add, Add)
    BEAMSCOPE_COUNT(Sub, Sub)
    BEAMSCOPE_COUNT(Mod, Mod)
    BEAMSCOPE_COUNT(Mul, Mul)
    BEAMSCOPE_COUNT(Div, Div)
    BEAMSCOPE_COUNT(Min, Min)
    BEAMSCOPE_COUNT(Max, Max)
    BEAMSCOPE_COUNT(EQ, EQ)
    BEAMSCOPE_COUNT(NE, NE)
    BEAMSCOPE_COUNT(LT, LT)
    BEAMSCOPE_COUNT(LE, LE)
    BEAMSCOPE_COUNT(And, And)
    BEAMSCOPE_COUNT(Or, Or)
    BEAMSCOPE_COUNT(Not, Not)
    BEAMSCOPE_COUNT(Select, Select)
    BEAMSCOPE_COUNT(Let, Let)
#undef BEAMSCOPE_COUNT
    // GT/GE are canonicalized away by Halide's front end, but count them as LT/LE if seen.
    void visit(const GT *op) override { count(OpKind::LT, op->type); IRVisitor::visit(op); }
    void visit(const GE *op) override { count(OpKind::LE, op->type); IRVisitor::visit(op); }

    void visit(const Call *op) override {
        IRVisitor::visit(op);
        if (op->call_type == Call::Halide) {
            const bool self = op->name == m_self;
            count(self ? OpKind::SelfCall : OpKind::FuncCall, op->type);
            const AccessKind kind = self ? AccessKind::LoadSelf : AccessKind::LoadFunc;
            ++m_f.accesses[size_t(kind)][size_t(m_pattern(op->args))];
        } else if (op->call_type == Call::Image) {
            count(OpKind::ImageCall, op->type);
            ++m_f.accesses[size_t(AccessKind::LoadImage)][size_t(m_pattern(op->args))];
        } else if (op->call_type == Call::Extern || op->call_type == Call::ExternCPlusPlus ||
                   op->call_type == Call::PureExtern) {
            count(OpKind::ExternCall, op->type);
        }
    }

    AlgorithmFeatures &m_f;
    const std::string &m_self;
    const ArgLoopDependence &m_pattern;
};

/// Strahler number: registers needed to evaluate a tree without spilling.
int strahler(const Expr &e);

int strahlerOf(std::vector<int> children) {
    if (children.empty()) return 1;
    std::sort(children.rbegin(), children.rend());
    if (children.size() >= 2 && children[0] == children[1]) return children[0] + 1;
    return children[0];
}

class StrahlerVisitor : public IRVisitor {
public:
    int result = 1;

private:
    using IRVisitor::visit;
    template <typename T> void binary(const T *op) { result = strahlerOf({strahler(op->a), strahler(op->b)}); }
    void visit(const Add *op) override { binary(op); }
    void visit(const Sub *op) override { binary(op); }
    void visit(const Mul *op) override { binary(op); }
    void visit(const Div *op) override { binary(op); }
    void visit(const Mod *op) override { binary(op); }
    void visit(const Min *op) override { binary(op); }
    void visit(const Max *op) override { binary(op); }
    void visit(const EQ *op) override { binary(op); }
    void visit(const NE *op) override { binary(op); }
    void visit(const LT *op) override { binary(op); }
    void visit(const LE *op) override { binary(op); }
    void visit(const GT *op) override { binary(op); }
    void visit(const GE *op) override { binary(op); }
    void visit(const And *op) override { binary(op); }
    void visit(const Or *op) override { binary(op); }
    void visit(const Not *op) override { result = strahler(op->a); }
    void visit(const Cast *op) override { result = strahler(op->value); }
    void visit(const Select *op) override {
        result = strahlerOf({strahler(op->condition), strahler(op->true_value),
                             strahler(op->false_value)});
    }
    void visit(const Let *op) override {
        result = strahlerOf({strahler(op->value), strahler(op->body)});
    }
    void visit(const Call *op) override {
        std::vector<int> children;
        for (const Expr &a : op->args) children.push_back(strahler(a));
        result = strahlerOf(children);
    }
};

int strahler(const Expr &e) {
    if (!e.defined()) return 0;
    StrahlerVisitor v;
    e.accept(&v);
    return v.result;
}

} // namespace

const char *opKindName(OpKind k) { return kOpNames[size_t(k)]; }
const char *scalarKindName(ScalarKind k) { return kScalarNames[size_t(k)]; }
const char *accessPatternName(AccessPattern p) { return kPatternNames[size_t(p)]; }
const char *accessKindName(AccessKind k) { return kAccessNames[size_t(k)]; }

ScalarKind scalarKindOf(const Type &t) {
    if (t.is_bool()) return ScalarKind::Bool;
    if (t.is_float()) return t.bits() > 32 ? ScalarKind::Double : ScalarKind::Float;
    switch (t.bits()) {
    case 8: return ScalarKind::UInt8;
    case 16: return ScalarKind::UInt16;
    case 32: return ScalarKind::UInt32;
    default: return ScalarKind::UInt64;
    }
}

int64_t AlgorithmFeatures::arithmeticOps() const {
    int64_t total = 0;
    for (size_t k = 0; k < kOpKinds; ++k) {
        const OpKind kind = static_cast<OpKind>(k);
        if (kind == OpKind::Const || kind == OpKind::Variable || kind == OpKind::Param ||
            kind == OpKind::ImageCall || kind == OpKind::FuncCall || kind == OpKind::SelfCall ||
            kind == OpKind::Let) {
            continue;
        }
        for (int32_t n : ops[k]) total += n;
    }
    return total;
}

int64_t AlgorithmFeatures::loads() const {
    int64_t total = 0;
    for (size_t p = 0; p < kAccessPatterns; ++p) {
        total += accesses[size_t(AccessKind::LoadFunc)][p] +
                 accesses[size_t(AccessKind::LoadSelf)][p] +
                 accesses[size_t(AccessKind::LoadImage)][p];
    }
    return total;
}

void AlgorithmFeatures::dump(std::ostream &os, const std::string &indent) const {
    os << indent << "ops:";
    for (size_t k = 0; k < kOpKinds; ++k) {
        for (size_t s = 0; s < kScalarKinds; ++s) {
            if (ops[k][s]) os << " " << kOpNames[k] << "." << kScalarNames[s] << "=" << ops[k][s];
        }
    }
    os << "\n" << indent << "accesses:";
    for (size_t a = 0; a < kAccessKinds; ++a) {
        for (size_t p = 0; p < kAccessPatterns; ++p) {
            if (accesses[a][p]) os << " " << kAccessNames[a] << "." << kPatternNames[p] << "=" << accesses[a][p];
        }
    }
    os << "\n" << indent << "strahler: " << strahler << "\n";
}

AlgorithmFeatures computeAlgorithmFeatures(const std::vector<Expr> &values,
                                           const std::vector<Expr> &storeArgs,
                                           const std::string &selfName,
                                           const ArgLoopDependence &pattern) {
    AlgorithmFeatures features;
    OpCounter counter(features, selfName, pattern);
    std::vector<int> children;
    for (const Expr &v : values) {
        v.accept(&counter);
        children.push_back(strahler(v));
    }
    for (const Expr &a : storeArgs) a.accept(&counter);
    ++features.accesses[size_t(AccessKind::Store)][size_t(pattern(storeArgs))];
    features.strahler = strahlerOf(children);
    return features;
}

} // namespace beamscope
