// TreeModel: flat row table with parent links behind QAbstractItemModel.
#include "views/common/TreeModel.h"

namespace beamscope {

TreeModel::TreeModel(QStringList headers, QObject *parent)
    : QAbstractItemModel(parent), m_headers(std::move(headers)) {}

const std::vector<int> &TreeModel::childrenOf(int id) const {
    return id < 0 ? m_topLevel : m_rows[size_t(id)].children;
}

QModelIndex TreeModel::index(int row, int column, const QModelIndex &parent) const {
    if (column < 0 || column >= m_headers.size() || row < 0) return {};
    if (parent.isValid() && parent.column() != 0) return {};
    const std::vector<int> &children = childrenOf(rowId(parent));
    if (row >= int(children.size())) return {};
    return createIndex(row, column, quintptr(children[size_t(row)]));
}

QModelIndex TreeModel::parent(const QModelIndex &child) const {
    const int id = rowId(child);
    if (id < 0) return {};
    const int parentId = m_rows[size_t(id)].parent;
    if (parentId < 0) return {};
    return createIndex(m_rows[size_t(parentId)].position, 0, quintptr(parentId));
}

int TreeModel::rowCount(const QModelIndex &parent) const {
    if (parent.isValid() && parent.column() != 0) return 0;
    return int(childrenOf(rowId(parent)).size());
}

int TreeModel::columnCount(const QModelIndex &) const {
    return int(m_headers.size());
}

QVariant TreeModel::data(const QModelIndex &index, int role) const {
    const int id = rowId(index);
    if (id < 0) return {};
    return cell(id, index.column(), role);
}

QVariant TreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= m_headers.size()) return {};
    if (role == Qt::DisplayRole) return m_headers[section];
    if (role == Qt::ToolTipRole) {
        const QString tip = headerToolTip(section);
        return tip.isEmpty() ? QVariant() : QVariant(tip);
    }
    return {};
}

QString TreeModel::headerToolTip(int) const {
    return {};
}

int TreeModel::rowId(const QModelIndex &index) const {
    if (!index.isValid() || index.model() != this) return -1;
    return int(index.internalId());
}

QModelIndex TreeModel::indexOfRow(int id, int column) const {
    if (id < 0 || id >= int(m_rows.size())) return {};
    return createIndex(m_rows[size_t(id)].position, column, quintptr(id));
}

void TreeModel::beginRebuild() {
    beginResetModel();
    m_rows.clear();
    m_topLevel.clear();
}

int TreeModel::addRow(int parentId) {
    const int id = int(m_rows.size());
    std::vector<int> &siblings = parentId < 0 ? m_topLevel : m_rows[size_t(parentId)].children;
    Row row;
    row.parent = parentId;
    row.position = int(siblings.size());
    siblings.push_back(id);
    m_rows.push_back(std::move(row));
    return id;
}

void TreeModel::endRebuild() {
    endResetModel();
}

} // namespace beamscope
