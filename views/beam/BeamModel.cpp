// BeamModel: beam entries and their differences from the best.
#include "views/beam/BeamModel.h"

#include "views/common/Format.h"

#include <QBrush>
#include <QFont>
#include <QStringList>

namespace beamscope {

BeamModel::BeamModel(QObject *parent)
    : TreeModel({tr("Rank"), tr("Cost"), tr("Ranked by"), tr("Hash"), tr("Last decision"),
                 tr("Differs from the best in")},
                parent) {}

void BeamModel::setStep(SearchStepPtr step) {
    beginRebuild();
    m_step = std::move(step);
    m_diffs.clear();
    if (m_step) {
        for (const BeamEntry &e : m_step->beam) {
            addRow();
            m_diffs.push_back(placementDifferences(*e.state, *m_step->beam.front().state));
        }
    }
    endRebuild();
}

void BeamModel::setHighlightedFunc(int node) {
    if (node == m_highlight) return;
    m_highlight = node;
    if (rowCount() > 0) Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

const BeamEntry *BeamModel::entryOfRow(int id) const {
    return m_step && id >= 0 && id < int(m_step->beam.size()) ? &m_step->beam[size_t(id)] : nullptr;
}

QVariant BeamModel::cell(int id, int column, int role) const {
    const BeamEntry &e = m_step->beam[size_t(id)];
    const std::vector<FuncDifference> &diffs = m_diffs[size_t(id)];
    const FunctionDAG &dag = e.state->dag();
    if (role == Qt::DisplayRole) {
        switch (column) {
        case RankColumn:
            return id + 1;
        case CostColumn:
            return format::ms(e.cost.total);
        case RankCostColumn:
            return e.rankCost != e.cost.total ? format::ms(e.rankCost) : QString();
        case HashColumn:
            return format::hash(e.hash);
        case DecisionColumn:
            return QString::fromStdString(e.decision);
        case DiffColumn: {
            if (id == 0) return tr("(best)");
            if (diffs.empty()) return tr("same decisions");
            QStringList parts;
            for (const FuncDifference &d : diffs) {
                parts << QStringLiteral("%1 → %2").arg(
                    QString::fromStdString(dag.node(d.node).name), d.mine);
            }
            return QStringLiteral("%1: %2").arg(diffs.size()).arg(parts.join(QStringLiteral("; ")));
        }
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole && column == DiffColumn && !diffs.empty()) {
        QStringList lines;
        for (const FuncDifference &d : diffs) {
            lines << tr("<b>%1</b>: %2 <i>(best: %3)</i>")
                         .arg(QString::fromStdString(dag.node(d.node).name).toHtmlEscaped(),
                              d.mine.toHtmlEscaped(), d.theirs.toHtmlEscaped());
        }
        return lines.join(QStringLiteral("<br>"));
    }
    if (role == Qt::FontRole) {
        bool emphasize = id == 0;
        for (const FuncDifference &d : diffs)
            emphasize |= d.node == m_highlight;
        if (emphasize) {
            QFont f;
            f.setBold(true);
            return f;
        }
    }
    if (role == Qt::ForegroundRole && column == RankCostColumn)
        return QBrush(QColor(0xb0, 0x40, 0x00));
    if (role == Qt::TextAlignmentRole &&
        (column == RankColumn || column == CostColumn || column == RankCostColumn)) {
        return int(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QString BeamModel::headerToolTip(int section) const {
    switch (section) {
    case RankCostColumn:
        return tr("Cost after the known-bad-structure penalty, when one applied (paper 4.5)");
    case HashColumn:
        return tr("Structural hash at this pass's depth");
    case DiffColumn:
        return tr("Funcs this state places differently from the best state");
    default:
        return {};
    }
}

} // namespace beamscope
