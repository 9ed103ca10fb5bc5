// TimelineModel: a flat table of the history's steps, appended row by row.
#include "views/history/TimelineModel.h"

#include "views/common/Format.h"

#include <QBrush>
#include <QColor>
#include <QFont>

#include <cmath>
#include <utility>

namespace beamscope {

QString compactCount(int64_t n) {
    if (n < 0) return QStringLiteral("-") + compactCount(-n);
    if (n < 1000) return QString::number(n);
    if (n < 9950) return QString::number(double(n) / 1e3, 'f', 1) + QLatin1Char('k');
    if (n < 999500) return QString::number(std::llround(double(n) / 1e3)) + QLatin1Char('k');
    if (n < 9950000) return QString::number(double(n) / 1e6, 'f', 1) + QLatin1Char('M');
    return QString::number(std::llround(double(n) / 1e6)) + QLatin1Char('M');
}

QString compactMs(double v) {
    if (!std::isfinite(v)) return QStringLiteral("—");
    const double a = std::fabs(v);
    if (a >= 99.95) return QString::number(v, 'f', 0);
    if (a >= 9.995) return QString::number(v, 'f', 1);
    if (a >= 0.9995) return QString::number(v, 'f', 2);
    if (a >= 0.09995) return QString::number(v, 'f', 3);
    return QString::number(v, 'g', 2); // "0.056": the column holds five characters
}

TimelineModel::TimelineModel(QObject *parent) : QAbstractTableModel(parent) {}

void TimelineModel::append(const TimelineEntry &entry) {
    if (entry.index != entryCount()) return; // out of order: a stale step of an older search
    beginInsertRows({}, entryCount(), entryCount());
    m_entries.push_back(entry);
    endInsertRows();
    updateResultStep();
}

void TimelineModel::append(const std::vector<TimelineEntry> &entries) {
    size_t n = 0; // the leading run that continues the list
    while (n < entries.size() && entries[n].index == entryCount() + int(n))
        ++n;
    if (n == 0) return;
    beginInsertRows({}, entryCount(), entryCount() + int(n) - 1);
    m_entries.insert(m_entries.end(), entries.begin(), entries.begin() + std::ptrdiff_t(n));
    endInsertRows();
    updateResultStep();
}

void TimelineModel::updateResultStep() {
    int found = -1;
    if (!m_entries.empty() && std::isfinite(m_entries.back().resultCost)) {
        // The result only changes at a pass's end, to a cheaper state: the first step that
        // reports the newest result's cost is the one whose final beam held it.
        const double result = m_entries.back().resultCost;
        found = int(m_entries.size()) - 1;
        while (found > 0 && m_entries[size_t(found - 1)].resultCost == result)
            --found;
    }
    if (found == m_resultStep) return;
    const int previous = std::exchange(m_resultStep, found);
    for (int row : {previous, found}) {
        if (row >= 0 && row < entryCount())
            Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
    }
}

void TimelineModel::clear() {
    beginResetModel();
    m_entries.clear();
    m_shown = -1;
    m_resultStep = -1;
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
        case FuncColumn:
            return QString::fromStdString(e.func);
        case PassColumn: // the result's step is marked here, in room "pre tile" leaves
            return tr("%1 %2").arg(e.pass == 0 ? tr("pre") : QString::number(e.pass),
                                   e.phase == Phase::ComputeLocation ? tr("loc") : tr("tile")) +
                   (index.row() == m_resultStep ? QStringLiteral(" ★") : QString());
        case CandidatesColumn:
            return compactCount(e.candidates);
        case BestColumn:
            return compactMs(e.bestCost);
        default:
            return {};
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() >= BestColumn)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    // The Beam dock's tint for the search's result.
    if (role == Qt::BackgroundRole && index.row() == m_resultStep)
        return QBrush(QColor(0xff, 0xf4, 0xd6));
    if (role == Qt::FontRole && index.row() == m_shown) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    if (role == Qt::ToolTipRole) {
        // The exact figures behind the compact ones.
        QString tip =
            tr("Step %1 (%2): %3 of %4\nBest in the beam: %5\n%6 candidates, %7 costed, %8 "
               "pruned")
                .arg(e.index + 1)
                .arg(e.pass == 0 ? tr("pre-pass") : tr("pass %1").arg(e.pass))
                .arg(e.phase == Phase::ComputeLocation ? tr("compute location") : tr("tiling"),
                     QString::fromStdString(e.func), format::ms(e.bestCost),
                     format::count(e.candidates), format::count(e.sampled),
                     format::count(e.pruned));
        if (e.passFinished) tip += tr("\nThe last step of pass %1").arg(e.pass);
        if (index.row() == m_resultStep) {
            tip += tr("\n★ The search's result (%1) came from this step's final beam: the "
                      "status bar, Loop nest, Export and Benchmark take it")
                       .arg(format::ms(e.resultCost));
        }
        return tip;
    }
    return {};
}

QVariant TimelineModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    static const char *const names[] = {"#", "Func", "Pass", "Best", "Cands"};
    static const char *const tips[] = {
        "The step's number (1-based)",
        "The Func the step decided (the row's tooltip has the whole name)",
        "The pass (pre: the freezing pre-pass) and what the step decided: loc, the Func's compute "
        "location; tile, the tiling of a root Func; ★: the step whose final beam gave the "
        "search's result",
        "The best predicted cost in the beam after the step, in ms (the search's result, ★, is "
        "the cheapest complete state of the passes' final beams, shown above the list)",
        "Candidates enumerated (k: thousands); the row's tooltip has the exact count, how many "
        "were costed (sampled) and how many pruned"};
    if (role == Qt::DisplayRole) return tr(names[section]);
    if (role == Qt::ToolTipRole) return tr(tips[section]);
    return {};
}

} // namespace beamscope
