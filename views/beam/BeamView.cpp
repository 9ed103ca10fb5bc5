// BeamView: flat tree view over BeamModel.
#include "views/beam/BeamView.h"

#include "views/beam/BeamModel.h"
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
    m_table->setModel(m_model);
    m_table->setRootIsDecorated(false);
    m_table->setUniformRowHeights(true);
    m_table->setAlternatingRowColors(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->header()->setStretchLastSection(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_caption);
    layout->addWidget(m_table, 1);

    connect(hub, &SelectionHub::stepChanged, this, &BeamView::showStep);
    connect(hub, &SelectionHub::funcSelected, m_model, &BeamModel::setHighlightedFunc);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                const int id = m_model->rowId(current);
                if (const BeamEntry *e = m_model->entryOfRow(id)) {
                    m_hub->selectState(e->state, e->cost,
                                       id == m_model->bestRow() ? tr("best of the beam")
                                                                : tr("beam #%1").arg(id + 1));
                }
            });
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_table, &QTreeView::customContextMenuRequested, this, [this](const QPoint &pos) {
        const int rank = m_model->rowId(m_table->indexAt(pos));
        if (!m_model->entryOfRow(rank)) return;
        QMenu menu(this);
        QAction *best = menu.addAction(tr("Compare with the best"), this,
                                       [this, rank] { Q_EMIT compareRequested(rank, -1); });
        best->setEnabled(rank != m_model->bestRow());
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
    for (int c = 0; c < BeamModel::DiffColumn; ++c)
        m_table->resizeColumnToContents(c);
    m_table->setColumnWidth(BeamModel::DecisionColumn,
                            std::min(m_table->columnWidth(BeamModel::DecisionColumn), 170));
    m_caption->setText(
        step ? tr("%1 states in the beam after step %2").arg(step->beam.size()).arg(step->index + 1)
             : tr("<i>The beam appears after the first step.</i>"));
}

} // namespace beamscope
