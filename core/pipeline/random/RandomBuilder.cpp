// Contents: Node volume; RandomBuilder (naming, budget, partners, inputs with boundary
// conditions); the value-range helpers; reading a Node at other coordinates.
#include "pipeline/random/RandomBuilder.h"

#include <algorithm>
#include <cstdio>

namespace beamscope::randompipe {

using namespace Halide;

std::int64_t Node::volume() const {
    std::int64_t v = 1;
    for (int e : extents)
        v *= e;
    return v;
}

RandomBuilder::RandomBuilder(std::uint64_t seed, int stages, int width, int height)
    : m_rng(seed * 0x9E3779B97F4A7C15ULL + 0x5EED), m_stages(stages), m_width(width),
      m_height(height) {}

Func RandomBuilder::newFunc(const std::string &kind) {
    char name[16];
    std::snprintf(name, sizeof name, "s%02d_", m_made);
    ++m_made;
    return Func(std::string(name) + kind);
}

Var RandomBuilder::var(int d) {
    static const char *const names[] = {"x", "y", "c", "n"};
    return Var(names[std::clamp(d, 0, 3)]);
}

std::vector<Var> RandomBuilder::vars(int dims) {
    std::vector<Var> v;
    for (int d = 0; d < dims; ++d)
        v.push_back(var(d));
    return v;
}

const Node *RandomBuilder::partner(int dims) {
    std::vector<const Node *> fits;
    for (size_t i = 0; i + 1 < m_nodes.size(); ++i) {
        if (dims == 0 || m_nodes[i].dims() == dims) fits.push_back(&m_nodes[i]);
    }
    if (fits.empty()) return nullptr;
    // Recent Nodes more often (a chain with side branches), any Node sometimes (long fan-out).
    const size_t n = fits.size();
    const size_t pick =
        chance(60) ? n - 1 - size_t(m_rng.below(std::min<size_t>(n, 3))) : size_t(m_rng.below(n));
    return fits[pick];
}

Node RandomBuilder::newInput(int dims) {
    static const Type types[] = {UInt(8), UInt(16), Int(32), Float(32)};
    const Type type = types[m_rng.below(4)];
    std::vector<int> extents = {m_width, m_height};
    if (dims >= 3) extents.push_back(chance(50) ? 3 : (chance(50) ? 4 : 8));
    if (dims >= 4) extents.push_back(chance(50) ? 2 : 3);
    while (dims >= 3) { // keep within the volume limit: fewer channels, then a smaller batch
        std::int64_t v = 1;
        for (int e : extents)
            v *= e;
        if (v <= maxVolume() || (extents[2] == 1 && (dims < 4 || extents[3] == 1))) break;
        if (dims >= 4 && extents[3] > 1) // a smaller batch first, then fewer channels
            extents[3] = std::max(1, extents[3] / 2);
        else
            extents[2] = std::max(1, extents[2] / 2);
    }
    ImageParam input(type, dims, "input" + std::to_string(m_inputs.size()));
    for (int d = 0; d < dims; ++d)
        input.dim(d).set_estimate(0, extents[size_t(d)]);
    m_inputs.push_back(input);

    // The boundary condition: repeat the edge, mirror, or zero outside.
    const int kind = between(0, 2);
    Func wrapper = newFunc(kind == 0 ? "repeat_edge" : kind == 1 ? "mirror" : "zero_exterior");
    std::vector<Var> v = vars(dims);
    std::vector<Expr> at;
    Expr inside = cast<bool>(1);
    for (int d = 0; d < dims; ++d) {
        const int last = extents[size_t(d)] - 1;
        Expr x = v[size_t(d)];
        if (kind == 1) { // reflect around 0, then around last (max(e, -e): abs() is unsigned)
            x = max(x, -x);
            x = last - max(last - x, x - last);
        }
        at.push_back(clamp(x, 0, last));
        inside = inside && v[size_t(d)] >= 0 && v[size_t(d)] <= last;
    }
    if (kind == 2)
        wrapper(v) = select(inside, input(at), cast(type, 0));
    else
        wrapper(v) = input(at);
    return Node{wrapper, type, extents};
}

Type workType(Type t) {
    return t.is_float() ? Float(32) : Int(32);
}

Expr widen(const Expr &e) {
    return cast(workType(e.type()), e);
}

Expr narrow(const Expr &e, Type t) {
    if (t.is_float()) return cast(t, clamp(e, -1e4f, 1e4f));
    if (t == UInt(8)) return cast(t, clamp(e, 0, 255));
    if (t == UInt(16)) return cast(t, clamp(e, 0, 65535));
    return cast(t, clamp(e, -kIntLimit, kIntLimit));
}

Expr toFloat(const Expr &e) {
    if (e.type().is_float()) return e;
    return cast<float>(e) * (e.type() == UInt(8) ? 1.0f / 255 : 1.0f / 1024);
}

Expr convertTo(const Expr &e, Type t) {
    if (t.is_float()) return toFloat(e);
    return narrow(widen(e), t);
}

Type combinedType(Type a, Type b) {
    return a.is_float() || b.is_float() ? Float(32) : a;
}

Expr forProduct(const Expr &e, Type t) {
    if (t.is_float()) return clamp(e, -32.0f, 32.0f);
    if (t == UInt(8)) return e;                   // already within [0, 255]
    if (t == UInt(16)) return e >> 6;             // [0, 1023]
    return clamp(e, -kIntLimit, kIntLimit) >> 10; // [-1024, 1024]
}

Expr sampleAt(const Node &node, const std::vector<Expr> &at, const std::vector<int> &target) {
    std::vector<Expr> coords;
    for (int d = 0; d < node.dims(); ++d) {
        if (size_t(d) >= at.size()) {
            coords.push_back(0);
            continue;
        }
        const int have = node.extents[size_t(d)], want = target[size_t(d)];
        Expr x = at[size_t(d)];
        if (have == want) {
            coords.push_back(x);
        } else if (have > want && have % want == 0 && ((have / want) & (have / want - 1)) == 0) {
            coords.push_back(x * (have / want));
        } else if (want > have && want % have == 0 && ((want / have) & (want / have - 1)) == 0) {
            coords.push_back(x / (want / have));
        } else {
            coords.push_back(clamp(x, 0, have - 1));
        }
    }
    return node.func(coords);
}

Expr readAt(const Node &node, std::vector<Expr> at, bool clampAll) {
    if (clampAll) {
        for (size_t d = 0; d < at.size(); ++d)
            at[d] = clamp(at[d], 0, node.extents[d] - 1);
    }
    return node.func(at);
}

std::string plainName(const Func &f) {
    const std::string name = f.name();
    return name.substr(0, name.find('$'));
}

std::vector<Expr> asExprs(const std::vector<Var> &vars) {
    return std::vector<Expr>(vars.begin(), vars.end());
}

} // namespace beamscope::randompipe
