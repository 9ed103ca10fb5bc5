// CostView: two charts in a vertical splitter.
#include "views/cost/CostView.h"

#include "views/cost/BestCostChart.h"
#include "views/cost/CostTermsChart.h"

#include <QSplitter>
#include <QVBoxLayout>

namespace beamscope {

CostView::CostView(SelectionHub *hub, QWidget *parent)
    : QWidget(parent), m_terms(new CostTermsChart(hub, this)), m_history(new BestCostChart(this)) {
    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_terms);
    splitter->addWidget(m_history);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    // Stretch factors share only the height beyond the charts' size hints, which left the terms
    // chart at its minimum (its value axis elided to "..."): split the height itself, evenly.
    splitter->setSizes({1000, 1000});
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);
}

} // namespace beamscope
