// PredictedMeasuredChart: the series rebuilt from the model, axis ranges, point tooltips.
#include "views/benchmark/PredictedMeasuredChart.h"

#include "bench/CandidateLabel.h"
#include "views/benchmark/BenchResultsModel.h"
#include "views/common/NiceAxis.h"

#include <QCursor>
#include <QGraphicsLayout>
#include <QLineSeries>
#include <QScatterSeries>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <memory>

namespace beamscope {

namespace {

QColor baselineColor(int i) {
    static const QColor colors[] = {QColor(0x55, 0x55, 0x55), QColor(0xd5, 0x5e, 0x00),
                                    QColor(0x00, 0x9e, 0x73), QColor(0xcc, 0x79, 0xa7)};
    return colors[size_t(i) % std::size(colors)];
}

/// [lo, hi] widened by 8% on each side (or by 10% of the value when lo == hi), never below 0.
std::pair<double, double> padded(double lo, double hi) {
    const double pad = hi > lo ? (hi - lo) * 0.08 : std::max(std::abs(hi) * 0.1, 1e-3);
    return {std::max(0.0, lo - pad), hi + pad};
}

} // namespace

PredictedMeasuredChart::PredictedMeasuredChart(BenchResultsModel *model, QWidget *parent)
    : QChartView(parent), m_model(model), m_x(new QValueAxis), m_y(new QValueAxis) {
    setRenderHint(QPainter::Antialiasing);
    auto *chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignRight);
    QFont legendFont = chart->legend()->font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.9);
    chart->legend()->setFont(legendFont);
    // A long baseline name ("anderson2021-paper 1.14 ms") is elided to fit: hover shows it whole.
    chart->legend()->setShowToolTips(true);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setBackgroundRoundness(0);
    m_x->setLabelFormat(QStringLiteral("%.4g")); // a beam's predictions lie close together
    m_y->setLabelFormat(QStringLiteral("%.3g ms"));
    m_x->setTruncateLabels(false);
    m_y->setTruncateLabels(false);
    chart->addAxis(m_x, Qt::AlignBottom);
    chart->addAxis(m_y, Qt::AlignLeft);
    setChart(chart);
    setMinimumSize(180, 100); // a laptop screen: the splitter gives it more when there is room
    connect(model, &QAbstractItemModel::modelReset, this, &PredictedMeasuredChart::rebuild);
    connect(model, &QAbstractItemModel::rowsInserted, this, &PredictedMeasuredChart::rebuild);
    connect(model, &QAbstractItemModel::dataChanged, this, &PredictedMeasuredChart::rebuild);
    setContext({}, {});
}

void PredictedMeasuredChart::setContext(const QString &predictedFor, const QString &measuredOn) {
    m_predictedFor = predictedFor;
    m_measuredOn = measuredOn;
    // Short titles: a long vertical one is cut in a short dock; the y labels carry the unit.
    m_x->setTitleText(tr("predicted (ms)"));
    m_y->setTitleText(tr("measured"));
    chart()->setToolTip(
        measuredOn.isEmpty()
            ? QString()
            : tr("x: predicted for %1, y: median measured on %2").arg(predictedFor, measuredOn));
    rebuild();
}

int PredictedMeasuredChart::candidatePointCount() const {
    int n = 0;
    for (const auto &points : m_labels)
        n += int(points.size());
    return n;
}

QScatterSeries *PredictedMeasuredChart::addScatter(const QString &name, const QColor &color,
                                                   double size, std::vector<Labelled> points) {
    auto *series = new QScatterSeries;
    series->setName(name);
    series->setColor(color);
    series->setBorderColor(color.darker(140));
    series->setMarkerSize(size);
    for (const Labelled &p : points)
        series->append(p.point);
    chart()->addSeries(series);
    series->attachAxis(m_x);
    series->attachAxis(m_y);
    const size_t which = m_labels.size();
    m_labels.push_back(std::move(points));
    connect(series, &QScatterSeries::hovered, this, [this, which](const QPointF &p, bool state) {
        showPointToolTip(p, state, m_labels[which]);
    });
    return series;
}

void PredictedMeasuredChart::showPointToolTip(const QPointF &point, bool state,
                                              const std::vector<Labelled> &points) {
    if (!state) {
        QToolTip::hideText();
        return;
    }
    for (const Labelled &p : points) {
        if (p.point == point) {
            QToolTip::showText(QCursor::pos(), tr("%1\npredicted %2 ms\nmeasured %3 ms")
                                                   .arg(p.label)
                                                   .arg(p.point.x(), 0, 'g', 4)
                                                   .arg(p.point.y(), 0, 'g', 4));
            return;
        }
    }
}

void PredictedMeasuredChart::rebuild() {
    chart()->removeAllSeries();
    m_labels.clear();
    m_baselineLines = 0;
    std::vector<Labelled> ours, wrong, chosen;
    double xLo = INFINITY, xHi = -INFINITY, yLo = INFINITY, yHi = -INFINITY;
    for (int row = 0; row < m_model->candidateCount(); ++row) {
        const Measurement &m = m_model->measurement(row);
        if (!std::isfinite(m.predicted) || !m.measuredMs) continue;
        const Labelled p{QPointF(m.predicted, m.measuredMs->median),
                         QString::fromStdString(candidateLabelInWords(m.label))};
        xLo = std::min(xLo, p.point.x());
        xHi = std::max(xHi, p.point.x());
        yLo = std::min(yLo, p.point.y());
        yHi = std::max(yHi, p.point.y());
        if (row == m_model->chosenRow())
            chosen.push_back(p);
        else if (m.correct && !*m.correct)
            wrong.push_back(p);
        else
            ours.push_back(p);
    }
    std::vector<std::pair<QString, double>> baselines;
    for (int row = m_model->candidateCount(); row < m_model->rowCount(); ++row) {
        const Measurement &m = m_model->measurement(row);
        if (!m.measuredMs) continue;
        baselines.emplace_back(baselineDisplayName(m), m.measuredMs->median);
        yLo = std::min(yLo, m.measuredMs->median);
        yHi = std::max(yHi, m.measuredMs->median);
    }
    if (!std::isfinite(xLo)) { // nothing measured yet
        xLo = 0;
        xHi = 1;
    }
    if (!std::isfinite(yLo)) {
        yLo = 0;
        yHi = 1;
    }
    const auto [x0, x1] = padded(xLo, xHi);
    const auto [y0, y1] = padded(yLo, yHi);
    setNiceRange(m_x, x0, x1, 4); // a beam's predictions lie close together: few x labels
    setNiceRange(m_y, y0, y1);

    if (!ours.empty()) addScatter(tr("candidates"), QColor(0x00, 0x72, 0xb2), 9, std::move(ours));
    if (!wrong.empty())
        addScatter(tr("wrong output"), QColor(0xc0, 0x30, 0x00), 9, std::move(wrong));
    if (!chosen.empty()) {
        QScatterSeries *series =
            addScatter(tr("chosen"), QColor(0xe6, 0x9f, 0x00), 15, std::move(chosen));
        series->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    }
    for (const auto &[name, ms] : baselines) {
        auto *line = new QLineSeries;
        line->setName(tr("%1 %2 ms").arg(name).arg(ms, 0, 'g', 3));
        QPen pen(baselineColor(m_baselineLines), 1.5, Qt::DashLine);
        line->setPen(pen);
        line->append(x0, ms);
        line->append(x1, ms);
        chart()->addSeries(line);
        line->attachAxis(m_x);
        line->attachAxis(m_y);
        ++m_baselineLines;
    }
}

} // namespace beamscope
