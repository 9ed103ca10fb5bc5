// TimelineModel: a flat table of the history's steps, appended row by row.
#include "views/history/TimelineModel.h"

#include "views/common/Format.h"

#include <QFont>

#include <utility>

namespace beamscope {

TimelineModel::TimelineModel(QObject *parent) : QAbstractTableModel(parent) {}

void TimelineModel::append(const TimelineEntry &entry) {
    if (entry.index != entryCount()) return; // out of order: a stale step of an older search
    beginInsertRows({}, entryCount(), entryCount());
    m_entries.push_back(entry);
    endInsertRows();
}

void TimelineModel::append(const std::vector<TimelineEntry> &entries) {
    size_t n = 0; // the leading run that continues the list
    while (n < entries.size() && entries[n].index == entryCount() + int(n))
        ++n;
    if (n == 0) return;
    beginInsertRows({}, entryCount(), entryCount() + int(n) - 1);
    m_entries.insert(m_entries.end(), entries.begin(), entries.begin() + std::ptrdiff_t(n));
    endInsertRows();
}

void TimelineModel::clear() {
    beginResetModel();
    m_entries.clear();
    m_shown = -1;
    endResetModel();
}

void TimelineModel::setShown(int k) {
    if (k == m_shown) return;
    const int previous = std::exchange(m_shown, k);
    for (int row : {previous, k}) {
        if (row >= 0 && row < entryCount())
            Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1), {Qt::FontRole});
    }
}

int TimelineModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : entryCount();
}

int TimelineModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TimelineModel::data(const QModelIndex &index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const TimelineEntry &e = m_entries[size_t(index.row())];
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case StepColumn:
            return e.index + 1;
        case PassColumn:
            return e.pass == 0 ? tr("pre") : QString::number(e.pass);
        case FuncColumn:
            return QString::fromStdString(e.func);
        case PhaseColumn:
            return e.phase == Phase::ComputeLocation ? tr("location") : tr("tiling");
        case CandidatesColumn:
            return tr("%1 (%2)").arg(format::count(e.candidates), format::count(e.sampled));
        case PrunedColumn:
            return format::count(e.pruned);
        case BestColumn:
            return format::ms(e.bestCost);
        default:
            return {};
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() >= BestColumn)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::FontRole && index.row() == m_shown) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    if (role == Qt::ToolTipRole && e.passFinished)
        return tr("The last step of pass %1").arg(e.pass);
    return {};
}

QVariant TimelineModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    static const char *const names[] = {"Step", "Pass",       "Func",  "Phase",
                                        "Best", "Candidates", "Pruned"};
    static const char *const tips[] = {
        "The step's number (1-based)",
        "The pass it belongs to (pre: the freezing pre-pass)",
        "The Func the step decided",
        "Compute location, or the tiling of a root Func",
        "The best predicted cost in the beam after the step",
        "Candidates enumerated, and how many of them were costed (sampled)",
        "Candidates dropped by the pruning rules"};
    if (role == Qt::DisplayRole) return tr(names[section]);
    if (role == Qt::ToolTipRole) return tr(tips[section]);
    return {};
}

} // namespace beamscope
