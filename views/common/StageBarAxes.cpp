// StageBarAxes: stage names left, milliseconds below (see the header).
#include "views/common/StageBarAxes.h"

#include <QBarCategoryAxis>
#include <QGraphicsLayout>
#include <QLegend>
#include <QValueAxis>

namespace beamscope {

QChart *newStageBarChart() {
    auto *chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setBackgroundRoundness(0);
    return chart;
}

void attachStageBarAxes(QChart *chart, QAbstractBarSeries *series, const QStringList &stages,
                        const QString &timeTitle) {
    chart->addSeries(series);
    auto *y = new QBarCategoryAxis;
    y->append(stages);
    y->setTruncateLabels(false);
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(y);
    auto *x = new QValueAxis;
    x->setTitleText(timeTitle);
    x->setLabelFormat(QStringLiteral("%.3g"));
    x->setTickCount(5);
    chart->addAxis(x, Qt::AlignBottom);
    series->attachAxis(x);
    x->applyNiceNumbers();
}

} // namespace beamscope
