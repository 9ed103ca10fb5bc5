// StageBarAxes: the chart and axes of a horizontal bar chart of per-stage predicted times (the
// Cost dock's stacked terms, the Compare dock's paired bars), so both read the same: stage names
// in full on the left, milliseconds on a nice-numbered axis below, the legend under it.
#pragma once

#include <QAbstractBarSeries>
#include <QChart>
#include <QString>
#include <QStringList>

namespace beamscope {

/// A chart for per-stage bars: no animation, legend below, tight margins, square corners.
QChart *newStageBarChart();

/// Adds `series` to `chart` with `stages` (top to bottom as given to the series) on the left and
/// a millisecond axis titled `timeTitle` below.
void attachStageBarAxes(QChart *chart, QAbstractBarSeries *series, const QStringList &stages,
                        const QString &timeTitle);

} // namespace beamscope
