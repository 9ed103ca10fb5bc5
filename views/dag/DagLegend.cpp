// DagLegend: flowing swatches painted with the same palette as the nodes.
#include "views/dag/DagLegend.h"

#include "schedule/ScheduleState.h"
#include "views/common/Palette.h"

#include <QPainter>

#include <algorithm>
#include <functional>
#include <vector>

namespace beamscope {

namespace {

struct LegendItem {
    QString text;
    QString tip;
    std::function<void(QPainter &, const QRectF &)> swatch;
};

std::vector<LegendItem> legendItems() {
    std::vector<LegendItem> items;
    for (ComputeKind k : {ComputeKind::Unscheduled, ComputeKind::Inline, ComputeKind::Root,
                          ComputeKind::Block, ComputeKind::Thread}) {
        items.push_back(
            {palette::decisionName(k), palette::decisionHelp(k), [k](QPainter &p, const QRectF &r) {
                 p.setPen(QPen(palette::decisionStroke(k), 1.4));
                 p.setBrush(palette::decisionFill(k));
                 p.drawRoundedRect(r, 3, 3);
             }});
    }
    items.push_back({QObject::tr("input"), {}, [](QPainter &p, const QRectF &r) {
                         p.setPen(QPen(QColor(0x9e, 0x9e, 0x9e), 1.4));
                         p.setBrush(Qt::white);
                         p.drawEllipse(r);
                     }});
    items.push_back({QObject::tr("deciding"), {}, [](QPainter &p, const QRectF &r) {
                         p.setPen(QPen(palette::deciding(), 3));
                         p.setBrush(Qt::white);
                         p.drawRoundedRect(r.adjusted(1, 1, -1, -1), 3, 3);
                     }});
    items.push_back({QObject::tr("selected"), {}, [](QPainter &p, const QRectF &r) {
                         p.setPen(QPen(palette::selection(), 2, Qt::DashLine));
                         p.setBrush(Qt::NoBrush);
                         p.drawRoundedRect(r, 3, 3);
                     }});
    for (const auto &[text, color] : {std::pair{QObject::tr("frozen"), palette::frozenBadge()},
                                      std::pair{QObject::tr("pinned"), palette::pinnedBadge()}}) {
        const QColor c = color;
        items.push_back({text, {}, [c](QPainter &p, const QRectF &r) {
                             p.setPen(Qt::NoPen);
                             p.setBrush(c);
                             p.drawRoundedRect(r.adjusted(0, 3, 0, -3), 5, 5);
                         }});
    }
    // Edges: the number on an edge counts the consumer's call sites of the producer; a dashed
    // edge has a call site that is not affine.
    items.push_back({QObject::tr("call sites"), {}, [](QPainter &p, const QRectF &r) {
                         p.setPen(QPen(QColor(0x8a, 0x8a, 0x8a), 1.2));
                         p.drawLine(QPointF(r.left(), r.center().y()),
                                    QPointF(r.right(), r.center().y()));
                         p.setPen(QColor(0x55, 0x55, 0x55));
                         QFont f = p.font();
                         f.setPointSizeF(f.pointSizeF() * 0.8);
                         p.setFont(f);
                         p.setBrush(Qt::white);
                         p.drawText(r, Qt::AlignCenter, QStringLiteral("2"));
                     }});
    items.push_back({QObject::tr("not affine"), {}, [](QPainter &p, const QRectF &r) {
                         p.setPen(QPen(QColor(0x8a, 0x8a, 0x8a), 1.2, Qt::DashLine));
                         p.drawLine(QPointF(r.left(), r.center().y()),
                                    QPointF(r.right(), r.center().y()));
                     }});
    return items;
}

constexpr int kSwatchW = 18, kSwatchH = 12, kGap = 4, kItemGap = 10, kMargin = 6;

} // namespace

DagLegend::DagLegend(QWidget *parent) : QWidget(parent) {
    // As tall as its wrapped lines need at the width it gets (a fixed policy kept the height of
    // a 600 px wide legend and cut the last line on a narrow window).
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
    setToolTip(
        tr("Fill: where each Func is computed in the inspected state. Edge labels: call sites."));
}

int DagLegend::layoutItems(int width, QPainter *painter) const {
    const QFontMetrics metrics(font());
    const int lineHeight = std::max(kSwatchH, metrics.height()) + 4;
    int x = kMargin, y = kMargin;
    for (const LegendItem &item : legendItems()) {
        const int w = kSwatchW + kGap + metrics.horizontalAdvance(item.text);
        if (x > kMargin && x + w > width - kMargin) {
            x = kMargin;
            y += lineHeight;
        }
        if (painter) {
            const QRectF swatch(x, y + (lineHeight - kSwatchH) / 2.0, kSwatchW, kSwatchH);
            painter->save();
            item.swatch(*painter, swatch);
            painter->restore();
            painter->drawText(QRect(x + kSwatchW + kGap, y, w, lineHeight),
                              Qt::AlignVCenter | Qt::AlignLeft, item.text);
        }
        x += w + kItemGap;
    }
    return y + lineHeight + kMargin;
}

int DagLegend::heightForWidth(int width) const {
    return layoutItems(width, nullptr);
}

QSize DagLegend::sizeHint() const {
    return QSize(600, heightForWidth(600));
}

QSize DagLegend::minimumSizeHint() const {
    // Two lines at least; a narrow window (a laptop screen) gives the graph the height rather
    // than growing its minimum with every wrapped line.
    return QSize(200, std::min(heightForWidth(width() > 0 ? width() : 600), heightForWidth(700)));
}

void DagLegend::paintEvent(QPaintEvent *) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(palette().color(QPalette::WindowText));
    layoutItems(width(), &painter);
}

} // namespace beamscope
