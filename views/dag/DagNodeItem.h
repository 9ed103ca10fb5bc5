// DagNodeItem: one Func (or input buffer) of the DAG view — a box filled with the colour of its
// compute location, its name and stage count, an outline when it is the Func being decided or
// the selected one, and badges when it is frozen or pinned.
#pragma once

#include "schedule/ScheduleState.h"

#include <QFont>
#include <QGraphicsItem>
#include <QString>

namespace beamscope {

class DagNodeItem : public QGraphicsItem {
public:
    /// How the node looks now.
    struct Decoration {
        ComputeKind kind = ComputeKind::Unscheduled;
        bool frozen = false;
        bool pinned = false;
        bool deciding = false;
        bool selected = false;
        QString placement; ///< e.g. "root · threads 16×4 · serial 4×8" (tooltip)
        QString pin;       ///< the pin, in words (tooltip)
        /// How the search treats the Func (tooltip): its freezing rank after the pre-pass, or
        /// that it wraps an input and is read in place without search.
        QString searchNote;
        bool operator==(const Decoration &) const = default;
    };

    DagNodeItem(const Node &node, const QRectF &rect);

    /// The size a node needs to show its text (used for the layout request).
    static QSizeF preferredSize(const Node &node);

    int node() const { return m_node; }
    void setDecoration(const Decoration &decoration);
    const Decoration &decoration() const { return m_decoration; }
    /// The line under the name: "1 stage · inline"; "as pre-pass" for a frozen Func the pass
    /// has not reached yet; "input".
    QString subtitle() const;

    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    void paintBadge(QPainter *painter, const QString &text, const QColor &color,
                    qreal &right) const;

    int m_node;
    QString m_name;
    int m_stages;
    bool m_isInput;
    bool m_isOutput;
    QRectF m_rect; ///< in item coordinates, centred on 0
    Decoration m_decoration;
    bool m_decorated = false; ///< setDecoration() has run (the tooltip is set)
};

} // namespace beamscope
