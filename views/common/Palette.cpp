// Palette: fixed colours and names of compute locations and cost terms.
#include "views/common/Palette.h"

#include <QCoreApplication>

namespace beamscope::palette {

QColor decisionFill(ComputeKind kind) {
    switch (kind) {
    case ComputeKind::Unscheduled:
        return QColor(0xee, 0xee, 0xee);
    case ComputeKind::Inline:
        return QColor(0xf6, 0xd3, 0xe7);
    case ComputeKind::Root:
        return QColor(0xc4, 0xdd, 0xf5);
    case ComputeKind::Block:
        return QColor(0xc6, 0xec, 0xd9);
    case ComputeKind::Thread:
        return QColor(0xfb, 0xe3, 0xb1);
    }
    return Qt::white;
}

QColor decisionStroke(ComputeKind kind) {
    switch (kind) {
    case ComputeKind::Unscheduled:
        return QColor(0x9e, 0x9e, 0x9e);
    case ComputeKind::Inline:
        return QColor(0xcc, 0x79, 0xa7);
    case ComputeKind::Root:
        return QColor(0x00, 0x72, 0xb2);
    case ComputeKind::Block:
        return QColor(0x00, 0x9e, 0x73);
    case ComputeKind::Thread:
        return QColor(0xe6, 0x9f, 0x00);
    }
    return Qt::black;
}

QString decisionName(ComputeKind kind) {
    switch (kind) {
    case ComputeKind::Unscheduled:
        return QCoreApplication::translate("palette", "unscheduled");
    case ComputeKind::Inline:
        return QCoreApplication::translate("palette", "inline");
    case ComputeKind::Root:
        return QCoreApplication::translate("palette", "root (kernel)");
    case ComputeKind::Block:
        return QCoreApplication::translate("palette", "block (shared)");
    case ComputeKind::Thread:
        return QCoreApplication::translate("palette", "thread (registers)");
    }
    return {};
}

QString decisionHelp(ComputeKind kind) {
    switch (kind) {
    case ComputeKind::Unscheduled:
        return QCoreApplication::translate("palette", "not decided yet");
    case ComputeKind::Inline:
        return QCoreApplication::translate("palette", "inlined into its consumers");
    case ComputeKind::Root:
        return QCoreApplication::translate(
            "palette", "compute_root: its own GPU kernel, stored in global memory");
    case ComputeKind::Block:
        return QCoreApplication::translate(
            "palette", "computed at a consumer's block loop, stored in shared memory");
    case ComputeKind::Thread:
        return QCoreApplication::translate(
            "palette", "computed at a consumer's thread loop, stored in registers");
    }
    return {};
}

QColor costTerm(CostTerm term) {
    switch (term) {
    case CostTerm::Compute:
        return QColor(0x00, 0x72, 0xb2);
    case CostTerm::Load:
        return QColor(0xe6, 0x9f, 0x00);
    case CostTerm::Store:
        return QColor(0x00, 0x9e, 0x73);
    case CostTerm::Parallelism:
        return QColor(0xcc, 0x79, 0xa7);
    case CostTerm::WorkingSet:
        return QColor(0x56, 0xb4, 0xe9);
    case CostTerm::Malloc:
        return QColor(0xd5, 0x5e, 0x00);
    case CostTerm::Count:
        break;
    }
    return Qt::gray;
}

QColor deciding() {
    return QColor(0xd5, 0x5e, 0x00);
}
QColor selection() {
    return QColor(0x1f, 0x3f, 0x99);
}
QColor frozenBadge() {
    return QColor(0x3d, 0x8f, 0xc6);
}
QColor pinnedBadge() {
    return QColor(0x5a, 0x3e, 0x8c);
}

} // namespace beamscope::palette
