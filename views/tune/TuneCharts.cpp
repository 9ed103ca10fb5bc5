// TuneCharts: chart set-up, and the series rebuilt whenever the rounds change.
#include "views/tune/TuneCharts.h"

#include "views/common/NiceAxis.h"
#include "views/tune/TuneRoundsModel.h"

#include <QChart>
#include <QChartView>
#include <QGraphicsLayout>
#include <QHBoxLayout>
#include <QLegend>
#include <QLineSeries>
#include <QResizeEvent>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace beamscope {

namespace {

/// One colour per round, Okabe-Ito, cycling.
QColor roundColor(int round) {
    static const QColor colors[] = {QColor(0x00, 0x72, 0xb2), QColor(0xe6, 0x9f, 0x00),
                                    QColor(0x00, 0x9e, 0x73), QColor(0xcc, 0x79, 0xa7),
                                    QColor(0xd5, 0x5e, 0x00), QColor(0x56, 0xb4, 0xe9),
                                    QColor(0x55, 0x55, 0x55)};
    return colors[size_t(round) % std::size(colors)];
}

QChartView *makeChart(const QString &title, QValueAxis *x, QValueAxis *y) {
    auto *chart = new QChart;
    chart->setTitle(title);
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setBackgroundRoundness(0);
    chart->legend()->setAlignment(Qt::AlignBottom);
    QFont small = chart->legend()->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    chart->legend()->setFont(small);
    chart->legend()->setShowToolTips(true); // a narrow chart elides "round 1 (τ 0.53)"
    x->setTruncateLabels(false);
    y->setTruncateLabels(false);
    y->setLabelFormat(QStringLiteral("%.3g"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    auto *view = new QChartView(chart);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(150, 100);
    return view;
}

/// [lo, hi] widened by 8% on each side, and by at least 5% of the value (two rounds' bests
/// 0.28612 and 0.28608 ms get ticks that read apart, not "0.286" twice), never below 0, and
/// rounded out to round ticks (0.3, 0.4, 0.5 rather than 0.274, 0.328, 0.381).
void setPaddedRange(QValueAxis *axis, double lo, double hi) {
    if (!(lo <= hi)) {
        axis->setRange(0, 1);
        return;
    }
    const double pad = std::max({(hi - lo) * 0.08, std::abs(hi) * 0.05, 1e-3});
    setNiceRange(axis, std::max(0.0, lo - pad), hi + pad, 4);
}

} // namespace

TuneCharts::TuneCharts(TuneRoundsModel *model, QWidget *parent)
    : QWidget(parent), m_model(model), m_bestX(new QValueAxis), m_bestY(new QValueAxis),
      m_scatterX(new QValueAxis), m_scatterY(new QValueAxis) {
    // Units in the titles, and no title on the round axis (its ticks are the rounds): a
    // laptop's short dock keeps the height for the plots.
    m_best = makeChart(tr("Best measured per round (ms)"), m_bestX, m_bestY);
    // Its two entries side by side above the plot, where they fit a narrow chart whole.
    m_best->chart()->legend()->setAlignment(Qt::AlignTop);
    // Measured up, predicted across: said in the title, as a vertical axis title is cut once
    // the summary line takes its rows (1280x720 after a run).
    m_scatter = makeChart(tr("Measured vs predicted (ms)"), m_scatterX, m_scatterY);
    m_scatter->chart()->setToolTip(
        tr("Each round's rows: the model's prediction against the "
           "fastest of its measured runs; τ is Kendall's rank agreement of the "
           "model that chose the round, before training on it"));
    m_bestX->setLabelFormat(QStringLiteral("%d"));
    m_scatterX->setTitleText(tr("predicted"));
    m_scatterX->setLabelFormat(QStringLiteral("%.2g"));
    m_scatterX->setTickCount(3);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_best, 2);
    layout->addWidget(m_scatter, 3);
    connect(model, &QAbstractItemModel::modelReset, this, &TuneCharts::rebuild);
    connect(model, &QAbstractItemModel::rowsInserted, this, &TuneCharts::rebuild);
    connect(model, &QAbstractItemModel::dataChanged, this, &TuneCharts::rebuild);
    rebuild();
}

void TuneCharts::resizeEvent(QResizeEvent *event) {
    QWidget::resizeEvent(event);
    const Qt::Alignment where = height() < 260 ? Qt::AlignRight : Qt::AlignBottom;
    m_scatter->chart()->legend()->setAlignment(where);
}

void TuneCharts::rebuild() {
    rebuildBest();
    rebuildScatter();
}

void TuneCharts::rebuildBest() {
    QChart *chart = m_best->chart();
    chart->removeAllSeries();
    auto *line = new QLineSeries;
    line->setName(tr("best so far"));
    line->setColor(roundColor(0));
    line->setPointsVisible(true);
    auto *points = new QScatterSeries;
    points->setName(tr("round best"));
    points->setColor(roundColor(1));
    points->setMarkerSize(8);
    double lo = INFINITY, hi = -INFINITY;
    int rounds = 0;
    for (const TuneRound &r : m_model->rounds()) {
        const double x = r.round + 1;
        rounds = std::max(rounds, r.round + 1);
        if (std::isfinite(r.bestMs)) {
            line->append(x, r.bestMs);
            lo = std::min(lo, r.bestMs);
            hi = std::max(hi, r.bestMs);
        }
        if (std::isfinite(r.roundBestMs)) {
            points->append(x, r.roundBestMs);
            lo = std::min(lo, r.roundBestMs);
            hi = std::max(hi, r.roundBestMs);
        }
    }
    m_bestPoints = int(line->count());
    for (QAbstractSeries *s : std::initializer_list<QAbstractSeries *>{line, points}) {
        chart->addSeries(s);
        s->attachAxis(m_bestX);
        s->attachAxis(m_bestY);
    }
    m_bestX->setRange(0.5, std::max(1, rounds) + 0.5);
    m_bestX->setTickCount(std::clamp(rounds, 1, 10) + 1);
    m_bestX->setTickType(QValueAxis::TicksDynamic);
    m_bestX->setTickAnchor(1);
    m_bestX->setTickInterval(std::max(1, (rounds + 9) / 10));
    setPaddedRange(m_bestY, lo, hi);
}

void TuneCharts::rebuildScatter() {
    QChart *chart = m_scatter->chart();
    chart->removeAllSeries();
    m_scatterNames.clear();
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    for (const TuneRound &r : m_model->rounds()) {
        auto *series = new QScatterSeries;
        const QString tau =
            std::isfinite(r.tau) ? QString::number(r.tau, 'f', 2) : QStringLiteral("-");
        series->setName(tr("round %1 (τ %2)").arg(r.round + 1).arg(tau));
        series->setColor(roundColor(r.round));
        series->setBorderColor(roundColor(r.round).darker(140));
        series->setMarkerSize(7);
        for (const auto &[predicted, measured] : r.predictedVsMeasured) {
            if (!std::isfinite(predicted) || !std::isfinite(measured)) continue;
            series->append(predicted, measured);
            xlo = std::min(xlo, predicted);
            xhi = std::max(xhi, predicted);
            ylo = std::min(ylo, measured);
            yhi = std::max(yhi, measured);
        }
        m_scatterNames << series->name();
        chart->addSeries(series);
        series->attachAxis(m_scatterX);
        series->attachAxis(m_scatterY);
    }
    setPaddedRange(m_scatterX, xlo, xhi);
    setPaddedRange(m_scatterY, ylo, yhi);
}

} // namespace beamscope
