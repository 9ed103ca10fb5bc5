// Whether the DAG's items draw their text at the painter's scale. Below 0.4 a node's 10-point
// name would be under 5 pixels tall, unreadable: the overview (about 0.05) and the Fit of a large
// pipeline then draw the shapes and colours alone, and text was most of their painting time
// (docs/performance.md, "GUI latency").
#pragma once

#include <QPainter>
#include <QStyleOptionGraphicsItem>

namespace beamscope {

constexpr qreal kReadableTextScale = 0.4;

inline bool textIsReadable(const QPainter *painter) {
    return QStyleOptionGraphicsItem::levelOfDetailFromTransform(painter->worldTransform()) >=
           kReadableTextScale;
}

} // namespace beamscope
