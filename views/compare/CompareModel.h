// CompareModel: two schedule states side by side, aligned per Func. A top-level row per Func (in
// search order: outputs first) with its placement in A and in B, its predicted cost in each (the
// sum over its stages) and the difference; Funcs placed differently are emphasized. Under a Func
// that either side computes, a row per stage with its tiling (blocks, threads, serial) and cost
// in each; a cost cell's tooltip splits it by term. Funcs are aligned even where a side leaves one
// unscheduled or inlined.
#pragma once

#include "views/common/TreeModel.h"
#include "views/compare/CompareSide.h"

#include <vector>

namespace beamscope {

class CompareModel final : public TreeModel {
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        AColumn,
        BColumn,
        ACostColumn,
        BCostColumn,
        DeltaColumn,
        ColumnCount
    };

    explicit CompareModel(QObject *parent = nullptr);

    /// Sets side `which` (0: A, 1: B) and rebuilds.
    void setSide(int which, CompareSide side);
    const CompareSide &side(int which) const { return which == 0 ? m_a : m_b; }
    /// Both sides set, on the same pipeline.
    bool comparable() const;

    /// Funcs placed differently by the two sides (search order).
    const std::vector<int> &differing() const { return m_differing; }
    bool differs(int node) const;
    /// The Func of a row (-1 for none) and the stage of a stage row (-1 for a Func row).
    int funcOfRow(int id) const;
    int stageOfRow(int id) const;
    /// The row id (TreeModel::indexOfRow) of `node`'s Func row (-1 when not shown).
    int rowOfFunc(int node) const;
    /// Predicted cost of Func `node`'s stages (`stage` -1: all of them) on side `which`; NaN
    /// when that side's cost is not known.
    double cost(int which, int node, int stage = -1) const;

protected:
    QVariant cell(int id, int column, int role) const override;
    QString headerToolTip(int section) const override;

private:
    struct Item {
        int node = -1;
        int stage = -1;
    };
    void rebuild();
    QString stageTiling(const CompareSide &side, int node, int stage) const;
    QString termsTooltip(int node, int stage) const;

    CompareSide m_a, m_b;
    std::vector<Item> m_items; ///< by row id
    std::vector<int> m_differing;
    std::vector<int> m_funcRow; ///< by node
};

} // namespace beamscope
