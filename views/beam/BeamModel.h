// BeamModel: the k states of the beam after a step — rank, predicted cost (and the penalized cost
// it was ranked by), structural hash, the decision that produced it, and the decisions in which
// it differs from the best state (the lowest predicted cost; the penalized order can rank it
// below others). When the search's result (a complete state from an earlier pass's final beam)
// is not in a complete beam on screen, it is the first row, "★ result", so that the result the
// status bar, Loop nest and Export show is always a row here.
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
    /// The beam entry of a row (the result row: SearchStep::best).
    const BeamEntry *entryOfRow(int id) const;
    /// The beam rank (0-based) of a row; -1 for the result row.
    int rankOfRow(int id) const { return id == m_resultRow ? -1 : id - rowOffset(); }
    /// The row of beam rank `rank`.
    int rowOfRank(int rank) const { return rank + rowOffset(); }
    /// The row of the search's result when it is not in the beam (0), else -1.
    int resultRow() const { return m_resultRow; }
    /// The row of the best state: the lowest predicted cost (cheapestRow); -1 when empty.
    int bestRow() const { return m_bestRow; }
    /// Differences of row `id` from the best state.
    const std::vector<FuncDifference> &differences(int id) const { return m_diffs[size_t(id)]; }
    /// Row `id` holds the search's result (SearchStep::best) or the same schedule, marked ★ in
    /// the rank column (the result row included).
    bool isResult(int id) const;

protected:
    QVariant cell(int id, int column, int role) const override;
    QString headerToolTip(int section) const override;

private:
    int rowOffset() const { return m_resultRow < 0 ? 0 : 1; }

    SearchStepPtr m_step;
    std::vector<std::vector<FuncDifference>> m_diffs; ///< by row
    std::vector<bool> m_result;                       ///< by row: isResult
    int m_resultRow = -1;
    int m_bestRow = -1;
    int m_highlight = -1;
};

} // namespace beamscope
