// Stencil blocks: 1-D and 2-D stencils of varied radius (some reading through a clamped
// boundary), a 2-D stencil as an RDom reduction, separable blurs, a window maximum, and down-
// and up-sampling by two in x and y.
#include "pipeline/random/RandomBlocks.h"

namespace beamscope::randompipe {

using namespace Halide;

namespace {

/// `sum` (work type) divided by the positive weight total `total`, narrowed to t.
Expr normalized(const Expr &sum, int total, Type t) {
    if (t.is_float()) return narrow(sum * (1.0f / float(total)), t);
    return narrow((sum + total / 2) / total, t);
}

/// `at` with `delta` added to dimension `dim`.
std::vector<Expr> shifted(std::vector<Expr> at, int dim, const Expr &delta) {
    at[size_t(dim)] = at[size_t(dim)] + delta;
    return at;
}

/// Whether x and y can be halved (and stay at least 4).
bool canHalve(const Node &a) {
    return a.extents[0] >= 8 && a.extents[1] >= 8 && a.extents[0] % 2 == 0 && a.extents[1] % 2 == 0;
}

} // namespace

Node stencilAlong(RandomBuilder &b, const Node &a, int dim, int radius, bool clampEdge,
                  const std::string &kind) {
    const std::vector<Var> v = RandomBuilder::vars(a.dims());
    const std::vector<Expr> at = asExprs(v);
    Expr sum;
    int total = 0;
    for (int i = -radius; i <= radius; ++i) {
        const int w = b.between(1, 4);
        total += w;
        Expr term = widen(readAt(a, shifted(at, dim, i), false));
        if (clampEdge) {
            std::vector<Expr> c = shifted(at, dim, i);
            c[size_t(dim)] = clamp(c[size_t(dim)], 0, a.extents[size_t(dim)] - 1);
            term = widen(a.func(c));
        }
        term = a.type.is_float() ? term * float(w) : term * w;
        sum = sum.defined() ? sum + term : term;
    }
    Func f = b.newFunc(kind);
    f(v) = normalized(sum, total, a.type);
    return Node{f, a.type, a.extents};
}

bool stencil1D(RandomBuilder &b) {
    const Node a = b.current();
    const int dim = b.between(0, 1), radius = b.between(1, 4);
    const bool clampEdge = b.chance(30);
    b.add(stencilAlong(b, a, dim, radius, clampEdge, dim == 0 ? "stencil_x" : "stencil_y"));
    return true;
}

bool stencil2D(RandomBuilder &b) {
    const Node a = b.current();
    const int radius = b.between(1, 2);
    const bool clampEdge = b.chance(30);
    const std::vector<Var> v = RandomBuilder::vars(a.dims());
    Expr sum;
    int total = 0;
    for (int dy = -radius; dy <= radius; ++dy) {
        for (int dx = -radius; dx <= radius; ++dx) {
            const int w = b.between(1, 3);
            total += w;
            std::vector<Expr> at = shifted(shifted(asExprs(v), 0, dx), 1, dy);
            Expr term = widen(readAt(a, std::move(at), false));
            if (clampEdge) {
                std::vector<Expr> c = shifted(shifted(asExprs(v), 0, dx), 1, dy);
                c[0] = clamp(c[0], 0, a.extents[0] - 1);
                c[1] = clamp(c[1], 0, a.extents[1] - 1);
                term = widen(a.func(c));
            }
            term = a.type.is_float() ? term * float(w) : term * w;
            sum = sum.defined() ? sum + term : term;
        }
    }
    Func f = b.newFunc("stencil_2d");
    f(v) = normalized(sum, total, a.type);
    b.add(Node{f, a.type, a.extents});
    return true;
}

bool stencilRDom(RandomBuilder &b) {
    const Node a = b.current();
    const int radius = b.between(1, 3);
    const int side = 2 * radius + 1;
    const std::vector<Var> v = RandomBuilder::vars(a.dims());
    const Type work = workType(a.type);
    Func sum = b.newFunc("window_sum");
    RDom r(0, side, 0, side, plainName(sum) + "_r");
    // Weights 1 + ((3 rx + 5 ry) mod 3): their total, computed here, normalizes the sum.
    int total = 0;
    for (int y = 0; y < side; ++y)
        for (int x = 0; x < side; ++x)
            total += 1 + (3 * x + 5 * y) % 3;
    const Expr weight = 1 + (3 * r.x + 5 * r.y) % 3;
    sum(v) = cast(work, 0);
    std::vector<Expr> at = shifted(shifted(asExprs(v), 0, r.x - radius), 1, r.y - radius);
    sum(v) += widen(a.func(at)) * cast(work, weight);
    Func f = b.newFunc("window_norm");
    f(v) = normalized(sum(v), total, a.type);
    b.add(Node{f, a.type, a.extents});
    return true;
}

bool separableBlur(RandomBuilder &b) {
    const Node a = b.current();
    const int radius = b.between(1, 3);
    const Node bx = stencilAlong(b, a, 0, radius, false, "blur_x");
    b.add(stencilAlong(b, bx, 1, radius, false, "blur_y"));
    return true;
}

bool windowMax(RandomBuilder &b) {
    const Node a = b.current();
    const int radius = b.between(1, 3), dim = b.between(0, 1);
    const std::vector<Var> v = RandomBuilder::vars(a.dims());
    Func f = b.newFunc(dim == 0 ? "max_x" : "max_y");
    RDom r(-radius, 2 * radius + 1, plainName(f) + "_r");
    f(v) = a.func(v);
    f(v) = max(f(v), a.func(shifted(asExprs(v), dim, r)));
    b.add(Node{f, a.type, a.extents});
    return true;
}

bool downsample(RandomBuilder &b) {
    const Node a = b.current();
    if (!canHalve(a)) return false;
    const std::vector<Var> v = RandomBuilder::vars(a.dims());
    std::vector<int> half = a.extents;
    if (b.chance(50)) { // a 2x2 box
        half[0] /= 2;
        half[1] /= 2;
        Expr sum;
        for (int j = 0; j < 2; ++j) {
            for (int i = 0; i < 2; ++i) {
                std::vector<Expr> at = asExprs(v);
                at[0] = 2 * at[0] + i;
                at[1] = 2 * at[1] + j;
                const Expr term = widen(a.func(at));
                sum = sum.defined() ? sum + term : term;
            }
        }
        Func f = b.newFunc("down_box");
        f(v) = normalized(sum, 4, a.type);
        b.add(Node{f, a.type, half});
        return true;
    }
    // [1 3 3 1] along x, then along y, each decimating by two (a pyramid level).
    Node current = a;
    for (int dim = 0; dim < 2; ++dim) {
        const int weights[] = {1, 3, 3, 1};
        Expr sum;
        for (int i = 0; i < 4; ++i) {
            std::vector<Expr> at = asExprs(v);
            at[size_t(dim)] = 2 * at[size_t(dim)] + (i - 1);
            const Expr term = widen(current.func(at)) * weights[i];
            sum = sum.defined() ? sum + term : term;
        }
        std::vector<int> extents = current.extents;
        extents[size_t(dim)] /= 2;
        Func f = b.newFunc(dim == 0 ? "down_x" : "down_y");
        f(v) = normalized(sum, 8, a.type);
        current = Node{f, a.type, extents};
    }
    b.add(current);
    return true;
}

bool upsample(RandomBuilder &b) {
    const Node a = b.current();
    if (a.extents[0] * 2 > 2 * b.width() || a.extents[1] * 2 > 2 * b.width() ||
        a.volume() * 4 > b.maxVolume())
        return false;
    const std::vector<Var> v = RandomBuilder::vars(a.dims());
    std::vector<int> twice = a.extents;
    twice[0] *= 2;
    twice[1] *= 2;
    if (b.chance(50)) { // nearest neighbour
        std::vector<Expr> at = asExprs(v);
        at[0] = at[0] / 2;
        at[1] = at[1] / 2;
        Func f = b.newFunc("up_nearest");
        f(v) = a.func(at);
        b.add(Node{f, a.type, twice});
        return true;
    }
    // Linear interpolation along x, then along y.
    Node current = a;
    for (int dim = 0; dim < 2; ++dim) {
        std::vector<Expr> lo = asExprs(v), hi = asExprs(v);
        lo[size_t(dim)] = lo[size_t(dim)] / 2;
        hi[size_t(dim)] = (hi[size_t(dim)] + 1) / 2;
        std::vector<int> extents = current.extents;
        extents[size_t(dim)] *= 2;
        Func f = b.newFunc(dim == 0 ? "up_x" : "up_y");
        f(v) = normalized(widen(current.func(lo)) + widen(current.func(hi)), 2, a.type);
        current = Node{f, a.type, extents};
    }
    b.add(current);
    return true;
}

} // namespace beamscope::randompipe
