// BucketModel: buckets and members of a step, with their cells.
#include "views/buckets/BucketModel.h"

#include "views/common/Format.h"

#include <QBrush>
#include <QFont>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace beamscope {

namespace {
const QString kCheck = QStringLiteral("✓");
} // namespace

BucketModel::BucketModel(QObject *parent)
    : TreeModel({tr("Bucket / decision"), tr("Hash"), tr("Size"), tr("Sampled"), tr("Cost"),
                 tr("In beam")},
                parent) {}

void BucketModel::setStep(SearchStepPtr step) {
    beginRebuild();
    m_step = std::move(step);
    m_items.clear();
    m_carried.clear();
    m_summaries.clear();
    if (m_step) {
        std::vector<bool> bucketed(m_step->candidates.size(), false);
        for (const Bucket &b : m_step->buckets) {
            for (int m : b.members)
                bucketed[size_t(m)] = true;
            m_summaries.push_back(summarize(b.members));
        }
        for (size_t c = 0; c < bucketed.size(); ++c) {
            if (!bucketed[c]) m_carried.push_back(int(c));
        }
        m_summaries.push_back(summarize(m_carried));
        addRows();
    }
    endRebuild();
}

void BucketModel::sort(int column, Qt::SortOrder order) {
    if (column < 0 || column >= ColumnCount) column = DecisionColumn;
    if (column == m_sortColumn && order == m_sortOrder) return;
    m_sortColumn = column;
    m_sortOrder = order;
    beginRebuild();
    m_items.clear();
    if (m_step) addRows();
    endRebuild();
}

void BucketModel::addRows() {
    const bool natural = m_sortColumn == DecisionColumn && m_sortOrder == Qt::AscendingOrder;
    auto ordered = [&](std::vector<int> ids, bool groups) {
        if (!natural) {
            const bool ascending = m_sortOrder == Qt::AscendingOrder;
            std::stable_sort(ids.begin(), ids.end(), [&](int a, int b) {
                if (!ascending) std::swap(a, b);
                return groups ? groupLess(a, b) : memberLess(a, b);
            });
        }
        return ids;
    };
    std::vector<int> buckets(m_step->buckets.size());
    for (size_t b = 0; b < buckets.size(); ++b)
        buckets[b] = int(b);
    for (int b : ordered(std::move(buckets), true)) {
        const int id = addRow();
        m_items.push_back({b, -1});
        for (int m : ordered(m_step->buckets[size_t(b)].members, false)) {
            addRow(id);
            m_items.push_back({b, m});
        }
    }
    if (!m_carried.empty()) {
        const int id = addRow();
        m_items.push_back({-1, -1});
        for (int c : ordered(m_carried, false)) {
            addRow(id);
            m_items.push_back({-1, c});
        }
    }
}

namespace {
/// Costs sort with the uncosted (NaN) last.
double costKey(double cost) {
    return std::isnan(cost) ? std::numeric_limits<double>::infinity() : cost;
}
} // namespace

bool BucketModel::groupLess(int a, int b) const {
    const GroupSummary &x = m_summaries[size_t(a)], &y = m_summaries[size_t(b)];
    switch (m_sortColumn) {
    case HashColumn:
        return m_step->buckets[size_t(a)].hash < m_step->buckets[size_t(b)].hash;
    case SizeColumn:
        return x.size < y.size;
    case SampledColumn:
        return x.sampled < y.sampled;
    case CostColumn:
        return costKey(x.best) < costKey(y.best);
    case InBeamColumn:
        return x.inBeam < y.inBeam;
    default:
        return a < b;
    }
}

bool BucketModel::memberLess(int a, int b) const {
    const StepCandidate &x = m_step->candidates[size_t(a)], &y = m_step->candidates[size_t(b)];
    switch (m_sortColumn) {
    case HashColumn:
        return x.hash < y.hash;
    case SampledColumn:
        return x.sampled < y.sampled;
    case CostColumn:
        return costKey(x.cost) < costKey(y.cost);
    case InBeamColumn:
        return x.inBeam < y.inBeam;
    default:
        return a < b;
    }
}

int BucketModel::candidateOfRow(int id) const {
    return id >= 0 && id < int(m_items.size()) ? m_items[size_t(id)].candidate : -1;
}

QVariant BucketModel::cell(int id, int column, int role) const {
    const Item &item = m_items[size_t(id)];
    return item.candidate < 0 ? groupCell(item, column, role) : memberCell(item, column, role);
}

BucketModel::GroupSummary BucketModel::summarize(const std::vector<int> &members) const {
    GroupSummary g;
    g.size = int(members.size());
    g.best = std::numeric_limits<double>::quiet_NaN();
    for (int m : members) {
        const StepCandidate &c = m_step->candidates[size_t(m)];
        g.inBeam += c.inBeam;
        g.sampled += c.sampled;
        if (!std::isnan(c.cost) && (std::isnan(g.best) || c.cost < g.best)) g.best = c.cost;
    }
    return g;
}

QVariant BucketModel::groupCell(const Item &item, int column, int role) const {
    const GroupSummary &g =
        item.bucket >= 0 ? m_summaries[size_t(item.bucket)] : m_summaries.back();
    const int size = g.size, inBeam = g.inBeam, sampled = g.sampled;
    const double best = g.best;
    if (role == Qt::DisplayRole) {
        switch (column) {
        case DecisionColumn:
            // Beam states numbered as the Beam dock ranks them (from 1).
            return item.bucket >= 0 ? tr("bucket %1 of beam #%2")
                                          .arg(item.bucket + 1)
                                          .arg(m_step->buckets[size_t(item.bucket)].parent + 1)
                                    : tr("carried over (already decided)");
        case HashColumn:
            return item.bucket >= 0 ? format::hash(m_step->buckets[size_t(item.bucket)].hash)
                                    : QString();
        case SizeColumn:
            return size;
        case SampledColumn:
            return item.bucket >= 0 ? QVariant(sampled) : QVariant();
        case CostColumn:
            return format::ms(best);
        case InBeamColumn:
            return inBeam ? QVariant(inBeam) : QVariant();
        default:
            return {};
        }
    }
    if (role == Qt::FontRole && inBeam > 0) {
        QFont f;
        f.setBold(true);
        return f;
    }
    if (role == Qt::TextAlignmentRole && column >= SizeColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant BucketModel::memberCell(const Item &item, int column, int role) const {
    const StepCandidate &c = m_step->candidates[size_t(item.candidate)];
    if (role == Qt::DisplayRole) {
        switch (column) {
        case DecisionColumn:
            return tr("#%1 ← beam #%2: %3")
                .arg(item.candidate + 1)
                .arg(c.parent + 1)
                .arg(QString::fromStdString(c.label));
        case HashColumn:
            return format::hash(c.hash);
        case SampledColumn:
            return c.sampled ? kCheck : QString();
        case CostColumn:
            return format::ms(c.cost) + (c.penalized ? tr(" (penalized)") : QString());
        case InBeamColumn:
            return c.inBeam ? kCheck : QString();
        default:
            return {};
        }
    }
    if (role == Qt::ForegroundRole && !c.sampled && item.bucket >= 0)
        return QBrush(QColor(0x80, 0x80, 0x80));
    if (role == Qt::FontRole && c.inBeam) {
        QFont f;
        f.setBold(true);
        return f;
    }
    if (role == Qt::ToolTipRole && c.penalized) {
        return tr("Ranked with a penalty when the beam was chosen: states with its hash were taken "
                  "before it in this step, or no earlier pass kept its coarser structure");
    }
    if (role == Qt::TextAlignmentRole && column >= SizeColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QString BucketModel::headerToolTip(int section) const {
    switch (section) {
    case HashColumn:
        return tr(
            "Structural hash of the loop nest at this pass's depth (pass - 1; in the pre-pass "
            "only the decision count): a parent's children alike share a bucket");
    case SizeColumn:
        return tr("Candidates in the bucket");
    case SampledColumn:
        return tr("Representatives drawn and costed: floor(log2(size)), at least 1");
    case CostColumn:
        return tr("Predicted run time (best of the bucket's sampled members)");
    case InBeamColumn:
        return tr("Candidates that entered the beam");
    default:
        return {};
    }
}

} // namespace beamscope
