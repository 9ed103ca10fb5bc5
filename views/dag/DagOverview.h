// DagOverview: a small picture of the whole DAG in the corner of the DagView, with the part on
// screen outlined; shown while the graph is larger than the view. Clicking or dragging in it
// centres the view there. The picture is a pixmap drawn again at most every kRefreshMs while the
// scene changes (a search changes it every step; drawing the whole scene took 15 ms a time on a
// loaded machine, and the overview is painted with every update of the view under it).
#pragma once

#include <QElapsedTimer>
#include <QPixmap>
#include <QTimer>
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
    /// The scene changed: the picture is drawn again now or, if it was drawn less than
    /// kRefreshMs ago, when that much time has passed.
    void sceneChanged();

    static constexpr int kRefreshMs = 200;

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;

private:
    /// Where the scene is drawn inside the widget (aspect kept).
    QRectF target() const;
    void centreAt(const QPointF &point);
    /// The scene drawn into m_picture (the widget's size, transparent around the target).
    void drawPicture();

    QGraphicsView *m_view;
    QPixmap m_picture;
    bool m_pictureStale = true;
    QElapsedTimer m_sincePicture;
    QTimer m_refresh; ///< single shot: the next drawing of a scene that changed meanwhile
};

} // namespace beamscope
