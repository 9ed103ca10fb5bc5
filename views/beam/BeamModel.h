// BeamModel: the k states of the beam after a step — rank, predicted cost (and the penalized cost
// it was ranked by), structural hash, the decision that produced it, and the decisions in which
// it differs from the best state (the lowest predicted cost; the penalized order can rank it
// below others).
#pragma once

#include "search/SearchStep.h"
#include "views/beam/BeamDiff.h"
#include "views/common/TreeModel.h"

#include <vector>

namespace beamscope {

class BeamModel final : public TreeModel {
    Q_OBJECT
public:
    enum Column {
        RankColumn,
        CostColumn,
        RankCostColumn,
        HashColumn,
        DecisionColumn,
        DiffColumn,
        ColumnCount
    };

    explicit BeamModel(QObject *parent = nullptr);

    void setStep(SearchStepPtr step);
    const SearchStepPtr &step() const { return m_step; }
    /// Rows whose differences involve `node` are emphasized (-1: none).
    void setHighlightedFunc(int node);
    /// The beam entry of a row.
    const BeamEntry *entryOfRow(int id) const;
    /// The row of the best state: the lowest predicted cost (cheapestRow); -1 when empty.
    int bestRow() const { return m_bestRow; }
    /// Differences of row `id` from the best state.
    const std::vector<FuncDifference> &differences(int id) const { return m_diffs[size_t(id)]; }
    /// Row `id` holds the search's result (SearchStep::best) or the same schedule, marked ★ in
    /// the rank column.
    bool isResult(int id) const;

protected:
    QVariant cell(int id, int column, int role) const override;
    QString headerToolTip(int section) const override;

private:
    SearchStepPtr m_step;
    std::vector<std::vector<FuncDifference>> m_diffs; ///< by row (= rank)
    std::vector<bool> m_result;                       ///< by row: isResult
    int m_bestRow = -1;
    int m_highlight = -1;
};

} // namespace beamscope
