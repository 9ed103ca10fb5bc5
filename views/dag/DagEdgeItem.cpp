// DagEdgeItem: painting of an edge, its arrow and its call-count label.
#include "views/dag/DagEdgeItem.h"

#include "views/common/Palette.h"
#include "views/common/WithoutShaping.h"
#include "views/dag/TextLevelOfDetail.h"

#include <QFontMetricsF>
#include <QPainter>

namespace beamscope {

namespace {
QFont labelFont() {
    QFont f = withoutShaping(QFont());
    f.setPointSizeF(8);
    return f;
}
} // namespace

DagEdgeItem::DagEdgeItem(const DagLayout::EdgePath &path, bool affine)
    : m_path(path), m_affine(affine) {
    const QFontMetricsF metrics(labelFont());
    const qreal w = metrics.horizontalAdvance(m_path.label) + 8, h = metrics.height() + 2;
    m_labelRect = QRectF(m_path.labelPos.x() - w / 2, m_path.labelPos.y() - h / 2, w, h);
    setToolTip(QStringLiteral("%1 call site(s)%2")
                   .arg(m_path.label, affine ? QString() : QStringLiteral(", not all affine")));
    setZValue(0);
}

void DagEdgeItem::setHighlighted(bool highlighted) {
    if (highlighted == m_highlighted) return;
    m_highlighted = highlighted;
    setZValue(highlighted ? 0.5 : 0);
    update();
}

QRectF DagEdgeItem::boundingRect() const {
    return m_path.path.boundingRect()
        .united(m_path.arrow.boundingRect())
        .united(m_labelRect)
        .adjusted(-3, -3, 3, 3);
}

void DagEdgeItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *) {
    painter->setRenderHint(QPainter::Antialiasing);
    const QColor color = m_highlighted ? palette::selection() : QColor(0x8a, 0x8a, 0x8a);
    QPen pen(color, m_highlighted ? 2.2 : 1.2);
    if (!m_affine) pen.setStyle(Qt::DashLine);
    painter->setPen(pen);
    painter->setBrush(Qt::NoBrush);
    painter->drawPath(m_path.path);
    painter->setPen(Qt::NoPen);
    painter->setBrush(color);
    painter->drawPolygon(m_path.arrow);
    if (!m_path.label.isEmpty() && textIsReadable(painter)) {
        painter->setBrush(QColor(255, 255, 255, 220));
        painter->drawRoundedRect(m_labelRect, 3, 3);
        painter->setPen(m_highlighted ? color : QColor(0x55, 0x55, 0x55));
        painter->setFont(labelFont());
        painter->drawText(m_labelRect, Qt::AlignCenter, m_path.label);
    }
}

} // namespace beamscope
