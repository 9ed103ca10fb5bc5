// Format: number and schedule formatting shared by the views.
#include "views/common/Format.h"

#include "search/SearchReport.h"

#include <QLocale>
#include <QStringList>

#include <cmath>

namespace beamscope::format {

QString ms(double milliseconds) {
    if (std::isnan(milliseconds)) return QStringLiteral("—");
    return QString::number(milliseconds, 'g', 4) + QStringLiteral(" ms");
}

QString count(int64_t n) {
    QLocale locale(QLocale::English);
    return locale.toString(qlonglong(n));
}

QString hash(uint64_t h) {
    return QString::fromStdString(hashToHex(h));
}

QString sizes(const std::vector<int64_t> &sizes) {
    QStringList parts;
    for (int64_t s : sizes)
        parts << QString::number(s);
    return parts.join(QStringLiteral("×"));
}

QString extents(const Stage &stage, const std::vector<int64_t> &extents) {
    QStringList parts;
    for (size_t l = 0; l < extents.size(); ++l) {
        const QString var =
            l < stage.loops.size() ? QString::fromStdString(stage.loops[l].name) : QString();
        parts << QStringLiteral("%1 %2").arg(var).arg(extents[l]);
    }
    return parts.join(QStringLiteral(" × "));
}

QString placement(const ScheduleState &state, int node) {
    const FuncPlacement &p = state.placement(node);
    const FunctionDAG &dag = state.dag();
    const QString host = p.host >= 0 ? QString::fromStdString(dag.node(p.host).name) : QString();
    switch (p.kind) {
    case ComputeKind::Unscheduled:
        return QStringLiteral("unscheduled");
    case ComputeKind::Inline:
        return QStringLiteral("inline");
    case ComputeKind::Root:
        if (!p.tiled || p.tilings.empty()) return QStringLiteral("root (untiled)");
        return QStringLiteral("root · threads %1 · serial %2")
            .arg(sizes(p.tilings[0].threads), sizes(p.tilings[0].serial));
    case ComputeKind::Block:
        if (p.tilings.empty()) return QStringLiteral("block of %1").arg(host);
        return QStringLiteral("block of %1 · serial %2").arg(host, sizes(p.tilings[0].serial));
    case ComputeKind::Thread:
        return QStringLiteral("thread of %1").arg(host);
    }
    return {};
}

} // namespace beamscope::format
