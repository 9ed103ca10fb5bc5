// RandomBuilder: the state of one random pipeline while it is generated — the seeded Rng, the
// Funcs made so far (each a Node with its element type and extents), the stage budget and the
// size limits — and the expression helpers the building blocks (RandomBlocks.h) share.
// Value ranges are kept so that every pipeline computes the same on a GPU as on the CPU
// reference: integer Nodes stay within kIntLimit (no int32 overflow), floats are clamped, and
// nothing converts a float back to an integer (a rounding difference would be amplified).
#pragma once

#include "util/Rng.h"

#include <Halide.h>

#include <cstdint>
#include <string>
#include <vector>

namespace beamscope::randompipe {

/// Integer Nodes stay within [-kIntLimit, kIntLimit] (int32) so sums of products cannot overflow.
inline constexpr int kIntLimit = 1 << 20;

/// One generated Func: its element type and its extents per dimension (x, y, c, n).
struct Node {
    Halide::Func func;
    Halide::Type type;
    std::vector<int> extents;
    int dims() const { return int(extents.size()); }
    std::int64_t volume() const;
};

class RandomBuilder {
public:
    /// `stages`: Funcs to make; `width`, `height`: the extents of the first input's x and y.
    RandomBuilder(std::uint64_t seed, int stages, int width, int height);

    Rng &rng() { return m_rng; }
    /// A uniform integer in [lo, hi].
    int between(int lo, int hi) { return lo + int(m_rng.below(std::uint64_t(hi - lo + 1))); }
    /// True with probability percent / 100.
    bool chance(int percent) { return int(m_rng.below(100)) < percent; }

    /// Funcs still to make.
    int remaining() const { return m_stages - m_made; }
    int width() const { return m_width; }
    int height() const { return m_height; }
    /// The most elements a Node may have (so one run stays within the time aimed at).
    std::int64_t maxVolume() const { return std::int64_t(8) * m_width * m_height; }

    /// A new Func named "sNN_kind" (NN counts the Funcs made), counted against the budget.
    Halide::Func newFunc(const std::string &kind);
    /// The Var of dimension d: x, y, c, n.
    static Halide::Var var(int d);
    /// The Vars of dimensions [0, dims).
    static std::vector<Halide::Var> vars(int dims);

    /// The Node made last: every block reads it, so every Func reaches the output.
    const Node &current() const { return m_nodes.back(); }
    /// Appends a Node (the new current).
    void add(Node node) { m_nodes.push_back(std::move(node)); }
    /// An earlier Node (not the current one) with `dims` dimensions (any when dims is 0), drawn
    /// at random, or nullptr.
    const Node *partner(int dims = 0);
    /// A new input image (an ImageParam with estimates) wrapped in a boundary condition Func,
    /// counted as one stage; `dims` 2..4, its type drawn. Returns the wrapper's Node.
    Node newInput(int dims);

    const std::vector<Halide::ImageParam> &inputs() const { return m_inputs; }

private:
    Rng m_rng;
    int m_stages, m_made = 0;
    int m_width, m_height;
    std::vector<Node> m_nodes;
    std::vector<Halide::ImageParam> m_inputs;
};

/// The type arithmetic on `t` is done in: Int(32) for integers, Float(32) for floats.
Halide::Type workType(Halide::Type t);
/// `e` (of type `t`) in workType(t).
Halide::Expr widen(const Halide::Expr &e);
/// `e` (a work-type value) clamped into the range of `t` and cast to it.
Halide::Expr narrow(const Halide::Expr &e, Halide::Type t);
/// `e` (of integer type) as a float of similar scale (uint8 / 255, others / 1024).
Halide::Expr toFloat(const Halide::Expr &e);
/// `e` converted for combining into a Node of type `t` (integers widen or narrow; an integer
/// becomes a float when `t` is float; never float to integer: callers pick float then).
Halide::Expr convertTo(const Halide::Expr &e, Halide::Type t);
/// The type of combining `a` and `b`: float when either is, else `a`.
Halide::Type combinedType(Halide::Type a, Halide::Type b);
/// `e` (work type) scaled into a range where products of two cannot overflow (|v| <= 1024).
Halide::Expr forProduct(const Halide::Expr &e, Halide::Type t);

/// `node` read at the coordinates of a Func with extents `target` and Vars `at`: dimensions whose
/// extents differ by a power of two are scaled, others clamped; missing dimensions read index 0.
Halide::Expr sampleAt(const Node &node, const std::vector<Halide::Expr> &at,
                      const std::vector<int> &target);
/// `node` read at `at` as given, each coordinate clamped into its extents when `clampAll`.
Halide::Expr readAt(const Node &node, std::vector<Halide::Expr> at, bool clampAll = false);
/// The name `f` was made with (Halide appends "$n" to a name used before in the process): the
/// prefix of its RDoms' names, so that they are the same in every build of a pipeline.
std::string plainName(const Halide::Func &f);
/// Vars as Exprs.
std::vector<Halide::Expr> asExprs(const std::vector<Halide::Var> &vars);

} // namespace beamscope::randompipe
