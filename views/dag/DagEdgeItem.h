// DagEdgeItem: a producer -> consumer edge of the DAG view: dot's spline, an arrow head and the
// number of call sites (dashed when some call is not affine).
#pragma once

#include "views/dag/DagLayout.h"

#include <QGraphicsItem>

namespace beamscope {

class DagEdgeItem : public QGraphicsItem {
public:
    DagEdgeItem(const DagLayout::EdgePath &path, bool affine);

    /// Emphasizes the edge (it touches the selected Func).
    void setHighlighted(bool highlighted);

    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    DagLayout::EdgePath m_path;
    bool m_affine;
    bool m_highlighted = false;
    QRectF m_labelRect;
};

} // namespace beamscope
