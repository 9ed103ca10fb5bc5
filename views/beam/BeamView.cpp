// BeamView: flat tree view over BeamModel.
#include "views/beam/BeamView.h"

#include "views/beam/BeamModel.h"
#include "views/common/CaptionBox.h"
#include "views/common/Format.h"
#include "views/common/SelectionHub.h"

#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace beamscope {

BeamView::BeamView(SelectionHub *hub, QWidget *parent)
    : QWidget(parent), m_hub(hub), m_model(new BeamModel(this)), m_caption(new QLabel(this)),
      m_table(new QTreeView(this)) {
    m_caption->setWordWrap(true); // a long caption wraps rather than widening the window
    m_table->setModel(m_model);
    m_table->setRootIsDecorated(false);
    m_table->setUniformRowHeights(true);
    m_table->setAlternatingRowColors(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->header()->setStretchLastSection(true);
    // What a reader compares first — rank, cost, how a state differs from the best — before
    // the decision that made it and the structural hash, which stretch last.
    m_table->header()->moveSection(BeamModel::DiffColumn, BeamModel::HashColumn);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(new CaptionBox(m_caption, this));
    layout->addWidget(m_table, 1);

    connect(hub, &SelectionHub::stepChanged, this, &BeamView::showStep);
    connect(hub, &SelectionHub::funcSelected, m_model, &BeamModel::setHighlightedFunc);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                const int id = m_model->rowId(current);
                if (const BeamEntry *e = m_model->entryOfRow(id)) {
                    m_hub->selectState(e->state, e->cost,
                                       id == m_model->resultRow() ? tr("the search's result")
                                       : id == m_model->bestRow()
                                           ? tr("best of the beam")
                                           : tr("beam #%1").arg(m_model->rankOfRow(id) + 1));
                }
            });
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_table, &QTreeView::customContextMenuRequested, this, [this](const QPoint &pos) {
        const int id = m_model->rowId(m_table->indexAt(pos));
        if (!m_model->entryOfRow(id)) return;
        const int rank = m_model->rankOfRow(id); // -1: the search's result
        QMenu menu(this);
        QAction *best = menu.addAction(tr("Compare with the best"), this,
                                       [this, rank] { Q_EMIT compareRequested(rank, -1); });
        best->setEnabled(id != m_model->bestRow());
        menu.addAction(tr("Compare as A"), this,
                       [this, rank] { Q_EMIT compareRequested(rank, 0); });
        menu.addAction(tr("Compare as B"), this,
                       [this, rank] { Q_EMIT compareRequested(rank, 1); });
        menu.exec(m_table->viewport()->mapToGlobal(pos));
    });
    showStep();
}

void BeamView::showStep() {
    const SearchStepPtr &step = m_hub->step();
    m_model->setStep(step);
    // Sizing columns measures every row's text (a few ms a step): done once a pass of a search,
    // when the result's row comes or goes, when the beam has grown by half and at the end, not
    // on every step.
    const void *search = step && !step->beam.empty() ? &step->beam.front().state->dag() : nullptr;
    const int rows = m_model->rowCount();
    const bool withResult = m_model->resultRow() >= 0;
    if (step && (search != m_sizedFor || step->pass != m_sizedPass ||
                 withResult != m_sizedWithResult || rows > m_sizedRows * 3 / 2 || step->finished)) {
        m_sizedFor = search;
        m_sizedPass = step->pass;
        m_sizedWithResult = withResult;
        m_sizedRows = rows;
        for (int c = 0; c < BeamModel::ColumnCount; ++c)
            m_table->resizeColumnToContents(c);
        m_table->setColumnWidth(BeamModel::DecisionColumn,
                                std::min(m_table->columnWidth(BeamModel::DecisionColumn), 170));
        // The differences are long lists: their first few fit, the tooltip has them all.
        m_table->setColumnWidth(BeamModel::DiffColumn,
                                std::min(m_table->columnWidth(BeamModel::DiffColumn), 320));
    }
    QString caption =
        step ? tr("%1 states in the beam after step %2").arg(step->beam.size()).arg(step->index + 1)
             : tr("<i>The beam appears after the first step.</i>");
    if (const BeamEntry *result = m_model->entryOfRow(m_model->resultRow())) {
        caption += tr("; the search's result (%1, ★ first row) comes from an earlier pass")
                       .arg(format::ms(result->cost.total));
    }
    m_caption->setText(caption);
}

} // namespace beamscope
