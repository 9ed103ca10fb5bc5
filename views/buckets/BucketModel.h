// BucketModel: the candidates of one search step grouped as the sampler saw them — a row per
// structural-hash bucket (hash, size, how many were sampled, best cost, how many entered the
// beam) with its members underneath, plus a group of states carried over unchanged. It sorts
// itself (sort()): a QSortFilterProxyModel over tens of thousands of members would sort every
// bucket's children as soon as a view asks whether the bucket has any.
#pragma once

#include "search/SearchStep.h"
#include "views/common/TreeModel.h"

#include <vector>

namespace beamscope {

class BucketModel final : public TreeModel {
    Q_OBJECT
public:
    enum Column {
        DecisionColumn,
        HashColumn,
        SizeColumn,
        SampledColumn,
        CostColumn,
        InBeamColumn,
        ColumnCount
    };
    explicit BucketModel(QObject *parent = nullptr);

    /// Shows `step`'s buckets (nullptr: empty).
    void setStep(SearchStepPtr step);
    const SearchStepPtr &step() const { return m_step; }

    /// The candidate (index into step()->candidates) of a member row, -1 for group rows.
    int candidateOfRow(int id) const;

    /// Orders buckets, and members within each, by `column` (a model reset); the
    /// carried-over group stays last. The step's own order is DecisionColumn ascending.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

protected:
    QVariant cell(int id, int column, int role) const override;
    QString headerToolTip(int section) const override;

private:
    struct Item {
        int bucket = -1;    ///< index into step()->buckets; -1 for the carried-over group
        int candidate = -1; ///< member rows only
    };
    /// A group's figures, computed once per step (buckets hold thousands of members).
    struct GroupSummary {
        int size = 0, sampled = 0, inBeam = 0;
        double best = 0; ///< NaN when no member was costed
    };
    GroupSummary summarize(const std::vector<int> &members) const;
    /// Adds the rows of every group, in the current sort order.
    void addRows();
    /// a < b in the sort column (group rows: bucket indexes; member rows: candidates).
    bool groupLess(int a, int b) const;
    bool memberLess(int a, int b) const;
    QVariant groupCell(const Item &item, int column, int role) const;
    QVariant memberCell(const Item &item, int column, int role) const;

    SearchStepPtr m_step;
    std::vector<Item> m_items;
    std::vector<int> m_carried;            ///< candidates carried over unchanged (not bucketed)
    std::vector<GroupSummary> m_summaries; ///< by bucket; the carried-over group last
    int m_sortColumn = DecisionColumn;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
};

} // namespace beamscope
