// DagOverview: a small picture of the whole DAG in the corner of the DagView, with the part on
// screen outlined; shown while the graph is larger than the view. Clicking or dragging in it
// centres the view there.
#pragma once

#include <QWidget>

class QGraphicsView;

namespace beamscope {

class DagOverview : public QWidget {
    Q_OBJECT
public:
    /// Overlays `view` (a child of it, drawn over its viewport).
    explicit DagOverview(QGraphicsView *view);

    /// Sits in the bottom-right corner of `viewport` (in the view's coordinates).
    void placeIn(const QRect &viewport);
    /// The scene rectangle shown, in the overview's coordinates.
    QRectF visibleArea() const;

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;

private:
    /// Where the scene is drawn inside the widget (aspect kept).
    QRectF target() const;
    void centreAt(const QPointF &point);

    QGraphicsView *m_view;
};

} // namespace beamscope
