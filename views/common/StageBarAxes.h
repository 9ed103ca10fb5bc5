// StageBarAxes: the axes of a horizontal bar chart of per-stage predicted times (the Cost dock's
// stacked terms, the Compare dock's paired bars), so both read the same: stage names in full on
// the left, milliseconds on a nice-numbered axis below.
#pragma once

#include <QAbstractBarSeries>
#include <QChart>
#include <QString>
#include <QStringList>

namespace beamscope {

/// Adds `series` to `chart` with `stages` (top to bottom as given to the series) on the left and
/// a millisecond axis titled `timeTitle` below.
void attachStageBarAxes(QChart *chart, QAbstractBarSeries *series, const QStringList &stages,
                        const QString &timeTitle);

} // namespace beamscope
