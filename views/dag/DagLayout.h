// DagLayout: the geometry Graphviz's dot computes for a FunctionDAG — a box per node and a
// spline, arrow and label position per edge — in scene coordinates (points, y down). An
// immutable value handed from the layout thread to the view.
#pragma once

#include <QPainterPath>
#include <QPointF>
#include <QPolygonF>
#include <QRectF>
#include <QSizeF>
#include <QString>

#include <vector>

namespace beamscope {

class FunctionDAG;

/// What to lay out: the DAG and the size each node's item needs (points, index = node index).
struct DagLayoutRequest {
    const FunctionDAG *dag = nullptr;
    std::vector<QSizeF> nodeSizes;
    /// Width / height of the view the layout is for: dot runs top-to-bottom and left-to-right
    /// and the layout that fits this shape at the larger scale is kept. 0: top to bottom only.
    double viewAspect = 0;
    double edgeLabelFontSize = 9;
};

struct DagLayout {
    struct NodeBox {
        int node = -1;
        QRectF rect; ///< the node's box, centred where dot put it
    };
    struct EdgePath {
        int edge = -1;
        QPainterPath path; ///< the spline, from producer to where the arrow starts
        QPolygonF arrow;   ///< arrow head (empty when dot drew none)
        QPointF labelPos;  ///< centre of the call-count label
        QString label;
    };
    std::vector<NodeBox> nodes;  ///< one per DAG node, in node order
    std::vector<EdgePath> edges; ///< one per DAG edge, in edge order
    QRectF bounds;
    bool leftToRight = false; ///< the rank direction dot used
};

} // namespace beamscope
