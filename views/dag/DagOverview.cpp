// DagOverview: renders the scene scaled into its rectangle, outlines the view's area.
#include "views/dag/DagOverview.h"

#include <QGraphicsScene>
#include <QGraphicsView>
#include <QMouseEvent>
#include <QPainter>

#include <algorithm>

namespace beamscope {

namespace {
constexpr int kMaxSide = 200; ///< px: the overview's longer side
constexpr int kMargin = 8;
} // namespace

DagOverview::DagOverview(QGraphicsView *view) : QWidget(view), m_view(view) {
    setObjectName(QStringLiteral("dagOverview"));
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("The whole graph; the outlined part is on screen. Click or drag to move there."));
    m_refresh.setSingleShot(true);
    connect(&m_refresh, &QTimer::timeout, this, qOverload<>(&QWidget::update));
    hide();
}

void DagOverview::sceneChanged() {
    m_pictureStale = true;
    if (!m_sincePicture.isValid() || m_sincePicture.elapsed() >= kRefreshMs)
        update();
    else if (!m_refresh.isActive())
        m_refresh.start(int(kRefreshMs - m_sincePicture.elapsed()));
}

void DagOverview::drawPicture() {
    const qreal ratio = devicePixelRatioF();
    m_picture = QPixmap(size() * ratio);
    m_picture.setDevicePixelRatio(ratio);
    m_picture.fill(Qt::transparent);
    if (QGraphicsScene *scene = m_view->scene()) {
        QPainter p(&m_picture);
        p.setRenderHint(QPainter::Antialiasing);
        scene->render(&p, target(), m_view->sceneRect(), Qt::KeepAspectRatio);
    }
    m_pictureStale = false;
    m_sincePicture.start();
}

void DagOverview::placeIn(const QRect &viewport) {
    const QRectF scene = m_view->sceneRect();
    if (scene.isEmpty()) return;
    const int side =
        std::min(kMaxSide, std::max(60, std::min(viewport.width(), viewport.height()) / 3));
    const double aspect = scene.width() / scene.height();
    const QSize size = aspect >= 1 ? QSize(side, std::max(24, int(side / aspect)))
                                   : QSize(std::max(24, int(side * aspect)), side);
    setGeometry(QRect(viewport.right() - size.width() - kMargin,
                      viewport.bottom() - size.height() - kMargin, size.width(), size.height()));
    raise();
}

QRectF DagOverview::target() const {
    const QRectF scene = m_view->sceneRect();
    const QRectF box = QRectF(rect()).adjusted(2, 2, -2, -2);
    if (scene.isEmpty()) return box;
    const double scale = std::min(box.width() / scene.width(), box.height() / scene.height());
    QRectF t(0, 0, scene.width() * scale, scene.height() * scale);
    t.moveCenter(box.center());
    return t;
}

QRectF DagOverview::visibleArea() const {
    const QRectF scene = m_view->sceneRect();
    const QRectF t = target();
    if (scene.isEmpty()) return {};
    const QRectF shown =
        m_view->mapToScene(m_view->viewport()->rect()).boundingRect().intersected(scene);
    const double scale = t.width() / scene.width();
    return QRectF(t.left() + (shown.left() - scene.left()) * scale,
                  t.top() + (shown.top() - scene.top()) * scale, shown.width() * scale,
                  shown.height() * scale);
}

void DagOverview::paintEvent(QPaintEvent *) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), QColor(255, 255, 255, 235));
    p.setPen(QColor(0x90, 0x90, 0x98));
    p.drawRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5));
    const bool resized = m_picture.deviceIndependentSize() != QSizeF(size());
    if (resized || (m_pictureStale && !m_refresh.isActive())) drawPicture();
    p.drawPixmap(0, 0, m_picture);
    p.setPen(QPen(QColor(0xd5, 0x5e, 0x00), 1.5));
    p.setBrush(QColor(0xd5, 0x5e, 0x00, 30));
    p.drawRect(visibleArea());
}

void DagOverview::centreAt(const QPointF &point) {
    const QRectF scene = m_view->sceneRect();
    const QRectF t = target();
    if (t.isEmpty()) return;
    const double scale = scene.width() / t.width();
    m_view->centerOn(scene.left() + (point.x() - t.left()) * scale,
                     scene.top() + (point.y() - t.top()) * scale);
    update();
}

void DagOverview::mousePressEvent(QMouseEvent *event) {
    centreAt(event->position());
    event->accept();
}

void DagOverview::mouseMoveEvent(QMouseEvent *event) {
    if (event->buttons() & Qt::LeftButton) centreAt(event->position());
    event->accept();
}

} // namespace beamscope
