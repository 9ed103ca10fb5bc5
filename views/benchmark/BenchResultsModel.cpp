// BenchResultsModel: rows in two sections (candidates, baselines), cells, tooltips, values.
#include "views/benchmark/BenchResultsModel.h"

#include "bench/CandidateLabel.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QStringList>

#include <cmath>

namespace beamscope {

namespace {

/// Milliseconds without the unit (the header has it): 4 significant digits, no exponent.
QString msNumber(double v) {
    if (!std::isfinite(v)) return QString();
    if (std::abs(v) >= 1000) return QString::number(v, 'f', 0);
    return QString::number(v, 'g', 4);
}

QString kindOf(const Measurement &m, bool baseline) {
    if (baseline) return QObject::tr("baseline");
    const std::string &label = m.label;
    const size_t hash = label.find('#');
    return QString::fromStdString(hash == std::string::npos ? label : label.substr(0, hash))
        .trimmed();
}

} // namespace

QString baselineDisplayName(const Measurement &baseline) {
    const QString label = QString::fromStdString(baseline.label);
    return label.startsWith(QStringLiteral("baseline:")) ? label.mid(9) : label;
}

BenchResultsModel::BenchResultsModel(QObject *parent) : QAbstractTableModel(parent) {}

int BenchResultsModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int BenchResultsModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

void BenchResultsModel::addMeasurement(const Measurement &measurement, bool baseline) {
    const int row = baseline ? int(m_rows.size()) : m_candidates;
    beginInsertRows({}, row, row);
    m_rows.insert(m_rows.begin() + row, measurement);
    if (!baseline) ++m_candidates;
    endInsertRows();
}

void BenchResultsModel::setResults(const std::vector<Measurement> &candidates,
                                   const std::vector<Measurement> &baselines, int chosen) {
    beginResetModel();
    m_rows = candidates;
    m_rows.insert(m_rows.end(), baselines.begin(), baselines.end());
    m_candidates = int(candidates.size());
    m_chosen = chosen >= 0 && chosen < m_candidates ? chosen : -1;
    endResetModel();
}

void BenchResultsModel::setChosen(int index) {
    const int previous = m_chosen;
    m_chosen = index >= 0 && index < m_candidates ? index : -1;
    for (int row : {previous, m_chosen}) {
        if (row >= 0) Q_EMIT dataChanged(this->index(row, 0), this->index(row, ColumnCount - 1));
    }
}

void BenchResultsModel::clear() {
    beginResetModel();
    m_rows.clear();
    m_candidates = 0;
    m_chosen = -1;
    endResetModel();
}

QVariant BenchResultsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    static const char *const titles[] = {"Schedule",    "Kind",      "Predicted ms",
                                         "Measured ms", "Regs",      "Spills B",
                                         "Correct",     "Search ms", "Failure"};
    static const char *const tips[] = {
        "The search's result (result), a row of the Beam dock (beam #r), a greedy sample with "
        "dropout, or one of Halide's schedules; ★ marks the one the benchmark chose; (reused): "
        "taken from the measurement database, not run again",
        "result, beam, greedy, or baseline (Halide's autoschedulers and a naive GPU schedule)",
        "The cost model's prediction for the GPU model the search used",
        "Median of the timed runs on the device; min and max in the tooltip",
        "Most registers per thread over the kernels (ptxas; needs a PTX report)",
        "Bytes spilled to local memory, stores + loads over the kernels (ptxas)",
        "Output equal to the CPU reference (within tolerance); max error in the tooltip",
        "How long a baseline's autoscheduler searched",
        "Why the candidate failed (compile error, crash, hang, wrong output)"};
    if (role == Qt::DisplayRole) return tr(titles[section]);
    if (role == Qt::ToolTipRole) return tr(tips[section]);
    return {};
}

QVariant BenchResultsModel::data(const QModelIndex &index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
    const int row = index.row(), column = index.column();
    const Measurement &m = m_rows[size_t(row)];
    switch (role) {
    case Qt::DisplayRole:
        return display(m, row, column);
    case Qt::ToolTipRole:
        return toolTip(m, column);
    case ValueRole:
        return value(m, column);
    case Qt::TextAlignmentRole:
        if ((column >= PredictedColumn && column <= SpillsColumn) || column == SearchColumn)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return int(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::FontRole:
        if (row == m_chosen) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case Qt::BackgroundRole:
        if (isBaseline(row)) return QBrush(QColor(0xf2, 0xf2, 0xf2));
        if (row == m_chosen) return QBrush(QColor(0xe3, 0xf1, 0xfb));
        return {};
    case Qt::ForegroundRole:
        if (column == CorrectColumn && m.correct)
            return QBrush(*m.correct ? QColor(0x00, 0x7a, 0x55) : QColor(0xc0, 0x30, 0x00));
        if (column == FailureColumn) return QBrush(QColor(0xc0, 0x30, 0x00));
        return {};
    default:
        return {};
    }
}

QVariant BenchResultsModel::display(const Measurement &m, int row, int column) const {
    const bool baseline = isBaseline(row);
    switch (column) {
    case ScheduleColumn: {
        // From 1, as the Beam dock's rows: "beam#0" reads "beam #1".
        QString name = baseline ? baselineDisplayName(m)
                                : QString::fromStdString(candidateLabelInWords(m.label));
        // "chosen" in words: ★ is the search's result in the Beam dock and the Timeline.
        QStringList notes;
        if (m.reused) notes << tr("reused");
        if (row == m_chosen) notes << tr("chosen");
        return notes.isEmpty() ? name
                               : name + QStringLiteral(" (") + notes.join(QStringLiteral(", ")) +
                                     QLatin1Char(')');
    }
    case KindColumn:
        return kindOf(m, baseline);
    case PredictedColumn:
        return msNumber(m.predicted);
    case MeasuredColumn:
        return m.measuredMs ? msNumber(m.measuredMs->median) : QString();
    case RegistersColumn:
        return m.registers >= 0 ? QString::number(m.registers) : QString();
    case SpillsColumn:
        return m.spillBytes >= 0 ? QString::number(m.spillBytes) : QString();
    case CorrectColumn:
        if (!m.correct) return QString();
        return *m.correct ? tr("yes") : tr("NO");
    case SearchColumn:
        return baseline ? msNumber(m.searchMs) : QString();
    case FailureColumn:
        // A crashed worker's row leads with the triage verdict; the tooltip has the evidence.
        if (!m.crashVerdict.empty())
            return tr("crash: %1").arg(QString::fromStdString(m.crashVerdict));
        return QString::fromStdString(m.failure);
    default:
        return {};
    }
}

QVariant BenchResultsModel::toolTip(const Measurement &m, int column) const {
    switch (column) {
    case MeasuredColumn: {
        if (!m.measuredMs) return m.failed() ? QVariant() : QVariant(tr("not run on a device"));
        QString tip = tr("median %1 ms, min %2 ms, max %3 ms")
                          .arg(msNumber(m.measuredMs->median), msNumber(m.measuredMs->min),
                               msNumber(m.measuredMs->max));
        if (std::isfinite(m.compileMs)) tip += tr("\nJIT compile %1 ms").arg(msNumber(m.compileMs));
        if (!m.target.empty()) tip += tr("\ntarget %1").arg(QString::fromStdString(m.target));
        return tip;
    }
    case CorrectColumn:
        if (!m.correct) return tr("output not checked");
        return tr("max abs error %1, max rel error %2")
            .arg(std::isfinite(m.maxError) ? QString::number(m.maxError, 'g', 3)
                                           : QStringLiteral("—"),
                 std::isfinite(m.maxRelError) ? QString::number(m.maxRelError, 'g', 3)
                                              : QStringLiteral("—"));
    case RegistersColumn:
    case SpillsColumn: {
        if (m.kernels.empty()) return tr("no ptxas report");
        QStringList lines{tr("ptxas %1:").arg(QString::fromStdString(m.ptxArch))};
        for (const KernelResources &k : m.kernels) {
            lines << tr("%1: %2 registers, spill %3 B stores / %4 B loads")
                         .arg(QString::fromStdString(k.name))
                         .arg(k.registers)
                         .arg(k.spillStoreBytes)
                         .arg(k.spillLoadBytes);
        }
        return lines.join(QLatin1Char('\n'));
    }
    case FailureColumn:
        return m.failed() ? QVariant(QString::fromStdString(m.failure)) : QVariant();
    default:
        return {};
    }
}

QVariant BenchResultsModel::value(const Measurement &m, int column) const {
    switch (column) {
    case PredictedColumn:
        return m.predicted;
    case MeasuredColumn:
        return m.measuredMs ? m.measuredMs->median : Measurement::kUnknown;
    case RegistersColumn:
        return m.registers;
    case SpillsColumn:
        return qlonglong(m.spillBytes);
    case CorrectColumn:
        return m.correct ? QVariant(*m.correct) : QVariant();
    case SearchColumn:
        return m.searchMs;
    default:
        return {};
    }
}

} // namespace beamscope
