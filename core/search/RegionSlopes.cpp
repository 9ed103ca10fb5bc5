// RegionSlopes: the slopes of a fused Func's region over its host's loops, call by call.
#include "search/RegionSlopes.h"

#include <map>
#include <optional>

namespace beamscope {

namespace {

using Slopes = std::vector<int64_t>; // coefficients over the host's loops

/// One dimension of a Func's region as a function of the host's loops.
struct DimSlopes {
    std::optional<Slopes> slopes; ///< set when the dimension moves with the tile
    bool varies = false;          ///< its size varies from tile to tile
    bool meet = false; ///< ... because calls of different slopes meet (here or on the way)
    /// The first affine call's slopes as a fraction (numerators over `den`), kept when a
    /// division or clamp makes the size vary, so that a later call of other slopes still meets.
    std::optional<Slopes> num;
    int64_t den = 1;
};

/// Follows the calls from the host down to a Func (within the host's tile at one level) and
/// finds each dimension's slopes. The first reason a size varies is kept, in the order the
/// calls are followed.
class SlopeWalk {
public:
    SlopeWalk(const ScheduleState &state, int node, int host, LoopLevel level)
        : m_dag(state.dag()), m_edges(state.edgesWithin(node, host, level)), m_host(host),
          m_hostLoops(m_dag.node(host).stages.back().loops.size()) {}

    const std::vector<DimSlopes> &of(int f) {
        if (auto it = m_memo.find(f); it != m_memo.end()) return it->second;
        const Node &n = m_dag.node(f);
        std::vector<DimSlopes> dims(size_t(n.dimensions));
        for (int e : m_edges) {
            const Edge &edge = m_dag.edge(e);
            if (edge.producer != f) continue;
            const std::vector<DimSlopes> loops = loopSlopes(edge);
            const std::string call = m_dag.node(edge.consumer).name + " reads " + n.name;
            for (const CallSite &site : edge.calls) {
                for (size_t d = 0; d < site.args.size() && d < dims.size(); ++d)
                    meetArg(n, d, site.args[d], loops, call, dims[d]);
            }
        }
        return m_memo[f] = std::move(dims);
    }

    const std::string &why() const { return m_why; }

private:
    /// `why` "" when the reason was kept where it arose (a loop of the consumer).
    void varies(DimSlopes &dim, bool meet, const std::string &why) {
        if (m_why.empty()) m_why = why;
        dim.varies = true;
        dim.meet = dim.meet || meet;
        dim.slopes.reset();
    }

    /// The slopes of each loop of the consumer's stage over the host's loops.
    std::vector<DimSlopes> loopSlopes(const Edge &edge) {
        const Stage &stage = m_dag.node(edge.consumer).stages[size_t(edge.consumerStage)];
        std::vector<DimSlopes> out(stage.loops.size());
        if (edge.consumer == m_host) {
            for (size_t l = 0; l < stage.loops.size(); ++l) {
                out[l].slopes = Slopes(m_hostLoops, 0);
                if (l < m_hostLoops) (*out[l].slopes)[l] = 1;
            }
            return out;
        }
        const std::vector<DimSlopes> &consumer = of(edge.consumer);
        for (size_t l = 0; l < stage.loops.size(); ++l) {
            const int dim = stage.loops[l].funcDim;
            if (dim < 0 || size_t(dim) >= consumer.size()) {
                varies(out[l], false,
                       "its size varies with the tile (" + m_dag.node(edge.consumer).name +
                           " has a loop over no dimension)");
                continue;
            }
            out[l] = consumer[size_t(dim)];
            if (!out[l].slopes && !out[l].varies) out[l].slopes = Slopes(m_hostLoops, 0);
        }
        return out;
    }

    void meetArg(const Node &n, size_t d, const CallArg &arg, const std::vector<DimSlopes> &loops,
                 const std::string &call, DimSlopes &dim) {
        if (!arg.affine && arg.bounded) {
            return varies(dim, false,
                          "its size varies with the tile (" + call +
                              " through a remainder or a sum of divisions)");
        }
        if (!arg.affine) {
            return varies(dim, false,
                          "its size depends on data (" + call + " through a data-dependent index)");
        }
        if (arg.affine->isClamped()) {
            return varies(dim, false,
                          "its size varies with the tile (" + call + " through a clamped index)");
        }
        Slopes sum(m_hostLoops, 0);
        for (size_t l = 0; l < arg.affine->coeffs.size() && l < loops.size(); ++l) {
            const int64_t coeff = arg.affine->coeffs[l];
            if (coeff == 0) continue;
            // A loop whose own extent varies: so does this index.
            if (!loops[l].slopes) return varies(dim, loops[l].meet, "");
            for (size_t h = 0; h < sum.size(); ++h)
                sum[h] += coeff * (*loops[l].slopes)[h];
        }
        const int64_t den = arg.affine->denominator;
        // Compare the exact (rational) slopes with the calls before, whether or not the size
        // already varies (a division by 2 beside a transpose: Halide's hull still spans the
        // whole extent).
        if (!dim.num) {
            dim.num = sum;
            dim.den = den;
        } else {
            bool same = true;
            for (size_t h = 0; h < sum.size(); ++h)
                same = same && sum[h] * dim.den == (*dim.num)[h] * den;
            if (!same) {
                const std::string name = d < n.args.size() ? n.args[d] : std::to_string(d);
                return varies(dim, true,
                              "its size varies with the tile (calls of " + n.name +
                                  " with different slopes meet along " + name + ")");
            }
        }
        for (int64_t &v : sum) {
            if (v % den != 0) {
                return varies(dim, false,
                              "its size varies with the tile (" + call + " through a division by " +
                                  std::to_string(den) + ")");
            }
            v /= den;
        }
        // Every call so far had these slopes (compared above): the first one sets them.
        if (!dim.varies && !dim.slopes) dim.slopes = std::move(sum);
    }

    const FunctionDAG &m_dag;
    std::vector<int> m_edges;
    int m_host;
    size_t m_hostLoops;
    std::map<int, std::vector<DimSlopes>> m_memo;
    std::string m_why;
};

} // namespace

std::string regionSizeVaries(const ScheduleState &state, int node, int host, LoopLevel level) {
    SlopeWalk walk(state, node, host, level);
    walk.of(node);
    return walk.why();
}

std::vector<bool> dimsWhereSlopesMeet(const ScheduleState &state, int node, int host,
                                      LoopLevel level) {
    SlopeWalk walk(state, node, host, level);
    std::vector<bool> out;
    for (const DimSlopes &d : walk.of(node))
        out.push_back(d.meet);
    return out;
}

} // namespace beamscope
