#include "search/FreezeCosts.h"

#include "cost/Featurizer.h"

#include <map>
#include <utility>

namespace beamscope {
namespace {

/// The leaves of `nest` where a stage's body runs, keyed by (node, stage).
void collectBodies(const LoopNest &nest, std::map<std::pair<int, int>, const LoopNest *> &out) {
    if (nest.computesHere) out[{nest.node, nest.stage}] = &nest;
    for (const LoopNestPtr &c : nest.children) collectBodies(*c, out);
}

} // namespace

std::vector<double> funcCostsForFreezing(const FunctionDAG &dag, const ScheduleState &state,
                                         const StateCost &cost, int computeTerm) {
    std::map<std::pair<int, int>, const LoopNest *> bodies;
    for (const LoopNestPtr &k : state.kernels()) collectBodies(*k, bodies);

    std::vector<double> perNode(dag.nodes().size(), 0.0);
    for (const StageCost &sc : cost.stages) {
        const double total = sc.total();
        const double shared = computeTerm >= 0 ? sc.terms[size_t(computeTerm)] : total;
        perNode[size_t(sc.node)] += total - shared;
        const auto body = bodies.find({sc.node, sc.stage});
        // The featurizer's ops per point, in its parts.
        const double own = ownOpsPerPoint(dag.node(sc.node).stages[size_t(sc.stage)]);
        double all = own;
        if (body != bodies.end()) {
            for (const InlinedCall &c : body->second->inlined)
                all += inlinedOpsPerPoint(dag, c);
        }
        if (all <= 0) {
            perNode[size_t(sc.node)] += shared;
            continue;
        }
        perNode[size_t(sc.node)] += shared * own / all;
        if (body == bodies.end()) continue;
        for (const InlinedCall &c : body->second->inlined)
            perNode[size_t(c.node)] += shared * inlinedOpsPerPoint(dag, c) / all;
    }
    return perNode;
}

} // namespace beamscope
