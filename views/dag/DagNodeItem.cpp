// DagNodeItem: painting of a Func node, its outlines and badges.
#include "views/dag/DagNodeItem.h"

#include "views/common/Palette.h"
#include "views/common/WithoutShaping.h"
#include "views/dag/TextLevelOfDetail.h"

#include <QCursor>
#include <QFontMetricsF>
#include <QPainter>

namespace beamscope {

namespace {

QFont nameFont() {
    QFont f = withoutShaping(QFont());
    f.setPointSizeF(10);
    f.setBold(true);
    return f;
}

QFont smallFont() {
    QFont f = withoutShaping(QFont());
    f.setPointSizeF(8.5);
    return f;
}

QFont badgeFont() {
    QFont f = withoutShaping(QFont());
    f.setPointSizeF(7);
    f.setBold(true);
    return f;
}

} // namespace

DagNodeItem::DagNodeItem(const Node &node, const QRectF &rect)
    : m_node(node.index), m_name(QString::fromStdString(node.name)),
      m_stages(int(node.stages.size())), m_isInput(node.isInput), m_isOutput(node.isOutput),
      m_rect(QRectF(-rect.width() / 2, -rect.height() / 2, rect.width(), rect.height())) {
    setPos(rect.center());
    setFlag(ItemIsSelectable, false);
    setAcceptHoverEvents(true);
    setCursor(Qt::PointingHandCursor);
    setZValue(1);
}

QSizeF DagNodeItem::preferredSize(const Node &node) {
    const QFontMetricsF name(nameFont()), small(smallFont());
    const qreal nameWidth = name.horizontalAdvance(QString::fromStdString(node.name));
    const qreal subWidth = small.horizontalAdvance(QStringLiteral("2 stages · unscheduled"));
    const qreal width = std::max({nameWidth, subWidth, 90.0}) + 26;
    const qreal height = name.height() + small.height() + 18;
    return QSizeF(width, height);
}

void DagNodeItem::setDecoration(const Decoration &decoration) {
    // Every snapshot decorates every node; only a changed one is repainted (and only changed
    // nodes make the scene repaint the window: docs/performance.md, "GUI latency").
    if (m_decorated && decoration == m_decoration) return;
    m_decorated = true;
    m_decoration = decoration;
    QString tip =
        QStringLiteral("<b>%1</b><br>%2")
            .arg(m_name.toHtmlEscaped(),
                 m_isInput ? QStringLiteral("input buffer") : decoration.placement.toHtmlEscaped());
    if (!decoration.searchNote.isEmpty())
        tip += QStringLiteral("<br>") + decoration.searchNote.toHtmlEscaped();
    else if (decoration.frozen)
        tip += QStringLiteral("<br>frozen by a pin");
    if (!decoration.pin.isEmpty())
        tip += QStringLiteral("<br>pinned: ") + decoration.pin.toHtmlEscaped();
    setToolTip(tip);
    update();
}

QRectF DagNodeItem::boundingRect() const {
    return m_rect.adjusted(-8, -12, 8, 8);
}

QString DagNodeItem::subtitle() const {
    if (m_isInput) return QStringLiteral("input");
    QString kind;
    switch (m_decoration.kind) {
    case ComputeKind::Unscheduled:
        // A frozen Func keeps its pre-pass decision, applied when the pass reaches it.
        kind = m_decoration.frozen ? QStringLiteral("as pre-pass") : QStringLiteral("unscheduled");
        break;
    case ComputeKind::Inline:
        kind = QStringLiteral("inline");
        break;
    case ComputeKind::Root:
        kind = QStringLiteral("root");
        break;
    case ComputeKind::Block:
        kind = QStringLiteral("block");
        break;
    case ComputeKind::Thread:
        kind = QStringLiteral("thread");
        break;
    }
    return QStringLiteral("%1 %2 · %3")
        .arg(m_stages)
        .arg(m_stages == 1 ? QStringLiteral("stage") : QStringLiteral("stages"), kind);
}

void DagNodeItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *) {
    painter->setRenderHint(QPainter::Antialiasing);
    const ComputeKind kind = m_isInput ? ComputeKind::Unscheduled : m_decoration.kind;
    const QColor fill = m_isInput ? QColor(Qt::white) : palette::decisionFill(kind);
    const QColor stroke = palette::decisionStroke(kind);

    if (m_decoration.selected) {
        painter->setPen(QPen(palette::selection(), 2.5, Qt::DashLine));
        painter->setBrush(Qt::NoBrush);
        painter->drawRoundedRect(m_rect.adjusted(-5, -5, 5, 5), 9, 9);
    }
    const qreal width = m_decoration.deciding ? 3.5 : 1.4;
    painter->setPen(QPen(m_decoration.deciding ? palette::deciding() : stroke, width));
    painter->setBrush(fill);
    if (m_isInput) {
        painter->drawEllipse(m_rect);
    } else {
        painter->drawRoundedRect(m_rect, 6, 6);
        if (m_isOutput) {
            painter->setPen(QPen(stroke, 1.0));
            painter->setBrush(Qt::NoBrush);
            painter->drawRoundedRect(m_rect.adjusted(3, 3, -3, -3), 4, 4);
        }
    }

    if (!textIsReadable(painter)) return;
    const QFontMetricsF nameMetrics(nameFont());
    QRectF nameRect = m_rect.adjusted(6, 7, -6, 0);
    nameRect.setHeight(nameMetrics.height());
    painter->setPen(QColor(0x20, 0x20, 0x20));
    painter->setFont(nameFont());
    painter->drawText(nameRect, Qt::AlignCenter,
                      nameMetrics.elidedText(m_name, Qt::ElideMiddle, nameRect.width()));
    painter->setFont(smallFont());
    painter->setPen(QColor(0x50, 0x50, 0x50));
    const QRectF subRect(m_rect.left() + 4, nameRect.bottom() + 1, m_rect.width() - 8,
                         m_rect.bottom() - nameRect.bottom() - 5);
    painter->drawText(subRect, Qt::AlignHCenter | Qt::AlignTop, subtitle());

    qreal right = m_rect.right() + 4;
    if (m_decoration.pinned)
        paintBadge(painter, QStringLiteral("PINNED"), palette::pinnedBadge(), right);
    if (m_decoration.frozen)
        paintBadge(painter, QStringLiteral("FROZEN"), palette::frozenBadge(), right);
}

void DagNodeItem::paintBadge(QPainter *painter, const QString &text, const QColor &color,
                             qreal &right) const {
    const QFontMetricsF metrics(badgeFont());
    const qreal w = metrics.horizontalAdvance(text) + 8, h = metrics.height() + 2;
    const QRectF badge(right - w, m_rect.top() - h / 2 - 2, w, h);
    painter->setPen(QPen(Qt::white, 1));
    painter->setBrush(color);
    painter->drawRoundedRect(badge, h / 2, h / 2);
    painter->setFont(badgeFont());
    painter->drawText(badge, Qt::AlignCenter, text);
    right = badge.left() - 3;
}

} // namespace beamscope
