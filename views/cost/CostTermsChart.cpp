// CostTermsChart: StateCost -> stacked bar series, one bar set per term of the model in use.
#include "views/cost/CostTermsChart.h"

#include "views/common/Format.h"
#include "views/common/Palette.h"
#include "views/common/SelectionHub.h"
#include "views/common/StageBarAxes.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QHorizontalStackedBarSeries>
#include <QLegendMarker>

#include <algorithm>

namespace beamscope {

namespace {
/// Term t's colour: the palette's for the first six, then two more (PolyMage has seven terms).
QColor termColor(size_t t) {
    if (t < kCostTerms) return palette::costTerm(CostTerm(t));
    static const QColor extra[] = {QColor(0x7f, 0x7f, 0x7f), QColor(0x33, 0x22, 0x88)};
    return extra[(t - kCostTerms) % 2];
}
} // namespace

CostTermsChart::CostTermsChart(SelectionHub *hub, QWidget *parent)
    : QChartView(parent), m_hub(hub) {
    setRenderHint(QPainter::Antialiasing);
    setChart(newStageBarChart());
    setMinimumHeight(120);
    m_rebuildTimer.setSingleShot(true);
    m_rebuildTimer.setInterval(0);
    connect(&m_rebuildTimer, &QTimer::timeout, this, &CostTermsChart::rebuild);
    connect(hub, &SelectionHub::stateChanged, this, &CostTermsChart::scheduleRebuild);
    connect(hub, &SelectionHub::funcSelected, this, &CostTermsChart::scheduleRebuild);
    rebuild();
}

void CostTermsChart::scheduleRebuild() {
    if (!m_rebuildTimer.isActive()) m_rebuildTimer.start();
}

QStringList CostTermsChart::categories() const {
    const auto axes = chart()->axes(Qt::Vertical);
    if (axes.isEmpty()) return {};
    QStringList c = static_cast<QBarCategoryAxis *>(axes.front())->categories();
    std::reverse(c.begin(), c.end());
    return c;
}

int CostTermsChart::stagesThatFit() const {
    if (m_maxStages > 0) return m_maxStages;
    // Title, legend and the value axis take about 115 px; a bar needs room for its label, or
    // the axis drops labels and bars go unnamed.
    return std::clamp((height() - 115) / (fontMetrics().height() + 6), 2, 24);
}

void CostTermsChart::resizeEvent(QResizeEvent *event) {
    QChartView::resizeEvent(event);
    if (stagesThatFit() != m_fitted) rebuild();
}

void CostTermsChart::rebuild() {
    m_rebuildTimer.stop();
    m_fitted = stagesThatFit();
    QChart *chart = this->chart();
    chart->removeAllSeries();
    for (QAbstractAxis *axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
    const auto &cost = m_hub->stateCost();
    const auto &dag = m_hub->dag();
    if (!cost || !dag || !m_hub->state()) {
        chart->setTitle(tr("Cost terms per stage — select a beam state"));
        return;
    }
    chart->setTitle(tr("Predicted %1 for %2, by stage and term")
                        .arg(format::ms(cost->total), m_hub->stateLabel()));

    // Costliest stages first; the selected Func's stages are always shown.
    std::vector<const StageCost *> stages;
    for (const StageCost &s : cost->stages)
        stages.push_back(&s);
    std::stable_sort(stages.begin(), stages.end(),
                     [](auto *a, auto *b) { return a->total() > b->total(); });
    const int selected = m_hub->selectedFunc();
    std::vector<const StageCost *> shown;
    const SearchStepPtr &step = m_hub->step();
    const std::vector<std::string> names =
        step && !step->termNames.empty() ? step->termNames : analyticTermNames();
    const size_t termCount = std::min(names.size(), kMaxCostTerms);
    CostTerms rest{};
    int restCount = 0;
    // One row is kept for "other stages" only when they do not all fit.
    const int rows = int(stages.size()) <= m_fitted ? m_fitted : m_fitted - 1;
    // The selected Func's stages take rows from the costliest others rather than adding rows
    // beyond what fits (the axis then drops labels and they overlap).
    const int selectedRows = int(
        std::count_if(stages.begin(), stages.end(), [&](auto *s) { return s->node == selected; }));
    const int otherRows = std::max(0, rows - selectedRows);
    int others = 0;
    for (const StageCost *s : stages) {
        if (s->node == selected || others < otherRows) {
            others += s->node == selected ? 0 : 1;
            shown.push_back(s);
        } else {
            for (size_t t = 0; t < termCount; ++t)
                rest[t] += s->terms[t];
            ++restCount;
        }
    }

    // Horizontal bars are drawn bottom-up: append in reverse so the costliest is on top.
    QStringList categories;
    std::vector<QBarSet *> sets;
    for (size_t t = 0; t < termCount; ++t) {
        auto *set = new QBarSet(
            QString::fromStdString(names[t]).replace(QLatin1Char('_'), QLatin1Char(' ')));
        set->setColor(termColor(t));
        set->setBorderColor(termColor(t).darker(115));
        sets.push_back(set);
    }
    if (restCount > 0) {
        categories << tr("%1 other stages").arg(restCount);
        for (size_t t = 0; t < termCount; ++t)
            *sets[t] << rest[t];
    }
    for (auto it = shown.rbegin(); it != shown.rend(); ++it) {
        const StageCost &s = **it;
        QString name = QString::fromStdString(dag->node(s.node).stages[size_t(s.stage)].name);
        if (s.node == selected) name = QStringLiteral("▶ ") + name;
        categories << name;
        for (size_t t = 0; t < termCount; ++t)
            *sets[t] << s.terms[t];
    }
    auto *series = new QHorizontalStackedBarSeries;
    for (QBarSet *set : sets)
        series->append(set);
    series->setBarWidth(0.7);
    attachStageBarAxes(chart, series, categories, tr("predicted time (ms)"));
}

} // namespace beamscope
