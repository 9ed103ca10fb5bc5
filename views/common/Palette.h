// Palette: the colours Beamscope uses for compute locations (DAG nodes, legend, loop nest) and
// for the six cost terms (charts), chosen from the Okabe-Ito colour-blind-safe palette.
#pragma once

#include "cost/CostModel.h"
#include "schedule/ScheduleState.h"

#include <QColor>
#include <QString>

namespace beamscope::palette {

/// Fill of a Func node placed as `kind`.
QColor decisionFill(ComputeKind kind);
/// Outline (and swatch border) of a Func node placed as `kind`.
QColor decisionStroke(ComputeKind kind);
/// The user-facing name of a compute location ("compute_root", "inline", ...).
QString decisionName(ComputeKind kind);
/// One-line explanation of a compute location, for legends and tooltips.
QString decisionHelp(ComputeKind kind);

/// Colour of cost term `term` in every chart.
QColor costTerm(CostTerm term);

/// Outline of the Func the current step decides.
QColor deciding();
/// Outline of the selected Func.
QColor selection();
/// Badge colours.
QColor frozenBadge();
QColor pinnedBadge();

} // namespace beamscope::palette
