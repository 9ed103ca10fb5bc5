// FlowLayout: line breaking over the items' size hints.
#include "views/common/FlowLayout.h"

#include <QHBoxLayout>
#include <QWidget>

#include <algorithm>

namespace beamscope {

FlowLayout::FlowLayout(QWidget *parent, int spacing) : QLayout(parent), m_spacing(spacing) {}

FlowLayout::~FlowLayout() {
    while (QLayoutItem *item = takeAt(0))
        delete item;
}

void FlowLayout::addItem(QLayoutItem *item) {
    m_items.append(item);
}

int FlowLayout::count() const {
    return int(m_items.size());
}

QLayoutItem *FlowLayout::itemAt(int index) const {
    return index >= 0 && index < m_items.size() ? m_items[index] : nullptr;
}

QLayoutItem *FlowLayout::takeAt(int index) {
    return index >= 0 && index < m_items.size() ? m_items.takeAt(index) : nullptr;
}

Qt::Orientations FlowLayout::expandingDirections() const {
    return {};
}

bool FlowLayout::hasHeightForWidth() const {
    return true;
}

int FlowLayout::heightForWidth(int width) const {
    return arrange(QRect(0, 0, width, 0), false);
}

QSize FlowLayout::minimumSize() const {
    // The widest single item: anything wider wraps.
    QSize size;
    for (const QLayoutItem *item : m_items)
        size = size.expandedTo(item->minimumSize().expandedTo(item->sizeHint()));
    const QMargins m = contentsMargins();
    return size + QSize(m.left() + m.right(), m.top() + m.bottom());
}

QSize FlowLayout::sizeHint() const {
    // Everything on one line.
    int width = 0, height = 0;
    for (const QLayoutItem *item : m_items) {
        if (item->isEmpty()) continue;
        width += item->sizeHint().width() + (width > 0 ? m_spacing : 0);
        height = std::max(height, item->sizeHint().height());
    }
    const QMargins m = contentsMargins();
    return QSize(width + m.left() + m.right(), height + m.top() + m.bottom());
}

void FlowLayout::setGeometry(const QRect &rect) {
    QLayout::setGeometry(rect);
    arrange(rect, true);
}

int FlowLayout::arrange(const QRect &rect, bool apply) const {
    const QRect area = rect.marginsRemoved(contentsMargins());
    int x = area.x(), y = area.y(), lineHeight = 0;
    // Items of one line share its height and are centred in it.
    QList<std::pair<QLayoutItem *, QPoint>> line;
    auto finishLine = [&] {
        if (apply) {
            for (const auto &[item, at] : line) {
                const QSize size = item->sizeHint();
                item->setGeometry(
                    QRect(QPoint(at.x(), at.y() + (lineHeight - size.height()) / 2), size));
            }
        }
        line.clear();
    };
    for (QLayoutItem *item : m_items) {
        if (item->isEmpty()) continue;
        const QSize size = item->sizeHint();
        if (x > area.x() && x + size.width() > area.right() + 1) {
            finishLine();
            x = area.x();
            y += lineHeight + m_spacing;
            lineHeight = 0;
        }
        line.append({item, QPoint(x, y)});
        x += size.width() + m_spacing;
        lineHeight = std::max(lineHeight, size.height());
    }
    finishLine();
    const QMargins m = contentsMargins();
    return y + lineHeight - rect.y() + m.bottom();
}

QWidget *controlGroup(std::initializer_list<QWidget *> widgets) {
    auto *group = new QWidget;
    auto *row = new QHBoxLayout(group);
    row->setContentsMargins(0, 0, 0, 0);
    for (QWidget *w : widgets)
        row->addWidget(w);
    return group;
}

} // namespace beamscope
