// LoopNestModel: the loop nest of one schedule state as a tree — a row per kernel, per loop
// (extents and GPU level: block, thread, serial or unrolled), per Func stored at a level (with
// its memory: global, shared, register) and per stage computed (with the Funcs inlined into it).
#pragma once

#include "schedule/ScheduleState.h"
#include "views/common/TreeModel.h"

#include <vector>

namespace beamscope {

class LoopNestModel final : public TreeModel {
    Q_OBJECT
public:
    enum Column { NameColumn, ExtentColumn, KindColumn, InlinedColumn, ColumnCount };
    /// What a row stands for.
    enum class RowKind { Kernel, Loop, Store, Compute };

    explicit LoopNestModel(QObject *parent = nullptr);

    /// Shows `state`'s kernels (nullptr: empty).
    void setState(StatePtr state);
    const StatePtr &state() const { return m_state; }

    /// The Func a row is about (-1 for none).
    int funcOfRow(int id) const;
    RowKind kindOfRow(int id) const;
    /// Rows about Func `node`, in tree order.
    std::vector<int> rowsOfFunc(int node) const;

protected:
    QVariant cell(int id, int column, int role) const override;
    QString headerToolTip(int section) const override;

private:
    struct Item {
        RowKind kind = RowKind::Loop;
        int node = -1;
        const LoopNest *loop = nullptr; ///< Kernel and Loop rows
        MemoryType memory = MemoryType::None;
    };
    void addLoop(const LoopNest &loop, int parentId);
    int add(int parentId, Item item);

    StatePtr m_state;
    std::vector<Item> m_items; ///< by row id
};

} // namespace beamscope
