// BucketsView: bucket and pruned trees with a summary caption.
#include "views/buckets/BucketsView.h"

#include "views/buckets/BucketModel.h"
#include "views/buckets/PrunedModel.h"
#include "views/common/CaptionBox.h"
#include "views/common/Format.h"
#include "views/common/SelectionHub.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTreeView>
#include <QVBoxLayout>

namespace beamscope {

namespace {
QTreeView *makeTree(QWidget *parent) {
    auto *tree = new QTreeView(parent);
    tree->setUniformRowHeights(true);
    tree->setAlternatingRowColors(true);
    tree->setIndentation(14);
    tree->setSelectionBehavior(QAbstractItemView::SelectRows);
    return tree;
}
} // namespace

BucketsView::BucketsView(SelectionHub *hub, QWidget *parent)
    : QWidget(parent), m_hub(hub), m_buckets(new BucketModel(this)),
      m_pruned(new PrunedModel(this)), m_caption(new QLabel(this)), m_bucketTree(makeTree(this)),
      m_prunedTree(makeTree(this)) {
    m_bucketTree->setModel(m_buckets); // the model sorts itself (see BucketModel.h)
    m_bucketTree->setSortingEnabled(true);
    m_bucketTree->sortByColumn(BucketModel::DecisionColumn, Qt::AscendingOrder);
    m_prunedTree->setModel(m_pruned);
    m_caption->setWordWrap(true);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_bucketTree);
    splitter->addWidget(m_prunedTree);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(new CaptionBox(m_caption, this));
    layout->addWidget(splitter, 1);

    connect(hub, &SelectionHub::stepChanged, this, &BucketsView::showStep);
    connect(m_bucketTree->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &BucketsView::inspectCandidate);
    connect(m_prunedTree->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &BucketsView::inspectPruned);
    showStep();
}

void BucketsView::showStep() {
    const SearchStepPtr &step = m_hub->step();
    const bool first = !m_buckets->step();
    m_buckets->setStep(step);
    m_pruned->setStep(step);
    if (first && step) { // sizing columns walks the rows: once per search is enough
        const QFontMetrics metrics = m_bucketTree->fontMetrics();
        m_bucketTree->setColumnWidth(BucketModel::DecisionColumn, 230);
        m_bucketTree->setColumnWidth(BucketModel::HashColumn,
                                     metrics.horizontalAdvance(QStringLiteral("0123456789abcdef")) +
                                         28);
        for (int c :
             {BucketModel::SizeColumn, BucketModel::SampledColumn, BucketModel::InBeamColumn}) {
            m_bucketTree->resizeColumnToContents(c);
        }
        m_bucketTree->setColumnWidth(BucketModel::CostColumn,
                                     metrics.horizontalAdvance(QStringLiteral("0.00000 ms")) + 16);
        m_prunedTree->setColumnWidth(PrunedModel::DecisionColumn, 260);
        m_prunedTree->setColumnWidth(PrunedModel::CountColumn,
                                     metrics.horizontalAdvance(QStringLiteral("Count")) + 24);
    }
    if (!step) {
        m_caption->setText(tr("<i>Candidates of the latest step appear here.</i>"));
        return;
    }
    if (step->candidates.empty() && !step->beam.empty()) {
        // A history record without its candidates (every step has some): the whole step is
        // being replayed and replaces this one when it arrives.
        m_caption->setText(tr("Step %1 decided <b>%2</b>: <i>replaying its candidates…</i>")
                               .arg(step->index + 1)
                               .arg(QString::fromStdString(step->func).toHtmlEscaped()));
        return;
    }
    int sampled = 0, inBeam = 0;
    for (const StepCandidate &c : step->candidates) {
        sampled += c.sampled;
        inBeam += c.inBeam;
    }
    const QString depth = step->hashDepth < 0
                              ? tr("pre-pass: one bucket per parent")
                              : tr("pass %1 of %2: buckets per parent at hash depth %3")
                                    .arg(step->pass)
                                    .arg(step->passes)
                                    .arg(step->hashDepth);
    m_caption->setText(
        tr("Step %1 decided <b>%2</b> (%3): %4 candidates in %5 buckets (%9), %6 sampled and "
           "costed, %7 kept in the beam · %8 pruned")
            .arg(step->index + 1)
            .arg(QString::fromStdString(step->func).toHtmlEscaped(),
                 step->phase == Phase::ComputeLocation ? tr("compute location") : tr("tiling"))
            .arg(step->candidates.size())
            .arg(step->buckets.size())
            .arg(sampled)
            .arg(inBeam)
            .arg(step->pruned.size())
            .arg(depth));
}

void BucketsView::inspectCandidate(const QModelIndex &index) {
    const SearchStepPtr &step = m_buckets->step();
    const int c = m_buckets->candidateOfRow(m_buckets->rowId(index));
    if (!step || c < 0) return;
    const StepCandidate &candidate = step->candidates[size_t(c)];
    // Unsampled candidates keep only their derivation; materializing one is O(depth).
    StatePtr state = candidate.materialize();
    std::optional<StateCost> cost;
    for (const BeamEntry &e : step->beam) {
        if (e.state == state) cost = e.cost;
    }
    m_hub->selectState(
        state, cost,
        tr("candidate #%1 (%2)").arg(c + 1).arg(QString::fromStdString(candidate.label)));
}

void BucketsView::inspectPruned(const QModelIndex &index) {
    const SearchStepPtr &step = m_pruned->step();
    const int p = m_pruned->prunedOfRow(m_pruned->rowId(index));
    if (!step || p < 0 || !step->pruned[size_t(p)].child) return;
    const PrunedCandidate &pruned = step->pruned[size_t(p)];
    m_hub->selectState(pruned.child->materialize(), std::nullopt,
                       tr("pruned %1 (%2)")
                           .arg(QString::fromStdString(pruned.label),
                                QString::fromLatin1(pruneReasonName(pruned.reason))));
}

} // namespace beamscope
