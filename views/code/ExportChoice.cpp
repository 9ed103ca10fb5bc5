// ExportChoice: the three cases (complete, fall back to the search's best, nothing yet) and their
// wording.
#include "views/code/ExportChoice.h"

#include "views/common/Format.h"
#include "views/common/SelectionHub.h"

#include <QCoreApplication>

namespace beamscope {

namespace {

QString tr(const char *text) {
    return QCoreApplication::translate("ExportChoice", text);
}

/// A cost for the caption, never broken between number and unit.
QString costHtml(double ms) {
    return format::ms(ms).replace(QLatin1Char(' '), QStringLiteral("&nbsp;"));
}

} // namespace

std::pair<int, int> placedFuncs(const ScheduleState &state) {
    int placed = 0, total = 0;
    for (const Node &n : state.dag().nodes()) {
        if (n.isInput) continue;
        ++total;
        const FuncPlacement &p = state.placement(n.index);
        if (p.kind != ComputeKind::Unscheduled && (p.kind != ComputeKind::Root || p.tiled))
            ++placed;
    }
    return {placed, total};
}

ExportChoice chooseExport(const SelectionHub &hub) {
    ExportChoice choice;
    const StatePtr &inspected = hub.state();
    const QString label = hub.stateLabel().toHtmlEscaped();
    if (!inspected) {
        choice.caption = tr("<i>No schedule yet</i>");
        choice.message = tr("No schedule yet: load a pipeline and take a step of the search.");
        return choice;
    }
    if (inspected->complete()) {
        choice.state = inspected;
        choice.cost = hub.stateCost();
        choice.caption = tr("Halide C++ of <b>%1</b>").arg(label);
        if (choice.cost) choice.caption += tr(" · predicted %1").arg(costHtml(choice.cost->total));
        return choice;
    }
    const auto [placed, total] = placedFuncs(*inspected);
    const SearchStepPtr &step = hub.step();
    if (step && step->best) {
        choice.state = step->best->state;
        choice.cost = step->best->cost;
        choice.caption = tr("<b>%1</b> is incomplete (%2 of %3 Funcs placed): showing the "
                            "<b>best complete schedule so far</b> · predicted %4")
                             .arg(label)
                             .arg(placed)
                             .arg(total)
                             .arg(costHtml(choice.cost->total));
        return choice;
    }
    choice.caption =
        tr("<b>%1</b> is incomplete (%2 of %3 Funcs placed)").arg(label).arg(placed).arg(total);
    choice.message = tr("No complete schedule yet: %1 places %2 of %3 Funcs.\n\nOnly a "
                        "complete schedule can be exported. The search has its best complete "
                        "schedule once pass 1 has ended: step or run the search further.")
                         .arg(hub.stateLabel())
                         .arg(placed)
                         .arg(total);
    return choice;
}

} // namespace beamscope
