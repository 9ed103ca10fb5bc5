// LoopNestModel: LoopNest tree -> rows, and the text and colours of every cell.
#include "views/loopnest/LoopNestModel.h"

#include "schedule/UnrollNote.h"
#include "views/common/Format.h"
#include "views/common/Palette.h"

#include <QBrush>
#include <QFont>
#include <QStringList>

namespace beamscope {

namespace {

MemoryType memoryAt(LoopLevel level) {
    switch (level) {
    case LoopLevel::Root:
        return MemoryType::Global;
    case LoopLevel::Block:
        return MemoryType::Shared;
    case LoopLevel::Thread:
        return MemoryType::Register;
    case LoopLevel::Serial:
        return MemoryType::None;
    }
    return MemoryType::None;
}

QColor memoryColor(MemoryType m) {
    switch (m) {
    case MemoryType::Global:
        return palette::decisionStroke(ComputeKind::Root);
    case MemoryType::Shared:
        return palette::decisionStroke(ComputeKind::Block);
    case MemoryType::Register:
        return palette::decisionStroke(ComputeKind::Thread);
    case MemoryType::None:
        break;
    }
    return Qt::black;
}

} // namespace

LoopNestModel::LoopNestModel(QObject *parent)
    : TreeModel({tr("Loop / Func"), tr("Extents"), tr("Level / memory"), tr("Inlined")}, parent) {}

int LoopNestModel::add(int parentId, Item item) {
    const int id = addRow(parentId);
    m_items.push_back(item);
    return id;
}

void LoopNestModel::addLoop(const LoopNest &loop, int parentId) {
    for (int f : loop.stored)
        add(parentId, {RowKind::Store, f, nullptr, memoryAt(loop.level)});
    const int id = add(parentId, {RowKind::Loop, loop.node, &loop, MemoryType::None});
    for (const LoopNestPtr &child : loop.children)
        addLoop(*child, id);
    if (loop.computesHere) add(id, {RowKind::Compute, loop.node, &loop, MemoryType::None});
}

void LoopNestModel::setState(StatePtr state) {
    beginRebuild();
    m_state = std::move(state);
    m_items.clear();
    if (m_state) {
        for (const LoopNestPtr &kernel : m_state->kernels()) {
            // A kernel is the block loop of one stage of a root Func; the Func lives in global
            // memory, allocated before its first stage's kernel.
            const int id = add(-1, {RowKind::Kernel, kernel->node, kernel.get(), MemoryType::None});
            if (kernel->level == LoopLevel::Root) {
                for (int f : kernel->stored)
                    add(id, {RowKind::Store, f, nullptr, MemoryType::Global});
                for (const LoopNestPtr &child : kernel->children)
                    addLoop(*child, id);
                continue;
            }
            if (kernel->stage == 0)
                add(id, {RowKind::Store, kernel->node, nullptr, MemoryType::Global});
            addLoop(*kernel, id);
        }
    }
    endRebuild();
}

int LoopNestModel::funcOfRow(int id) const {
    return id >= 0 && id < int(m_items.size()) ? m_items[size_t(id)].node : -1;
}

LoopNestModel::RowKind LoopNestModel::kindOfRow(int id) const {
    return m_items[size_t(id)].kind;
}

std::vector<int> LoopNestModel::rowsOfFunc(int node) const {
    std::vector<int> out;
    for (size_t i = 0; i < m_items.size(); ++i) {
        if (m_items[i].node == node) out.push_back(int(i));
    }
    return out;
}

QVariant LoopNestModel::cell(int id, int column, int role) const {
    const Item &item = m_items[size_t(id)];
    const FunctionDAG &dag = m_state->dag();
    const QString func =
        item.node >= 0 ? QString::fromStdString(dag.node(item.node).name) : QString();
    const Stage *stage = item.loop && item.loop->node >= 0
                             ? &dag.node(item.loop->node).stages[size_t(item.loop->stage)]
                             : nullptr;
    if (role == Qt::DisplayRole) {
        switch (item.kind) {
        case RowKind::Kernel:
            if (column == NameColumn) {
                const Node &n = dag.node(item.node);
                if (n.stages.size() == 1) return tr("kernel %1").arg(func);
                return tr("kernel %1")
                    .arg(QString::fromStdString(n.stages[size_t(item.loop->stage)].name));
            }
            if (column == ExtentColumn)
                return tr("%1 blocks").arg(format::count(item.loop->iterations()));
            return {};
        case RowKind::Store:
            if (column == NameColumn) return tr("allocate %1").arg(func);
            if (column == KindColumn) return QString::fromLatin1(memoryTypeName(item.memory));
            return {};
        case RowKind::Loop:
            if (column == NameColumn)
                return tr("for %1").arg(stage ? QString::fromStdString(stage->name) : func);
            if (column == ExtentColumn)
                return stage ? format::extents(*stage, item.loop->extents) : QString();
            if (column == KindColumn) {
                if (item.loop->level == LoopLevel::Serial && stage) {
                    switch (unrolledLoops(*item.loop, *stage)) {
                    case Unrolled::AllLoops:
                        return tr("unrolled");
                    case Unrolled::PureLoops:
                        return tr("pure unrolled");
                    case Unrolled::Nothing:
                        break;
                    }
                }
                return QString::fromLatin1(loopLevelName(item.loop->level));
            }
            return {};
        case RowKind::Compute:
            if (column == NameColumn)
                return tr("compute %1").arg(stage ? QString::fromStdString(stage->name) : func);
            if (column == InlinedColumn && !item.loop->inlined.empty()) {
                QStringList parts;
                for (const InlinedCall &c : item.loop->inlined) {
                    parts << QStringLiteral("%1 ×%2")
                                 .arg(QString::fromStdString(dag.node(c.node).name))
                                 .arg(c.calls);
                }
                return parts.join(QStringLiteral(", "));
            }
            return {};
        }
    }
    if (role == Qt::ForegroundRole && item.kind == RowKind::Store && column == KindColumn) {
        return QBrush(memoryColor(item.memory));
    }
    if (role == Qt::FontRole && (item.kind == RowKind::Kernel || item.kind == RowKind::Compute) &&
        column == NameColumn) {
        QFont f;
        f.setBold(true);
        return f;
    }
    if (role == Qt::ToolTipRole && item.node >= 0) return format::placement(*m_state, item.node);
    return {};
}

QString LoopNestModel::headerToolTip(int section) const {
    switch (section) {
    case ExtentColumn:
        return tr("Iterations of each loop variable at this level");
    case KindColumn:
        return tr("GPU level of a loop (block, thread, serial; unrolled when small; an update's "
                  "pure loops unrolled inside its serial RVar loops), or where a Func's storage "
                  "lives (global, shared, register)");
    case InlinedColumn:
        return tr("Funcs inlined into a stage, with the calls per evaluation");
    default:
        return {};
    }
}

} // namespace beamscope
