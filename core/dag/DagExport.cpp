// JSON and dot exports of a FunctionDAG.
#include "dag/DagExport.h"

namespace beamscope {

nlohmann::json dagToJson(const FunctionDAG &dag) {
    nlohmann::json funcs = nlohmann::json::array();
    for (const Node &node : dag.nodes()) {
        nlohmann::json extents = nlohmann::json::array();
        for (const Interval &i : node.region) extents.push_back(i.extent());
        funcs.push_back({{"name", node.name},
                         {"stages", node.stages.size()},
                         {"dims", node.dimensions},
                         {"is_input", node.isInput},
                         {"is_output", node.isOutput},
                         {"extents", extents},
                         {"bytes_per_point", node.bytesPerPoint}});
    }
    nlohmann::json edges = nlohmann::json::array();
    for (const Edge &edge : dag.edges()) {
        edges.push_back({{"producer", dag.node(edge.producer).name},
                         {"consumer", dag.node(edge.consumer).name},
                         {"consumer_stage", edge.consumerStage},
                         {"calls", edge.calls.size()},
                         {"affine", edge.allAffine},
                         {"pointwise", edge.pointwise}});
    }
    return {{"pipeline", dag.pipelineName()},
            {"func_count", dag.funcCount()},
            {"stage_count", dag.stageCount()},
            {"funcs", funcs},
            {"edges", edges}};
}

void dagToDot(const FunctionDAG &dag, std::ostream &os) {
    os << "digraph \"" << dag.pipelineName() << "\" {\n  rankdir=TB;\n  node [shape=box];\n";
    for (const Node &node : dag.nodes()) {
        os << "  n" << node.index << " [label=\"" << node.name;
        if (!node.isInput) os << "\\n" << node.stages.size() << " stage(s)";
        os << "\"";
        if (node.isInput) os << ", shape=ellipse";
        if (node.isOutput) os << ", peripheries=2";
        os << "];\n";
    }
    for (const Edge &edge : dag.edges()) {
        os << "  n" << edge.producer << " -> n" << edge.consumer << " [label=\""
           << edge.calls.size() << "\"";
        if (!edge.allAffine) os << ", style=dashed";
        os << "];\n";
    }
    os << "}\n";
}

} // namespace beamscope
