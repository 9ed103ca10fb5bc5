// LoopNestView: tree view over LoopNestModel, synchronized with the hub.
#include "views/loopnest/LoopNestView.h"

#include "views/common/CaptionBox.h"
#include "views/common/Format.h"
#include "views/common/SelectionHub.h"
#include "views/loopnest/LoopNestModel.h"

#include <QHeaderView>
#include <QLabel>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace beamscope {

LoopNestView::LoopNestView(SelectionHub *hub, QWidget *parent)
    : QWidget(parent), m_hub(hub), m_model(new LoopNestModel(this)), m_caption(new QLabel(this)),
      m_tree(new QTreeView(this)) {
    m_tree->setModel(m_model);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->setIndentation(14);
    m_tree->header()->setStretchLastSection(true);
    m_tree->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_caption->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(new CaptionBox(m_caption, this));
    layout->addWidget(m_tree, 1);

    connect(hub, &SelectionHub::stateChanged, this, &LoopNestView::showState);
    connect(hub, &SelectionHub::funcSelected, this, &LoopNestView::showFunc);
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (m_syncing) return;
                const int node = m_model->funcOfRow(m_model->rowId(current));
                if (node >= 0) m_hub->selectFunc(node);
            });
    showState();
}

void LoopNestView::showState() {
    const StatePtr &state = m_hub->state();
    m_model->setState(state);
    m_tree->expandAll();
    // Sizing columns measures every row: redone for a new pipeline or when the tree has grown by
    // half since, not on every step.
    const int rows = m_model->totalRows();
    if (state && (&state->dag() != m_sizedFor || rows > m_sizedRows * 3 / 2)) {
        m_sizedFor = &state->dag();
        m_sizedRows = rows;
        for (int c = 0; c < LoopNestModel::InlinedColumn; ++c)
            m_tree->resizeColumnToContents(c);
        // Names up to half the dock's width before the extents ("compute gPyramid_1_downx").
        const int cap = std::max(260, m_tree->viewport()->width() / 2);
        m_tree->setColumnWidth(LoopNestModel::NameColumn,
                               std::min(m_tree->columnWidth(LoopNestModel::NameColumn), cap));
    }
    if (!state) {
        m_caption->setText(tr("<i>No schedule yet: take a step.</i>"));
    } else {
        QString text = tr("<b>%1</b> · %2 kernels · %3 decisions")
                           .arg(m_hub->stateLabel().toHtmlEscaped())
                           .arg(state->kernels().size())
                           .arg(state->decisions());
        if (const auto &cost = m_hub->stateCost())
            text += tr(" · predicted %1").arg(format::ms(cost->total));
        m_caption->setText(text);
    }
    showFunc(m_hub->selectedFunc());
}

void LoopNestView::showFunc(int node) {
    const std::vector<int> rows = m_model->rowsOfFunc(node);
    m_syncing = true;
    if (rows.empty()) {
        m_tree->selectionModel()->clearSelection();
    } else {
        // Prefer the row where the Func is computed.
        int row = rows.front();
        for (int r : rows) {
            if (m_model->kindOfRow(r) == LoopNestModel::RowKind::Compute) row = r;
        }
        const QModelIndex index = m_model->indexOfRow(row);
        m_tree->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect |
                                                             QItemSelectionModel::Rows);
        m_tree->scrollTo(index);
    }
    m_syncing = false;
}

} // namespace beamscope
