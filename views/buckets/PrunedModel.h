// PrunedModel: the candidates a search step dropped, grouped by PruneReason (paper 4.6), each
// with the decision it stood for and the detail of the check that failed.
#pragma once

#include "search/SearchStep.h"
#include "views/common/TreeModel.h"

#include <vector>

namespace beamscope {

class PrunedModel final : public TreeModel {
    Q_OBJECT
public:
    enum Column { DecisionColumn, CountColumn, DetailColumn, ColumnCount };

    explicit PrunedModel(QObject *parent = nullptr);

    void setStep(SearchStepPtr step);
    const SearchStepPtr &step() const { return m_step; }
    /// The pruned entry (index into step()->pruned) of a row, -1 for reason rows.
    int prunedOfRow(int id) const;

protected:
    QVariant cell(int id, int column, int role) const override;

private:
    struct Item {
        int reason = -1;
        int pruned = -1;
        int count = 0; ///< reason rows: members
    };
    SearchStepPtr m_step;
    std::vector<Item> m_items;
};

} // namespace beamscope
