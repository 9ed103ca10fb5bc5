// dumpModel: an item model as text, for golden files (after KDAB/hotspot's model tests): the
// horizontal header, then every row at every depth, indented two spaces per level, its columns'
// display text joined by " | " (line breaks in a cell shown as "\n").
#pragma once

#include <QAbstractItemModel>
#include <QString>
#include <QStringList>

#include <string>

namespace beamscope::test {

inline QString cellText(const QVariant &value) {
    return value.toString().replace(QLatin1Char('\n'), QLatin1String("\\n"));
}

inline void dumpRows(const QAbstractItemModel &model, const QModelIndex &parent, int depth,
                     QString &out) {
    for (int r = 0; r < model.rowCount(parent); ++r) {
        QStringList cells;
        for (int c = 0; c < model.columnCount(parent); ++c)
            cells << cellText(model.index(r, c, parent).data(Qt::DisplayRole));
        out += QString(depth * 2, QLatin1Char(' ')) + cells.join(QLatin1String(" | ")) + "\n";
        dumpRows(model, model.index(r, 0, parent), depth + 1, out);
    }
}

/// The whole model as text (UTF-8).
inline std::string dumpModel(const QAbstractItemModel &model) {
    QStringList header;
    for (int c = 0; c < model.columnCount(); ++c)
        header << cellText(model.headerData(c, Qt::Horizontal, Qt::DisplayRole));
    QString out = "# " + header.join(QLatin1String(" | ")) + "\n";
    dumpRows(model, {}, 0, out);
    return out.toStdString();
}

} // namespace beamscope::test
