// BeamModel: beam entries and their differences from the best (the cheapest entry).
#include "views/beam/BeamModel.h"

#include "views/common/Format.h"

#include <QBrush>
#include <QFont>
#include <QStringList>

#include <algorithm>

namespace beamscope {

BeamModel::BeamModel(QObject *parent)
    : TreeModel({tr("Rank"), tr("Cost"), tr("Ranked by"), tr("Hash"), tr("Last decision"),
                 tr("Differs from the best in")},
                parent) {}

void BeamModel::setStep(SearchStepPtr step) {
    beginRebuild();
    m_step = std::move(step);
    m_diffs.clear();
    m_result.clear();
    m_resultRow = -1;
    m_bestRow = -1;
    if (m_step && !m_step->beam.empty()) {
        const BeamEntry *best = m_step->best ? &*m_step->best : nullptr;
        // The result itself, or the same schedule reached again in a later pass.
        auto sameAsResult = [best](const BeamEntry &e) {
            return best &&
                   (e.state == best->state ||
                    (e.state->complete() && placementDifferences(*e.state, *best->state).empty()));
        };
        std::vector<bool> inBeam;
        for (const BeamEntry &e : m_step->beam)
            inBeam.push_back(sameAsResult(e));
        // A complete beam (a pass's end) that lost the result: it heads the table, since it is
        // what the search returns, exports and benchmarks first.
        const bool beamComplete = m_step->passFinished || m_step->finished;
        if (best && beamComplete && std::find(inBeam.begin(), inBeam.end(), true) == inBeam.end())
            m_resultRow = 0;
        // The best is the lowest predicted cost, which the known-bad penalty can rank below
        // others (4.5), as the Timeline's Best and the search's result take it.
        m_bestRow = rowOfRank(cheapestRow(m_step->beam));
        const ScheduleState &bestState = *entryOfRow(m_bestRow)->state;
        if (m_resultRow >= 0) {
            addRow();
            m_diffs.push_back(placementDifferences(*best->state, bestState));
            m_result.push_back(true);
        }
        for (size_t rank = 0; rank < m_step->beam.size(); ++rank) {
            addRow();
            m_diffs.push_back(placementDifferences(*m_step->beam[rank].state, bestState));
            m_result.push_back(inBeam[rank]);
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
    if (!m_step || id < 0) return nullptr;
    if (id == m_resultRow) return &*m_step->best;
    const int rank = rankOfRow(id);
    return rank < int(m_step->beam.size()) ? &m_step->beam[size_t(rank)] : nullptr;
}

QVariant BeamModel::cell(int id, int column, int role) const {
    const BeamEntry &e = *entryOfRow(id);
    const std::vector<FuncDifference> &diffs = m_diffs[size_t(id)];
    const FunctionDAG &dag = e.state->dag();
    if (role == Qt::DisplayRole) {
        switch (column) {
        case RankColumn:
            if (id == m_resultRow) return tr("result ★");
            return isResult(id) ? QStringLiteral("%1 ★").arg(rankOfRow(id) + 1)
                                : QString::number(rankOfRow(id) + 1);
        case CostColumn:
            return format::ms(e.cost.total);
        case RankCostColumn:
            return e.rankCost != e.cost.total ? format::ms(e.rankCost) : QString();
        case HashColumn:
            return format::hash(e.hash);
        case DecisionColumn:
            if (id == m_resultRow) return tr("from an earlier pass");
            return QString::fromStdString(e.decision);
        case DiffColumn: {
            if (id == m_bestRow) return tr("(best of the beam)");
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
    if (role == Qt::ToolTipRole && id == m_resultRow) {
        return tr("The search's result so far: the complete state with the lowest predicted "
                  "cost in the final beams, found in an earlier pass and not in this beam. "
                  "The status bar, Loop nest, Export and Benchmark take this one.");
    }
    if (role == Qt::ToolTipRole && column == RankColumn && isResult(id)) {
        return tr("The search's result so far (this schedule): the complete state with the "
                  "lowest predicted cost in the final beams (the penalties of 4.5 only order "
                  "the beam)");
    }
    if (role == Qt::ToolTipRole && column == RankColumn && id == m_bestRow && rankOfRow(id) > 0) {
        return tr("The best of the beam: the lowest predicted cost, ranked %1 after the "
                  "known-bad-structure penalty (4.5)")
            .arg(rankOfRow(id) + 1);
    }
    if (role == Qt::FontRole) {
        bool emphasize = id == m_bestRow || isResult(id);
        for (const FuncDifference &d : diffs)
            emphasize |= d.node == m_highlight;
        if (emphasize) {
            QFont f;
            f.setBold(true);
            return f;
        }
    }
    if (role == Qt::BackgroundRole && id == m_resultRow) return QBrush(QColor(0xff, 0xf4, 0xd6));
    if (role == Qt::ForegroundRole && column == RankCostColumn)
        return QBrush(QColor(0xb0, 0x40, 0x00));
    if (role == Qt::TextAlignmentRole &&
        (column == RankColumn || column == CostColumn || column == RankCostColumn)) {
        return int(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

bool BeamModel::isResult(int id) const {
    // m_result is by row, the result row included.
    return id >= 0 && id < int(m_result.size()) && m_result[size_t(id)];
}

QString BeamModel::headerToolTip(int section) const {
    switch (section) {
    case RankColumn:
        return tr("Order of the beam by the cost it was ranked by; ★ marks the search's result");
    case RankCostColumn:
        return tr("Cost after the known-bad-structure penalty, when one applied (paper 4.5)");
    case HashColumn:
        return tr("Structural hash at this pass's depth");
    case DiffColumn:
        return tr("Funcs this state places differently from the best state (the lowest "
                  "predicted cost in the beam)");
    default:
        return {};
    }
}

} // namespace beamscope
