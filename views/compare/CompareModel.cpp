// CompareModel: Func rows (placement, cost, difference) with stage rows (tiling, cost) under them.
#include "views/compare/CompareModel.h"

#include "views/beam/BeamDiff.h"
#include "views/common/Format.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <limits>

namespace beamscope {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// "+0.0123 ms (+4.1%)" for b - a; empty when either is unknown.
QString delta(double a, double b) {
    if (std::isnan(a) || std::isnan(b) || (a == 0 && b == 0)) return {};
    const double d = b - a;
    if (d == 0) return QStringLiteral("=");
    QString text = (d > 0 ? QStringLiteral("+") : QStringLiteral("−")) + format::ms(std::abs(d));
    if (a > 0)
        text +=
            QStringLiteral(" (%1%2%)").arg(d > 0 ? "+" : "−").arg(std::abs(d) / a * 100, 0, 'f', 1);
    return text;
}
} // namespace

CompareModel::CompareModel(QObject *parent)
    : TreeModel({tr("Func / stage"), tr("A"), tr("B"), tr("A cost"), tr("B cost"), tr("B − A")},
                parent) {}

void CompareModel::setSide(int which, CompareSide side) {
    (which == 0 ? m_a : m_b) = std::move(side);
    rebuild();
}

bool CompareModel::comparable() const {
    return m_a.isSet() && m_b.isSet() && &m_a.state->dag() == &m_b.state->dag();
}

bool CompareModel::differs(int node) const {
    return std::find(m_differing.begin(), m_differing.end(), node) != m_differing.end();
}

int CompareModel::funcOfRow(int id) const {
    return id >= 0 && id < int(m_items.size()) ? m_items[size_t(id)].node : -1;
}

int CompareModel::stageOfRow(int id) const {
    return id >= 0 && id < int(m_items.size()) ? m_items[size_t(id)].stage : -1;
}

int CompareModel::rowOfFunc(int node) const {
    return node >= 0 && node < int(m_funcRow.size()) ? m_funcRow[size_t(node)] : -1;
}

double CompareModel::cost(int which, int node, int stage) const {
    const CompareSide &s = side(which);
    if (!s.cost) return kNaN;
    double sum = 0;
    for (const StageCost &c : s.cost->stages) {
        if (c.node == node && (stage < 0 || c.stage == stage)) sum += c.total();
    }
    return sum;
}

void CompareModel::rebuild() {
    beginRebuild();
    m_items.clear();
    m_differing.clear();
    m_funcRow.clear();
    const CompareSide &any = m_a.isSet() ? m_a : m_b;
    if (any.isSet() && (!m_a.isSet() || !m_b.isSet() || comparable())) {
        const FunctionDAG &dag = any.state->dag();
        if (comparable()) {
            for (const FuncDifference &d : placementDifferences(*m_a.state, *m_b.state))
                m_differing.push_back(d.node);
        }
        m_funcRow.assign(dag.nodes().size(), -1);
        for (int node : dag.outputsFirst()) {
            const Node &n = dag.node(node);
            if (n.isInput) continue;
            const int id = addRow();
            m_funcRow[size_t(node)] = id;
            m_items.push_back({node, -1});
            // Stage rows where either side computes the Func with tilings of its own.
            auto tiled = [&](const CompareSide &s) {
                return s.isSet() && !s.state->placement(node).tilings.empty();
            };
            if (!tiled(m_a) && !tiled(m_b)) continue;
            for (int st = 0; st < int(n.stages.size()); ++st) {
                addRow(id);
                m_items.push_back({node, st});
            }
        }
    }
    endRebuild();
}

QString CompareModel::stageTiling(const CompareSide &side, int node, int stage) const {
    if (!side.isSet()) return {};
    const FuncPlacement &p = side.state->placement(node);
    if (stage >= int(p.tilings.size())) return tr("(not tiled)");
    const StageTiling &t = p.tilings[size_t(stage)];
    return tr("blocks %1 · threads %2 · serial %3")
        .arg(format::sizes(t.blocks), format::sizes(t.threads), format::sizes(t.serial));
}

QString CompareModel::termsTooltip(int node, int stage) const {
    const std::vector<std::string> names = !m_a.termNames.empty()   ? m_a.termNames
                                           : !m_b.termNames.empty() ? m_b.termNames
                                                                    : analyticTermNames();
    auto termsOf = [&](const CompareSide &s) {
        CostTerms sum{};
        if (!s.cost) return sum;
        for (const StageCost &c : s.cost->stages) {
            if (c.node != node || (stage >= 0 && c.stage != stage)) continue;
            for (size_t t = 0; t < kMaxCostTerms; ++t)
                sum[t] += c.terms[t];
        }
        return sum;
    };
    const CostTerms a = termsOf(m_a), b = termsOf(m_b);
    QStringList lines{tr("<tr><th></th><th>A</th><th>B</th></tr>")};
    for (size_t t = 0; t < std::min(names.size(), kMaxCostTerms); ++t) {
        lines << QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td></tr>")
                     .arg(QString::fromStdString(names[t]), m_a.cost ? format::ms(a[t]) : QString(),
                          m_b.cost ? format::ms(b[t]) : QString());
    }
    return QStringLiteral("<table>") + lines.join(QString()) + QStringLiteral("</table>");
}

QVariant CompareModel::cell(int id, int column, int role) const {
    const Item &item = m_items[size_t(id)];
    const CompareSide &any = m_a.isSet() ? m_a : m_b;
    const FunctionDAG &dag = any.state->dag();
    const Node &n = dag.node(item.node);
    const bool funcRow = item.stage < 0;
    const bool different = differs(item.node);
    if (role == Qt::DisplayRole) {
        switch (column) {
        case NameColumn:
            return QString::fromStdString(funcRow ? n.name : n.stages[size_t(item.stage)].name);
        case AColumn:
        case BColumn: {
            const CompareSide &s = side(column == AColumn ? 0 : 1);
            if (!s.isSet()) return {};
            return funcRow ? format::placement(*s.state, item.node)
                           : stageTiling(s, item.node, item.stage);
        }
        case ACostColumn:
        case BCostColumn: {
            const int which = column == ACostColumn ? 0 : 1;
            if (!side(which).cost) return {};
            const double c = cost(which, item.node, item.stage);
            return c > 0 ? format::ms(c) : QString();
        }
        case DeltaColumn:
            return comparable()
                       ? delta(cost(0, item.node, item.stage), cost(1, item.node, item.stage))
                       : QString();
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole && column >= ACostColumn && (m_a.cost || m_b.cost))
        return termsTooltip(item.node, item.stage);
    if (role == Qt::ToolTipRole && (column == AColumn || column == BColumn))
        return cell(id, column, Qt::DisplayRole); // the whole tiling where the column cuts it
    if (role == Qt::ToolTipRole && funcRow && different && column == NameColumn)
        return tr("A and B decide %1 differently").arg(QString::fromStdString(n.name));
    if (role == Qt::FontRole && funcRow && different) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    if (role == Qt::BackgroundRole && different && (column == AColumn || column == BColumn))
        return QBrush(QColor(0xff, 0xe3, 0xb3));
    if (role == Qt::TextAlignmentRole && column >= ACostColumn)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QString CompareModel::headerToolTip(int section) const {
    switch (section) {
    case NameColumn:
        return tr("Every Func, outputs first; under a tiled Func, its stages");
    case AColumn:
        return tr("Where and how side A computes it (stages: blocks, threads, serial per loop)");
    case BColumn:
        return tr("The same for side B; differing Funcs are highlighted");
    case ACostColumn:
    case BCostColumn:
        return tr("Predicted cost of the Func's stages (tooltip: by term)");
    case DeltaColumn:
        return tr("B's predicted cost minus A's");
    default:
        return {};
    }
}

} // namespace beamscope
