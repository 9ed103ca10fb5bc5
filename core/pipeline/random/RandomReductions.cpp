// Reduction blocks: the sum over the last dimension (RDom), a histogram and its equalizing
// remap (scatter, reduction, scan, data-dependent gather), a recursive scan, a lookup table
// gathered at data-dependent indices, and matmul- and convolution-like contractions.
// Data-dependent indices come only from integer Nodes, whose values are exact on every device.
#include "pipeline/random/RandomBlocks.h"

namespace beamscope::randompipe {

using namespace Halide;

namespace {

/// `a` read at (x, y) and index 0 in its other dimensions.
Expr atXY(const Node &a, const Expr &x, const Expr &y) {
    std::vector<Expr> at = {x, y};
    for (int d = 2; d < a.dims(); ++d)
        at.push_back(0);
    return a.func(at);
}

/// The histogram bin (0..63) of an integer value.
Expr binOf(const Expr &value) {
    const Expr w = cast<int>(value);
    return clamp(value.type() == UInt(8) ? w >> 2 : w >> 4, 0, 63);
}

} // namespace

bool reduceLastDim(RandomBuilder &b) {
    const Node a = b.current();
    if (a.dims() < 3) return false;
    const int last = a.dims() - 1, extent = a.extents.back();
    const Type work = workType(a.type);
    std::vector<Var> v = RandomBuilder::vars(last);
    Func f = b.newFunc("reduce");
    RDom r(0, extent, plainName(f) + "_r");
    std::vector<Expr> at = asExprs(v);
    at.push_back(r);
    f(v) = cast(work, 0);
    // Each term divided first: the sum stays within the integer range (and is exact).
    if (work.is_float())
        f(v) += widen(a.func(at)) * (1.0f / float(extent));
    else
        f(v) += widen(a.func(at)) / extent;
    std::vector<int> extents(a.extents.begin(), a.extents.end() - 1);
    b.add(Node{f, work, extents});
    return true;
}

bool histogramEqualize(RandomBuilder &b) {
    const Node a = b.current();
    if (a.type.is_float()) return false;
    const int width = a.extents[0], height = a.extents[1];
    const Var x("x"), y("y");
    Func rows = b.newFunc("hist_rows"); // a histogram per row: a scatter
    RDom rx(0, width, plainName(rows) + "_r");
    rows(x, y) = 0;
    rows(binOf(atXY(a, rx, y)), y) += 1;
    Func hist = b.newFunc("hist"); // summed over the rows
    RDom ry(0, height, plainName(hist) + "_r");
    hist(x) = 0;
    hist(x) += rows(x, ry);
    Func cdf = b.newFunc("cdf"); // its prefix sum: a scan
    RDom rs(1, 63, plainName(cdf) + "_r");
    cdf(x) = hist(0);
    cdf(rs) = cdf(rs - 1) + hist(rs);
    // The remap, in integers: cdf / (pixels / 256) lies in [0, 256].
    const int per = std::max(1, width * height / 256);
    const std::vector<Var> v = RandomBuilder::vars(a.dims());
    Func f = b.newFunc("equalize");
    f(v) = narrow(cdf(binOf(a.func(v))) / per, a.type);
    b.add(Node{f, a.type, a.extents});
    return true;
}

bool scan(RandomBuilder &b) {
    const Node a = b.current();
    const int dim = b.between(0, 1);
    if (a.extents[size_t(dim)] < 2) return false;
    const Type work = workType(a.type);
    const std::vector<Var> v = RandomBuilder::vars(a.dims());
    Func f = b.newFunc(dim == 0 ? "scan_x" : "scan_y");
    RDom r(1, a.extents[size_t(dim)] - 1, plainName(f) + "_r");
    f(v) = widen(a.func(v));
    std::vector<Expr> at = asExprs(v), before = asExprs(v);
    at[size_t(dim)] = r;
    before[size_t(dim)] = r - 1;
    // A first-order recursive filter: bounded by the input's range, exact in integers.
    if (work.is_float())
        f(at) = f(before) * 0.75f + widen(a.func(at)) * 0.25f;
    else
        f(at) = (f(before) * 3 + widen(a.func(at))) / 4;
    b.add(Node{f, work, a.extents});
    return true;
}

bool lutGather(RandomBuilder &b) {
    const Node a = b.current();
    if (a.type.is_float()) return false;
    const Var i("i");
    Func lut = b.newFunc("lut");
    Type type = Int(32);
    const Node *table = b.chance(50) ? b.partner() : nullptr;
    if (table) { // the table is a row of another Node: a data-dependent gather of its data
        type = table->type;
        lut(i) = atXY(*table, clamp(i, 0, table->extents[0] - 1), 0);
    } else {
        const int k = b.between(3, 29);
        lut(i) = ((i * k) ^ (i >> 3)) & 255;
    }
    const std::vector<Var> v = RandomBuilder::vars(a.dims());
    const Expr index = clamp(cast<int>(a.func(v)) >> (a.type == UInt(8) ? 0 : 2), 0, 255);
    Func f = b.newFunc("gather");
    f(v) = lut(index);
    b.add(Node{f, type, a.extents});
    return true;
}

bool matmulLike(RandomBuilder &b) {
    const Node a = b.current();
    const int k = std::min(a.extents[0], 64);
    // B(x, r): another Node with at least k rows, else a weight matrix.
    const Node *p = b.partner();
    if (p && (p->dims() < 2 || p->extents[1] < k || b.chance(30))) p = nullptr;
    if (p) { // its x extent becomes the output's: keep within the volume limit
        std::int64_t volume = a.volume() / a.extents[0] * p->extents[0];
        if (volume > b.maxVolume()) p = nullptr;
    }
    Node weights;
    if (!p) { // a weight matrix with as many columns as `a`, so the volume is unchanged
        const Var x("x"), y("y");
        Func w = b.newFunc("weights");
        w(x, y) = (x * 3 + y * 5) % 7 - 3;
        weights = Node{w, Int(32), {a.extents[0], k}};
        p = &weights;
    }
    const Node rhs = *p;
    std::vector<int> extents = a.extents;
    extents[0] = rhs.extents[0];
    const Type t = combinedType(a.type, rhs.type);
    const Type work = workType(t);
    const std::vector<Var> v = RandomBuilder::vars(a.dims());
    Func prod = b.newFunc("matmul");
    RDom r(0, k, plainName(prod) + "_r");
    std::vector<Expr> lhsAt = asExprs(v);
    lhsAt[0] = r;
    const Expr lhs = forProduct(widen(convertTo(a.func(lhsAt), t)), t);
    const Expr right = forProduct(widen(convertTo(atXY(rhs, v[0], r), t)), t);
    prod(v) = cast(work, 0);
    prod(v) += lhs * right;
    Func f = b.newFunc("matmul_norm");
    f(v) = work.is_float() ? narrow(prod(v) * (1.0f / float(k)), t) : narrow(prod(v) / k, t);
    b.add(Node{f, t, extents});
    return true;
}

bool convLike(RandomBuilder &b) {
    const Node a = b.current();
    const int inChannels = a.dims() >= 3 ? a.extents[2] : 1;
    const int size = b.chance(50) ? 1 : 3;
    int outChannels = b.chance(50) ? 4 : (b.chance(50) ? 8 : 16);
    std::int64_t plane =
        std::int64_t(a.extents[0]) * a.extents[1] * (a.dims() == 4 ? a.extents[3] : 1);
    while (outChannels > 2 && plane * outChannels > b.maxVolume())
        outChannels /= 2;
    if (plane * outChannels > b.maxVolume()) return false;
    const Type t = a.type;
    const Type work = workType(t);
    const int dims = std::max(3, a.dims());
    const std::vector<Var> v = RandomBuilder::vars(dims);
    const Var ci("ci"), co("co"), kx("kx"), ky("ky");
    Func w = b.newFunc("conv_weights");
    w(ci, co, kx, ky) = (ci * 5 + co * 3 + kx * 7 + ky) % 5 - 2;
    Func conv = b.newFunc("conv");
    RDom r(0, inChannels, 0, size, 0, size, plainName(conv) + "_r");
    std::vector<Expr> at = {v[0] + r.y - size / 2, v[1] + r.z - size / 2};
    if (a.dims() >= 3) at.push_back(r.x);
    if (a.dims() == 4) at.push_back(v[3]);
    const Expr weight = w(r.x, v[2], r.y, r.z);
    conv(v) = cast(work, 0);
    conv(v) += forProduct(widen(a.func(at)), t) * cast(work, weight);
    Func f = b.newFunc("relu");
    const int taps = inChannels * size * size;
    if (work.is_float())
        f(v) = narrow(max(conv(v) * (1.0f / float(taps)), 0.0f), t);
    else
        f(v) = narrow(max(conv(v) / taps, 0), t);
    std::vector<int> extents = {a.extents[0], a.extents[1], outChannels};
    if (a.dims() == 4) extents.push_back(a.extents[3]);
    b.add(Node{f, t, extents});
    return true;
}

} // namespace beamscope::randompipe
