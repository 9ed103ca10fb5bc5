// GraphvizLayout: builds a cgraph graph with the node sizes the view asked for, runs the dot
// layout under the process-wide mutex, and converts positions and splines to scene coordinates.
#include "views/dag/GraphvizLayout.h"

#include "dag/FunctionDAG.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace beamscope {

namespace {

constexpr double kPointsPerInch = 72.0;

char *cstr(const char *s) {
    return const_cast<char *>(s);
}

void set(void *object, const char *name, const std::string &value) {
    agsafeset(object, cstr(name), cstr(value.c_str()), cstr(""));
}

/// The one Graphviz context of the process; created and used under graphvizMutex() only.
GVC_t *context() {
    static GVC_t *gvc = [] {
        agseterr(AGERR); // warnings would go to stderr
        return gvContext();
    }();
    return gvc;
}

QPointF toScene(pointf p, double top) {
    return QPointF(p.x, top - p.y);
}

} // namespace

std::mutex &graphvizMutex() {
    static std::mutex mutex;
    return mutex;
}

namespace {

/// One dot run in one rank direction; the caller holds graphvizMutex().
DagLayout runDot(const DagLayoutRequest &request, bool leftToRight) {
    const FunctionDAG &dag = *request.dag;
    GVC_t *gvc = context();
    if (!gvc) throw std::runtime_error("Graphviz could not be initialized");

    Agraph_t *g = agopen(cstr("dag"), Agdirected, nullptr);
    set(g, "rankdir", leftToRight ? "LR" : "TB");
    set(g, "nodesep", leftToRight ? "0.15" : "0.3");
    set(g, "ranksep", leftToRight ? "0.4" : "0.3");
    std::vector<Agnode_t *> nodes;
    for (const Node &node : dag.nodes()) {
        Agnode_t *n = agnode(g, cstr(("n" + std::to_string(node.index)).c_str()), 1);
        const QSizeF size = request.nodeSizes.at(size_t(node.index));
        set(n, "shape", "box");
        set(n, "fixedsize", "true");
        set(n, "label", "");
        set(n, "width", std::to_string(size.width() / kPointsPerInch));
        set(n, "height", std::to_string(size.height() / kPointsPerInch));
        nodes.push_back(n);
    }
    std::vector<Agedge_t *> edges;
    for (size_t i = 0; i < dag.edges().size(); ++i) {
        const Edge &edge = dag.edge(int(i));
        Agedge_t *e = agedge(g, nodes[size_t(edge.producer)], nodes[size_t(edge.consumer)],
                             cstr(("e" + std::to_string(i)).c_str()), 1);
        set(e, "label", std::to_string(edge.calls.size()));
        set(e, "fontsize", std::to_string(request.edgeLabelFontSize));
        edges.push_back(e);
    }

    if (gvLayout(gvc, g, "dot") != 0) {
        agclose(g);
        throw std::runtime_error("Graphviz dot layout failed");
    }

    DagLayout out;
    out.leftToRight = leftToRight;
    const boxf bb = GD_bb(g);
    const double top = bb.UR.y;
    out.bounds = QRectF(QPointF(bb.LL.x, 0), QPointF(bb.UR.x, bb.UR.y - bb.LL.y));
    for (size_t i = 0; i < nodes.size(); ++i) {
        const QPointF c = toScene(ND_coord(nodes[i]), top);
        const QSizeF size(ND_width(nodes[i]) * kPointsPerInch,
                          ND_height(nodes[i]) * kPointsPerInch);
        out.nodes.push_back(
            {int(i), QRectF(c - QPointF(size.width() / 2, size.height() / 2), size)});
    }
    for (size_t i = 0; i < edges.size(); ++i) {
        DagLayout::EdgePath path;
        path.edge = int(i);
        path.label = QString::number(dag.edge(int(i)).calls.size());
        const splines *spl = ED_spl(edges[i]);
        if (spl && spl->size > 0 && spl->list[0].size > 0) {
            const bezier &bz = spl->list[0];
            path.path.moveTo(toScene(bz.list[0], top));
            for (int k = 1; k + 2 < bz.size; k += 3) {
                path.path.cubicTo(toScene(bz.list[k], top), toScene(bz.list[k + 1], top),
                                  toScene(bz.list[k + 2], top));
            }
            if (bz.eflag) {
                const QPointF tip = toScene(bz.ep, top);
                const QPointF base = toScene(bz.list[bz.size - 1], top);
                const QPointF d = tip - base;
                const QPointF normal(-d.y() / 2.5, d.x() / 2.5);
                path.arrow << tip << base + normal << base - normal;
            }
        }
        if (const textlabel_t *label = ED_label(edges[i])) path.labelPos = toScene(label->pos, top);
        out.edges.push_back(std::move(path));
    }
    gvFreeLayout(gvc, g);
    agclose(g);
    return out;
}

/// The scale at which `layout` fits a view of aspect `aspect` (relative units).
double fitScale(const DagLayout &layout, double aspect) {
    return std::min(aspect / layout.bounds.width(), 1.0 / layout.bounds.height());
}

} // namespace

DagLayout computeDagLayout(const DagLayoutRequest &request) {
    std::lock_guard<std::mutex> lock(graphvizMutex());
    DagLayout topDown = runDot(request, false);
    if (request.viewAspect <= 0) return topDown;
    DagLayout leftRight = runDot(request, true);
    return fitScale(leftRight, request.viewAspect) > fitScale(topDown, request.viewAspect)
               ? leftRight
               : topDown;
}

} // namespace beamscope
