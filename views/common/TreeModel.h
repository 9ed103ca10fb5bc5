// TreeModel: the small read-only tree model every Beamscope table derives from (after
// KDAB/hotspot's treemodel.h). Rows live in one flat table with parent links; the structural
// functions (index, parent, rowCount, columnCount, data, headerData) are final, and subclasses
// only rebuild the rows and fill in cells by row id.
#pragma once

#include <QAbstractItemModel>
#include <QStringList>

#include <vector>

namespace beamscope {

class TreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const final;
    QModelIndex parent(const QModelIndex &child) const final;
    int rowCount(const QModelIndex &parent = {}) const final;
    int columnCount(const QModelIndex &parent = {}) const final;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const final;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const final;

    /// The row id behind `index` (-1 when invalid).
    int rowId(const QModelIndex &index) const;
    /// The index of row `id` in `column`.
    QModelIndex indexOfRow(int id, int column = 0) const;
    /// Number of rows at every depth.
    int totalRows() const { return int(m_rows.size()); }

protected:
    TreeModel(QStringList headers, QObject *parent);

    /// Replacing every row: beginRebuild(), addRow()..., endRebuild() (one model reset).
    void beginRebuild();
    /// Appends a row under `parentId` (-1: top level); returns its id (ids count from 0).
    int addRow(int parentId = -1);
    void endRebuild();

    /// The cell of row `id`; called for valid indexes only.
    virtual QVariant cell(int id, int column, int role) const = 0;
    /// Tooltip of a column header (optional).
    virtual QString headerToolTip(int section) const;

private:
    struct Row {
        int parent = -1;
        int position = 0; ///< row number within the parent
        std::vector<int> children;
    };
    const std::vector<int> &childrenOf(int id) const;

    QStringList m_headers;
    std::vector<Row> m_rows;
    std::vector<int> m_topLevel;
};

} // namespace beamscope
