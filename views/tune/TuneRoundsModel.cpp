// TuneRoundsModel: rows, cells, headers and tooltips.
#include "views/tune/TuneRoundsModel.h"

#include <cmath>

namespace beamscope {

namespace {

/// A time in ms with 4 significant digits, "-" when unknown.
QString ms(double v) {
    return std::isfinite(v) ? QString::number(v, 'g', 4) : QStringLiteral("-");
}

QString ratio(double v) {
    return std::isfinite(v) ? QString::number(v, 'f', 2) : QStringLiteral("-");
}

} // namespace

TuneRoundsModel::TuneRoundsModel(QObject *parent) : QAbstractTableModel(parent) {}

int TuneRoundsModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_rounds.size());
}

int TuneRoundsModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TuneRoundsModel::data(const QModelIndex &index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const TuneRound &r = m_rounds[size_t(index.row())];
    if (role == Qt::TextAlignmentRole) {
        return index.column() == ModelColumn ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                             : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role == Qt::ToolTipRole && index.column() == TauColumn) {
        return tr("Kendall's tau of the %1 model's predictions against this round's measured "
                  "rows, before it was trained on them (1: same order, 0: unrelated)")
            .arg(QString::fromStdString(r.model));
    }
    if (role == Qt::ToolTipRole &&
        (index.column() == RoundBestColumn || index.column() == BestColumn)) {
        return tr("median ms: this round's fastest correct schedule, and the fastest so far");
    }
    if (role == Qt::ToolTipRole && index.column() == TimeColumn) {
        return tr("search %1 s, measure %2 s, train %3 s")
            .arg(r.searchMs / 1000, 0, 'f', 1)
            .arg(r.measureMs / 1000, 0, 'f', 1)
            .arg(r.trainMs / 1000, 0, 'f', 1);
    }
    if (role != Qt::DisplayRole) return {};
    switch (Column(index.column())) {
    case RoundColumn:
        return r.round + 1;
    case ModelColumn:
        return QString::fromStdString(r.model);
    case MeasuredColumn:
        return r.measured;
    case FailedColumn:
        return r.failures;
    case ReusedColumn:
        return r.reused;
    case RoundBestColumn:
        return ms(r.roundBestMs);
    case BestColumn:
        return ms(r.bestMs);
    case TauColumn:
        return ratio(r.tau);
    case PairwiseColumn:
        return ratio(r.pairwiseAccuracy);
    case TimeColumn:
        return QString::number((r.searchMs + r.measureMs + r.trainMs) / 1000, 'f', 1);
    case ColumnCount:
        break;
    }
    return {};
}

QVariant TuneRoundsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (Column(section)) {
    case RoundColumn:
        return tr("round");
    case ModelColumn:
        return tr("model");
    case MeasuredColumn:
        return tr("measured");
    case FailedColumn:
        return tr("failed");
    case ReusedColumn:
        return tr("reused");
    case RoundBestColumn:
        return tr("round best");
    case BestColumn:
        return tr("best");
    case TauColumn:
        return tr("τ");
    case PairwiseColumn:
        return tr("pairs ok");
    case TimeColumn:
        return tr("time s");
    case ColumnCount:
        break;
    }
    return {};
}

void TuneRoundsModel::addRound(const TuneRound &round) {
    for (size_t i = 0; i < m_rounds.size(); ++i) {
        if (m_rounds[i].round == round.round) {
            m_rounds[i] = round;
            Q_EMIT dataChanged(index(int(i), 0), index(int(i), ColumnCount - 1));
            return;
        }
    }
    const int row = int(m_rounds.size());
    beginInsertRows({}, row, row);
    m_rounds.push_back(round);
    endInsertRows();
}

void TuneRoundsModel::setRounds(const std::vector<TuneRound> &rounds) {
    beginResetModel();
    m_rounds = rounds;
    endResetModel();
}

void TuneRoundsModel::clear() {
    setRounds({});
}

} // namespace beamscope
