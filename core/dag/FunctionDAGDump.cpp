// FunctionDAG::dump: a stable, human-readable listing used for debugging and golden tests.
#include "dag/FunctionDAG.h"

namespace beamscope {

namespace {

void printInterval(std::ostream &os, const Interval &i) { os << "[" << i.min << ", " << i.max << "]"; }

void printAffine(std::ostream &os, const AffineForm &f, const Stage &stage) {
    bool first = true;
    if (f.denominator != 1) os << "(";
    for (size_t l = 0; l < f.coeffs.size(); ++l) {
        if (f.coeffs[l] == 0) continue;
        if (!first) os << (f.coeffs[l] < 0 ? " - " : " + ");
        else if (f.coeffs[l] < 0) os << "-";
        const int64_t c = f.coeffs[l] < 0 ? -f.coeffs[l] : f.coeffs[l];
        if (c != 1) os << c << "*";
        os << stage.loops[l].name;
        first = false;
    }
    if (first) os << f.constant;
    else if (f.constant > 0) os << " + " << f.constant;
    else if (f.constant < 0) os << " - " << -f.constant;
    if (f.denominator != 1) os << ")/" << f.denominator;
}

} // namespace

void FunctionDAG::dump(std::ostream &os) const {
    os << "pipeline " << m_name << ": " << funcCount() << " funcs, " << stageCount()
       << " stages, " << m_edges.size() << " edges\n";
    for (const Node &node : m_nodes) {
        os << (node.isInput ? "input " : "func ") << node.name << " (" << node.dimensions
           << "-d, " << node.bytesPerPoint << " bytes/point";
        if (node.isOutput) os << ", output";
        if (node.inlinedWithoutSearch) os << ", inlined without search";
        os << ") region";
        for (const Interval &i : node.region) {
            os << " ";
            printInterval(os, i);
        }
        os << "\n";
        for (const Stage &stage : node.stages) {
            os << "  stage " << stage.name << " loops (innermost first):";
            for (const LoopVar &l : stage.loops) {
                os << " " << l.name << (l.isReduction ? "(r)" : "") << "=";
                printInterval(os, l.estimate);
            }
            os << "\n";
            stage.features.dump(os, "    ");
            for (int e : stage.incoming) {
                const Edge &edge = m_edges[size_t(e)];
                os << "    calls " << m_nodes[size_t(edge.producer)].name << " x"
                   << edge.calls.size() << (edge.pointwise ? " pointwise" : "")
                   << (edge.allAffine ? "" : " non-affine") << ":";
                for (const CallSite &site : edge.calls) {
                    os << " (";
                    for (size_t a = 0; a < site.args.size(); ++a) {
                        if (a) os << ", ";
                        if (site.args[a].affine) printAffine(os, *site.args[a].affine, stage);
                        else {
                            os << "?";
                            printInterval(os, site.args[a].fallback);
                        }
                    }
                    os << ")";
                }
                os << "\n";
            }
        }
    }
}

} // namespace beamscope
