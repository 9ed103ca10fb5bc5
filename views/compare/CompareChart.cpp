// CompareChart: per-stage sums of both sides into a QHorizontalBarSeries with two sets.
#include "views/compare/CompareChart.h"

#include "views/common/Format.h"
#include "views/common/StageBarAxes.h"

#include <QBarSet>
#include <QHorizontalBarSeries>

#include <algorithm>
#include <map>

namespace beamscope {

namespace {

/// Side `s`'s cost by (node, stage), for `term` (-1: total).
std::map<std::pair<int, int>, double> byStage(const CompareSide &s, int term) {
    std::map<std::pair<int, int>, double> out;
    if (!s.cost) return out;
    for (const StageCost &c : s.cost->stages)
        out[{c.node, c.stage}] += term < 0 ? c.total() : c.terms[size_t(term)];
    return out;
}
} // namespace

CompareChart::CompareChart(QWidget *parent) : QChartView(parent) {
    setRenderHint(QPainter::Antialiasing);
    setChart(newStageBarChart());
    setMinimumHeight(200);
}

std::vector<double> CompareChart::values(int which) const {
    return m_values[which == 0 ? 0 : 1];
}

int CompareChart::stagesThatFit() const {
    // Title, legend and the value axis take about 110 px; a readable pair needs about 22 px.
    return std::clamp((height() - 110) / 22, 3, 12);
}

void CompareChart::resizeEvent(QResizeEvent *event) {
    QChartView::resizeEvent(event);
    if (stagesThatFit() != m_fitted) redraw();
}

void CompareChart::show(const CompareSide &a, const CompareSide &b, int term) {
    m_a = a;
    m_b = b;
    m_term = term;
    redraw();
}

void CompareChart::redraw() {
    const CompareSide &a = m_a, &b = m_b;
    const int term = m_term;
    const int maxStages = m_fitted = stagesThatFit();
    QChart *chart = this->chart();
    chart->removeAllSeries();
    for (QAbstractAxis *axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
    m_categories.clear();
    m_values[0].clear();
    m_values[1].clear();
    const CompareSide &any = a.isSet() ? a : b;
    if (!any.isSet() || (!a.cost && !b.cost)) {
        chart->setTitle(tr("Cost per stage — pick two states to compare"));
        return;
    }
    const FunctionDAG &dag = any.state->dag();
    const auto ca = byStage(a, term), cb = byStage(b, term);
    std::vector<std::pair<int, int>> stages;
    for (const auto &[key, v] : ca)
        stages.push_back(key);
    for (const auto &[key, v] : cb)
        if (!ca.count(key)) stages.push_back(key);
    auto get = [](const auto &m, const std::pair<int, int> &k) {
        const auto it = m.find(k);
        return it == m.end() ? 0.0 : it->second;
    };
    // Costliest first by the larger of the two; a stable order for equal ones (node, stage).
    std::sort(stages.begin(), stages.end(), [&](const auto &x, const auto &y) {
        const double mx = std::max(get(ca, x), get(cb, x)), my = std::max(get(ca, y), get(cb, y));
        return mx != my ? mx > my : x < y;
    });
    double restA = 0, restB = 0;
    int rest = 0;
    for (size_t i = 0; i < stages.size(); ++i) {
        // One row is kept for "other stages" only when they do not all fit.
        if (int(i) < maxStages - (int(stages.size()) > maxStages ? 1 : 0)) {
            const auto &[node, stage] = stages[i];
            m_categories << QString::fromStdString(dag.node(node).stages[size_t(stage)].name);
            m_values[0].push_back(get(ca, stages[i]));
            m_values[1].push_back(get(cb, stages[i]));
        } else {
            restA += get(ca, stages[i]);
            restB += get(cb, stages[i]);
            ++rest;
        }
    }
    if (rest > 0) {
        m_categories << tr("%1 other stages").arg(rest);
        m_values[0].push_back(restA);
        m_values[1].push_back(restB);
    }
    const std::vector<std::string> names = !a.termNames.empty()   ? a.termNames
                                           : !b.termNames.empty() ? b.termNames
                                                                  : analyticTermNames();
    const QString what = term < 0 || size_t(term) >= names.size()
                             ? tr("predicted cost")
                             : QString::fromStdString(names[size_t(term)]);
    chart->setTitle(tr("%1 per stage: A against B").arg(what));
    chart->legend()->setReverseMarkers(true); // A first, as it is drawn above B
    // Horizontal bars are drawn bottom-up: append in reverse so the costliest is on top, and B
    // before A so that A is the upper bar of each pair.
    auto *setA = new QBarSet(tr("A: %1").arg(a.label));
    auto *setB = new QBarSet(tr("B: %1").arg(b.label));
    setA->setColor(QColor(0x00, 0x72, 0xb2));
    setB->setColor(QColor(0xe6, 0x9f, 0x00));
    QStringList reversed;
    for (int i = int(m_categories.size()) - 1; i >= 0; --i) {
        reversed << m_categories[i];
        *setA << (a.cost ? m_values[0][size_t(i)] : 0.0);
        *setB << (b.cost ? m_values[1][size_t(i)] : 0.0);
    }
    auto *series = new QHorizontalBarSeries;
    series->append(setB);
    series->append(setA);
    series->setBarWidth(0.8);
    attachStageBarAxes(chart, series, reversed, tr("ms"));
}

} // namespace beamscope
