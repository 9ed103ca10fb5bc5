// ModelDump: an item model's text as a user reads it on screen (after KDAB/hotspot's model
// tests): the header line, then every row at every depth, indented two spaces a level, its
// cells' display text joined by " | ". The views' golden tests compare it with tests/golden/.
#pragma once

#include <QAbstractItemModel>
#include <QStringList>

#include <string>

namespace beamscope::test {

namespace detail {

inline void dumpRows(const QAbstractItemModel &model, const QModelIndex &parent, int depth,
                     QString &out) {
    for (int r = 0; r < model.rowCount(parent); ++r) {
        QStringList cells;
        for (int c = 0; c < model.columnCount(parent); ++c)
            cells << model.index(r, c, parent).data(Qt::DisplayRole).toString();
        out += QString(depth * 2, u' ') + cells.join(QStringLiteral(" | ")) + u'\n';
        const QModelIndex child = model.index(r, 0, parent);
        if (model.hasChildren(child)) dumpRows(model, child, depth + 1, out);
    }
}

} // namespace detail

/// `model`'s header and rows as text, one line a row (see the file comment).
inline std::string dumpModel(const QAbstractItemModel &model) {
    QStringList header;
    for (int c = 0; c < model.columnCount(); ++c)
        header << model.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
    QString out = header.join(QStringLiteral(" | ")) + u'\n';
    detail::dumpRows(model, {}, 0, out);
    return out.toStdString();
}

} // namespace beamscope::test
