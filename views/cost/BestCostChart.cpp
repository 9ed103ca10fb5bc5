// BestCostChart: buffered line series per pass, the shown-step marker, clicks to steps.
#include "views/cost/BestCostChart.h"

#include "views/common/NiceAxis.h"

#include <QGraphicsLayout>
#include <QLineSeries>
#include <QMouseEvent>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace beamscope {

namespace {
QColor passColor(int pass) {
    static const QColor colors[] = {QColor(0x99, 0x99, 0x99), QColor(0x00, 0x72, 0xb2),
                                    QColor(0xe6, 0x9f, 0x00), QColor(0x00, 0x9e, 0x73),
                                    QColor(0xcc, 0x79, 0xa7), QColor(0xd5, 0x5e, 0x00),
                                    QColor(0x56, 0xb4, 0xe9)};
    return colors[size_t(pass) % std::size(colors)];
}
} // namespace

BestCostChart::BestCostChart(QWidget *parent)
    : QChartView(parent), m_x(new QValueAxis), m_y(new QValueAxis) {
    setRenderHint(QPainter::Antialiasing);
    auto *chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setTitle(tr("Best cost in the beam after each step"));
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setBackgroundRoundness(0);
    m_x->setTitleText(tr("step"));
    m_x->setLabelFormat(QStringLiteral("%d"));
    m_y->setTitleText(tr("ms"));
    m_y->setLabelFormat(QStringLiteral("%.3g"));
    m_x->setTruncateLabels(false);
    m_y->setTruncateLabels(false);
    chart->addAxis(m_x, Qt::AlignBottom);
    chart->addAxis(m_y, Qt::AlignLeft);
    setChart(chart);
    setMinimumHeight(100);
    m_flush.setInterval(100);
    m_flush.setSingleShot(true);
    connect(&m_flush, &QTimer::timeout, this, &BestCostChart::flush);
    clear();
}

int BestCostChart::pointCount() const {
    int n = 0;
    for (const auto &[pass, series] : m_series)
        n += series->count();
    return n;
}

int BestCostChart::stepAt(const QPoint &pos) const {
    const QPointF scene = mapToScene(pos);
    if (m_costs.empty() || !chart()->plotArea().contains(chart()->mapFromScene(scene))) return -1;
    const QPointF value = chart()->mapToValue(chart()->mapFromScene(scene));
    const int k = int(std::lround(value.x())) - 1; // x is the 1-based step
    return std::clamp(k, m_costs.begin()->first, m_costs.rbegin()->first);
}

QPoint BestCostChart::positionOfStep(int k) const {
    const auto it = m_costs.find(k);
    if (it == m_costs.end()) return {-1, -1};
    const QPointF item = chart()->mapToPosition(QPointF(k + 1, it->second));
    return mapFromScene(chart()->mapToScene(item));
}

void BestCostChart::mousePressEvent(QMouseEvent *event) {
    if (event->button() == Qt::LeftButton) {
        const int k = stepAt(event->position().toPoint());
        if (k >= 0) {
            Q_EMIT stepClicked(k);
            event->accept();
            return;
        }
    }
    QChartView::mousePressEvent(event);
}

void BestCostChart::setShownStep(int k) {
    m_shown = k;
    placeMarker();
}

void BestCostChart::placeMarker() {
    const auto it = m_costs.find(m_shown);
    if (it == m_costs.end()) {
        if (m_marker) m_marker->clear();
        return;
    }
    if (!m_marker) {
        m_marker = new QScatterSeries;
        m_marker->setName(tr("shown step"));
        m_marker->setMarkerSize(11);
        m_marker->setColor(QColor(0xd5, 0x5e, 0x00, 0x00));
        m_marker->setBorderColor(QColor(0x20, 0x20, 0x20));
        chart()->addSeries(m_marker);
        m_marker->attachAxis(m_x);
        m_marker->attachAxis(m_y);
    }
    m_marker->replace(QList<QPointF>{QPointF(m_shown + 1, it->second)});
}

QLineSeries *BestCostChart::seriesFor(int pass) {
    auto it = m_series.find(pass);
    if (it != m_series.end()) return it->second;
    auto *series = new QLineSeries;
    series->setName(pass == 0 ? tr("pre-pass") : tr("pass %1").arg(pass));
    QPen pen(passColor(pass), 2);
    series->setPen(pen);
    series->setPointsVisible(true); // until the series gets dense (see flush)
    series->setMarkerSize(4);
    chart()->addSeries(series);
    series->attachAxis(m_x);
    series->attachAxis(m_y);
    m_series[pass] = series;
    return series;
}

void BestCostChart::addPoint(int stepIndex, int pass, double bestCost) {
    if (!std::isfinite(bestCost)) return; // a step whose beam died out has no cost to draw
    m_pending[pass].push_back(QPointF(stepIndex + 1, bestCost));
    m_costs[stepIndex] = bestCost;
    if (!m_flush.isActive()) m_flush.start();
}

void BestCostChart::flush() {
    for (auto &[pass, points] : m_pending) {
        QLineSeries *series = seriesFor(pass);
        series->append(QList<QPointF>(points.begin(), points.end()));
        series->setPointsVisible(series->count() <= 20);
        for (const QPointF &p : points) {
            m_maxX = std::max(m_maxX, p.x());
            m_maxY = m_empty ? p.y() : std::max(m_maxY, p.y());
            m_minY = m_empty ? p.y() : std::min(m_minY, p.y());
            m_empty = false;
        }
    }
    m_pending.clear();
    setNiceRange(m_x, 0, std::max(10.0, m_maxX));
    // A flat line (one step, or no progress) gets a little room so that its ticks differ.
    const double pad = std::max({1e-6, (m_maxY - m_minY) * 0.08, std::abs(m_maxY) * 0.02});
    setNiceRange(m_y, std::max(0.0, m_minY - pad), m_maxY + pad);
    placeMarker();
}

void BestCostChart::clear() {
    m_flush.stop();
    m_pending.clear();
    chart()->removeAllSeries();
    m_series.clear();
    m_costs.clear();
    m_marker = nullptr;
    m_shown = -1;
    m_maxX = 1;
    m_minY = m_maxY = 0;
    m_empty = true;
    m_x->setRange(0, 10);
    m_y->setRange(0, 1);
}

} // namespace beamscope
