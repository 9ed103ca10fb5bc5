// RunnerProgressModel: row bookkeeping (insert new nodes, change counts in place, reset when a
// report drops or reorders nodes) and the cells.
#include "views/runner/RunnerProgressModel.h"

#include <QFont>

namespace beamscope {

RunnerProgressModel::RunnerProgressModel(QObject *parent) : QAbstractTableModel(parent) {}

void RunnerProgressModel::clear() {
    beginResetModel();
    m_finished = m_batch = m_progress = {};
    endResetModel();
}

namespace {

bool same(const RunnerProgress &a, const RunnerProgress &b) {
    if (a.nodes.size() != b.nodes.size()) return false;
    for (size_t i = 0; i < a.nodes.size(); ++i) {
        const NodeProgress &x = a.nodes[i], &y = b.nodes[i];
        if (x.node != y.node || x.pending != y.pending || x.running != y.running ||
            x.done != y.done)
            return false;
    }
    return true;
}

} // namespace

void RunnerProgressModel::setProgress(const RunnerProgress &progress) {
    if (same(progress, m_batch)) return; // a repeated report
    const bool batchOver =
        !m_batch.nodes.empty() && m_batch.pending() == 0 && m_batch.running() == 0;
    if (batchOver) { // a new batch starts: keep what the last one did
        for (const NodeProgress &n : m_batch.nodes)
            m_finished.at(n.node).done += n.done;
    }
    m_batch = progress;
    RunnerProgress shown;
    for (const NodeProgress &n : m_finished.nodes)
        shown.at(n.node).done = n.done;
    for (const NodeProgress &n : m_batch.nodes) {
        NodeProgress &s = shown.at(n.node);
        s.pending = n.pending;
        s.running = n.running;
        s.done += n.done;
    }
    std::erase_if(shown.nodes,
                  [](const NodeProgress &n) { return n.pending + n.running + n.done == 0; });
    show(shown);
}

void RunnerProgressModel::show(const RunnerProgress &progress) {
    const size_t old = m_progress.nodes.size();
    bool samePrefix = progress.nodes.size() >= old;
    for (size_t i = 0; samePrefix && i < old; ++i)
        samePrefix = progress.nodes[i].node == m_progress.nodes[i].node;
    if (!samePrefix) { // nodes went away or moved: rebuild
        beginResetModel();
        m_progress = progress;
        endResetModel();
        return;
    }
    if (progress.nodes.size() > old) {
        // New nodes go before the totals row (row `old` while there were nodes, else a new one).
        const int totals = old == 0 ? 0 : 1;
        beginInsertRows({}, int(old), int(progress.nodes.size()) - 1 + (totals ? 0 : 1));
        m_progress = progress;
        endInsertRows();
    } else {
        m_progress = progress;
    }
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, Pending), index(rowCount() - 1, Done), {Qt::DisplayRole});
}

int RunnerProgressModel::rowCount(const QModelIndex &parent) const {
    if (parent.isValid() || m_progress.nodes.empty()) return 0;
    return int(m_progress.nodes.size()) + 1; // the nodes, then the totals
}

int RunnerProgressModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RunnerProgressModel::data(const QModelIndex &index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
    const bool totals = index.row() == int(m_progress.nodes.size());
    if (role == Qt::FontRole && totals) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    if (role == Qt::TextAlignmentRole && index.column() != Node)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole) return {};
    if (totals) {
        switch (index.column()) {
        case Node:
            return tr("all nodes");
        case Pending:
            return m_progress.pending();
        case Running:
            return m_progress.running();
        default:
            return m_progress.done();
        }
    }
    const NodeProgress &n = m_progress.nodes[size_t(index.row())];
    switch (index.column()) {
    case Node:
        return QString::fromStdString(n.node);
    case Pending:
        return n.pending;
    case Running:
        return n.running;
    default:
        return n.done;
    }
}

QVariant RunnerProgressModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Node:
        return tr("Node");
    case Pending:
        return tr("Pending");
    case Running:
        return tr("Running");
    case Done:
        return tr("Done");
    default:
        return {};
    }
}

} // namespace beamscope
