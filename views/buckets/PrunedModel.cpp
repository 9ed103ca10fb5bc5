// PrunedModel: reason groups and pruned candidates.
#include "views/buckets/PrunedModel.h"

#include <QFont>

namespace beamscope {

PrunedModel::PrunedModel(QObject *parent)
    : TreeModel({tr("Reason / decision"), tr("Count"), tr("Detail")}, parent) {}

void PrunedModel::setStep(SearchStepPtr step) {
    beginRebuild();
    m_step = std::move(step);
    m_items.clear();
    if (m_step) {
        for (size_t r = 0; r < kPruneReasons; ++r) {
            int group = -1;
            for (size_t p = 0; p < m_step->pruned.size(); ++p) {
                if (size_t(m_step->pruned[p].reason) != r) continue;
                if (group < 0) {
                    group = addRow();
                    m_items.push_back({int(r), -1, 0});
                }
                ++m_items[size_t(group)].count;
                addRow(group);
                m_items.push_back({int(r), int(p), 0});
            }
        }
    }
    endRebuild();
}

int PrunedModel::prunedOfRow(int id) const {
    return id >= 0 && id < int(m_items.size()) ? m_items[size_t(id)].pruned : -1;
}

QVariant PrunedModel::cell(int id, int column, int role) const {
    const Item &item = m_items[size_t(id)];
    if (item.pruned < 0) {
        if (role == Qt::DisplayRole && column == DecisionColumn) {
            return QString::fromLatin1(pruneReasonName(PruneReason(item.reason)))
                .replace(QLatin1Char('_'), QLatin1Char(' '));
        }
        if (role == Qt::DisplayRole && column == CountColumn) return item.count;
        if (role == Qt::FontRole) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    }
    const PrunedCandidate &p = m_step->pruned[size_t(item.pruned)];
    if (role == Qt::DisplayRole) {
        if (column == DecisionColumn) return QString::fromStdString(p.label);
        if (column == DetailColumn) return QString::fromStdString(p.detail);
    }
    if (role == Qt::ToolTipRole) return QString::fromStdString(p.detail);
    return {};
}

} // namespace beamscope
