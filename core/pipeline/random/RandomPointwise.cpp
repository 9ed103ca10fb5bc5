// Pointwise blocks (unary ops and type changes, fan-in of two Nodes, fork-join), transposes,
// new channel dimensions and a second input joining the pipeline; and the block table.
#include "pipeline/random/RandomBlocks.h"

namespace beamscope::randompipe {

using namespace Halide;

namespace {

/// One drawn unary op on `w` (a work-type value of a Node of type t).
Expr unaryOp(RandomBuilder &b, const Expr &w, Type t) {
    if (t.is_float()) {
        static const float scales[] = {0.5f, 0.75f, 1.25f, 1.5f, -1.0f};
        // Every draw in its own statement: the order C++ evaluates operands in is unspecified.
        const int op = b.between(0, 5);
        const float scale = scales[b.between(0, 4)], offset = 0.125f * float(b.between(0, 2));
        switch (op) {
        case 0:
            return w * scale + offset;
        case 1:
            return max(w - 0.25f, 0.0f); // ReLU
        case 2:
            return abs(w - 0.5f);
        case 3:
            return sqrt(abs(w) + 0.01f);
        case 4:
            return clamp(w, -32.0f, 32.0f) * clamp(w, -32.0f, 32.0f);
        default:
            return min(w, 0.75f);
        }
    }
    const int k = b.between(1, 255);
    const int op = b.between(0, 4);
    const int factor = b.between(1, 7), offset = b.between(0, 15);
    switch (op) {
    case 0:
        return (w * factor + offset) >> 2;
    case 1:
        return w ^ k;
    case 2:
        return b.chance(50) ? max(w, k) : min(w, k);
    case 3:
        return max(w - k, k - w); // absolute difference
    default:
        return (t == UInt(8) ? 255 : 1023) - w;
    }
}

/// One drawn binary op on two work-type values of type t.
Expr binaryOp(RandomBuilder &b, const Expr &x, const Expr &y, Type t) {
    const bool f = t.is_float();
    switch (b.between(0, 5)) {
    case 0:
        return f ? (x + y) * 0.5f : (x + y) / 2;
    case 1:
        return f ? x - y : max(x - y, y - x);
    case 2:
        return max(x, y);
    case 3:
        return min(x, y);
    case 4:
        return f ? (x * 3.0f + y) * 0.25f : (x * 3 + y) / 4;
    default:
        return f ? forProduct(x, t) * forProduct(y, t) : (forProduct(x, t) * forProduct(y, t)) >> 8;
    }
}

} // namespace

Node combine(RandomBuilder &b, const Node &a, const Node &b2, const std::string &kind) {
    const Type t = combinedType(a.type, b2.type);
    Func f = b.newFunc(kind);
    const std::vector<Var> v = RandomBuilder::vars(a.dims());
    const Expr x = widen(convertTo(a.func(v), t));
    const Expr y = widen(convertTo(sampleAt(b2, asExprs(v), a.extents), t));
    f(v) = narrow(binaryOp(b, x, y, t), t);
    return Node{f, t, a.extents};
}

bool pointwiseUnary(RandomBuilder &b) {
    const Node a = b.current();
    const std::vector<Var> v = RandomBuilder::vars(a.dims());
    Type t = a.type;
    Expr w = widen(a.func(v));
    if (b.chance(25) && !t.is_float()) { // a type change: to float, or between integer widths
        static const Type ints[] = {UInt(8), UInt(16), Int(32)};
        const bool toF = b.chance(50);
        t = toF ? Float(32) : ints[b.between(0, 2)];
        if (toF) w = toFloat(a.func(v));
    }
    Func f = b.newFunc(t == a.type ? "pointwise" : "convert");
    f(v) = narrow(unaryOp(b, w, t), t);
    b.add(Node{f, t, a.extents});
    return true;
}

bool pointwiseBinary(RandomBuilder &b) {
    const Node *p = b.partner();
    if (!p) return false;
    const Node partner = *p, a = b.current();
    b.add(combine(b, a, partner, "combine"));
    return true;
}

bool forkJoin(RandomBuilder &b) {
    const Node a = b.current();
    const Node left = stencilAlong(b, a, 0, b.between(1, 3), false, "branch_x");
    const Node right = stencilAlong(b, a, 1, b.between(1, 3), false, "branch_y");
    b.add(combine(b, left, right, "join"));
    return true;
}

bool transpose(RandomBuilder &b) {
    const Node a = b.current();
    std::vector<Var> v = RandomBuilder::vars(a.dims());
    std::vector<Expr> at = asExprs(v);
    std::swap(at[0], at[1]);
    std::vector<int> extents = a.extents;
    std::swap(extents[0], extents[1]);
    Func f = b.newFunc("transpose");
    f(v) = a.func(at);
    b.add(Node{f, a.type, extents});
    return true;
}

bool expandChannels(RandomBuilder &b) {
    const Node a = b.current();
    if (a.dims() >= 4) return false;
    const int channels = a.dims() == 2 ? b.between(3, 4) : b.between(2, 3);
    if (a.volume() * channels > b.maxVolume()) return false;
    std::vector<Var> v = RandomBuilder::vars(a.dims() + 1);
    const Var added = v.back();
    std::vector<Var> old(v.begin(), v.end() - 1);
    const Expr w = widen(a.func(old));
    Func f = b.newFunc("expand");
    if (a.type.is_float())
        f(v) = narrow(w * (0.5f + 0.25f * cast<float>(added)), a.type);
    else
        f(v) = narrow(w * (added + 1) / channels + added * 7, a.type);
    std::vector<int> extents = a.extents;
    extents.push_back(channels);
    b.add(Node{f, a.type, extents});
    return true;
}

bool freshInput(RandomBuilder &b) {
    if (b.inputs().size() >= 3 || b.remaining() < 2) return false;
    const Node a = b.current();
    const Node input = b.newInput(b.between(2, 3));
    b.add(combine(b, a, input, "join_input"));
    return true;
}

const std::vector<Block> &randomBlocks() {
    static const std::vector<Block> blocks = {
        {"pointwise", 1, 8, pointwiseUnary},
        {"combine", 1, 6, pointwiseBinary},
        {"fork_join", 3, 3, forkJoin},
        {"transpose", 1, 2, transpose},
        {"expand", 1, 2, expandChannels},
        {"fresh_input", 2, 2, freshInput},
        {"stencil_1d", 1, 5, stencil1D},
        {"stencil_2d", 1, 4, stencil2D},
        {"stencil_rdom", 2, 3, stencilRDom},
        {"separable_blur", 2, 4, separableBlur},
        {"window_max", 1, 2, windowMax},
        {"downsample", 2, 3, downsample},
        {"upsample", 2, 3, upsample},
        {"reduce", 1, 3, reduceLastDim},
        {"histogram", 4, 2, histogramEqualize},
        {"scan", 1, 2, scan},
        {"lut", 2, 2, lutGather},
        {"matmul", 3, 2, matmulLike},
        {"conv", 3, 2, convLike},
    };
    return blocks;
}

} // namespace beamscope::randompipe
