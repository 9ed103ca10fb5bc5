// CompareView: captions, the aligned tree, the paired bars, the pin and Why not? buttons, the
// import menu and its status line.
#include "views/compare/CompareView.h"

#include "views/common/Format.h"
#include "views/common/PinEdits.h"
#include "views/common/SelectionHub.h"
#include "views/compare/CompareChart.h"
#include "views/compare/CompareModel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace beamscope {

CompareView::CompareView(SelectionHub *hub, QWidget *parent)
    : QWidget(parent), m_hub(hub), m_model(new CompareModel(this)), m_chart(new CompareChart(this)),
      m_captionA(new QLabel(this)), m_captionB(new QLabel(this)), m_tree(new QTreeView(this)),
      m_term(new QComboBox(this)), m_pinA(new QPushButton(tr("Pin A's decision"), this)),
      m_pinB(new QPushButton(tr("Pin B's decision"), this)),
      m_whyB(new QPushButton(tr("Why not B's decision?"), this)),
      m_loopNestB(new QPushButton(tr("B in Loop nest"), this)), m_import(new QComboBox(this)),
      m_importStatus(new QLabel(this)), m_summary(new QLabel(this)) {
    setObjectName(QStringLiteral("compareView"));
    m_captionA->setObjectName(QStringLiteral("compareCaptionA"));
    m_captionB->setObjectName(QStringLiteral("compareCaptionB"));
    for (QLabel *caption : {m_captionA, m_captionB}) {
        caption->setWordWrap(true);
        caption->setTextFormat(Qt::RichText);
    }
    auto *swap = new QPushButton(tr("Swap"), this);
    swap->setToolTip(tr("Exchange A and B"));
    m_tree->setModel(m_model);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_tree->header()->setStretchLastSection(true);
    m_pinA->setToolTip(tr("Pin the selected Func where A computes it (the search starts again)"));
    m_pinB->setToolTip(tr("Pin the selected Func where B computes it (the search starts again)"));
    m_term->addItem(tr("total"), -1);
    m_term->setToolTip(tr("The cost term the bars show"));
    m_whyB->setObjectName(QStringLiteral("compareWhyB"));
    m_whyB->setToolTip(tr("Why did the search on screen not take B's decision for the selected "
                          "Func? (follows the search again on a worker)"));
    m_loopNestB->setObjectName(QStringLiteral("compareLoopNestB"));
    m_loopNestB->setToolTip(tr("Show B's schedule in the Loop nest view (until the next step)"));
    m_import->setObjectName(QStringLiteral("compareImport"));
    m_import->setToolTip(tr("Import side B: the schedule a Halide autoscheduler applies to this "
                            "pipeline, or a JSON schedule file, read back from its Funcs"));
    m_import->addItem(tr("Import B…"), QString());
    m_import->addItem(tr("Anderson2021's schedule"), QStringLiteral("anderson2021"));
    m_import->addItem(tr("Anderson2021 (the paper's configuration)"),
                      QStringLiteral("anderson2021-paper"));
    m_import->addItem(tr("Li2018's schedule"), QStringLiteral("li2018"));
    m_import->addItem(tr("Mullapudi2016's schedule"), QStringLiteral("mullapudi2016"));
    m_import->addItem(tr("The naive GPU schedule"), QStringLiteral("naive"));
    m_import->addItem(tr("A schedule file…"), QStringLiteral("file"));
    m_importStatus->setObjectName(QStringLiteral("compareImportStatus"));
    m_importStatus->setWordWrap(true);
    m_importStatus->setTextFormat(Qt::RichText);
    m_importStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *captions = new QHBoxLayout;
    captions->addWidget(m_captionA, 1);
    captions->addWidget(m_captionB, 1);
    captions->addWidget(swap);
    captions->addWidget(m_import);
    auto *pins = new QHBoxLayout;
    pins->addWidget(m_pinA);
    pins->addWidget(m_pinB);
    pins->addWidget(m_whyB);
    pins->addWidget(m_loopNestB);
    pins->addWidget(m_summary, 1);
    pins->addWidget(new QLabel(tr("Bars:"), this));
    pins->addWidget(m_term);
    // Small minimums, so that the dock's tab group does not claim the width of the bottom row.
    m_chart->setMinimumSize(160, 80);
    m_tree->setMinimumWidth(160);
    m_summary->setWordWrap(true);
    // Side by side: the dock is wide and short at the bottom of the window.
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_tree);
    split->addWidget(m_chart);
    split->setStretchFactor(0, 11);
    split->setStretchFactor(1, 9);
    split->setSizes({550, 450});
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(captions);
    layout->addLayout(pins);
    layout->addWidget(m_importStatus);
    layout->addWidget(split, 1);
    m_importStatus->hide();

    connect(swap, &QPushButton::clicked, this, &CompareView::swapSides);
    connect(m_pinA, &QPushButton::clicked, this, [this] { pinFromSelected(0); });
    connect(m_pinB, &QPushButton::clicked, this, [this] { pinFromSelected(1); });
    connect(m_whyB, &QPushButton::clicked, this, [this] { whyFromSelected(1); });
    connect(m_loopNestB, &QPushButton::clicked, this, [this] { showInLoopNest(1); });
    connect(m_import, &QComboBox::activated, this, [this](int index) {
        const QString with = m_import->itemData(index).toString();
        m_import->setCurrentIndex(0); // a menu, not a setting
        if (!with.isEmpty()) Q_EMIT importRequested(with);
    });
    connect(m_term, &QComboBox::currentIndexChanged, this, [this] {
        m_chart->show(m_model->side(0), m_model->side(1), m_term->currentData().toInt());
    });
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                const int node = m_model->funcOfRow(m_model->rowId(current));
                m_pinA->setEnabled(pinFromSide(0).has_value());
                m_pinB->setEnabled(pinFromSide(1).has_value());
                m_whyB->setEnabled(pinFromSide(1).has_value());
                if (!m_syncing && node >= 0) m_hub->selectFunc(node);
            });
    connect(hub, &SelectionHub::funcSelected, this, &CompareView::selectFunc);
    connect(hub, &SelectionHub::dagChanged, this, [this] {
        setSide(0, {});
        setSide(1, {});
        setImportStatus(QString());
    });
    refresh();
}

void CompareView::setSide(int which, const CompareSide &side) {
    m_model->setSide(which, side);
    refresh();
}

void CompareView::swapSides() {
    const CompareSide a = m_model->side(0);
    m_model->setSide(0, m_model->side(1));
    m_model->setSide(1, a);
    refresh();
}

QString CompareView::summary() const {
    return m_summary->text();
}

std::optional<Pin> CompareView::pinFromSide(int which) const {
    const CompareSide &side = m_model->side(which);
    const int node = m_model->funcOfRow(m_model->rowId(m_tree->currentIndex()));
    if (!side.isSet() || node < 0) return std::nullopt;
    return freezePinFromState(*side.state, node);
}

void CompareView::pinFromSelected(int which) {
    if (const std::optional<Pin> pin = pinFromSide(which))
        m_hub->requestPins(withPin(m_hub->pins(), *pin));
}

void CompareView::whyFromSelected(int which) {
    if (const std::optional<Pin> pin = pinFromSide(which)) m_hub->requestWhy(*pin);
}

void CompareView::showInLoopNest(int which) {
    const CompareSide &side = m_model->side(which);
    if (side.isSet()) m_hub->selectState(side.state, side.cost, side.label);
}

void CompareView::setImportStatus(const QString &text, const QString &details) {
    m_importStatus->setText(text);
    m_importStatus->setToolTip(details);
    m_importStatus->setVisible(!text.isEmpty());
}

QString CompareView::importStatus() const {
    return m_importStatus->text();
}

QString CompareView::sideCaption(int which) const {
    const CompareSide &s = m_model->side(which);
    const QString name = which == 0 ? QStringLiteral("A") : QStringLiteral("B");
    if (!s.isSet())
        return tr("<b>%1</b>: <i>none — pick one from the beam (right click), the timeline or "
                  "the Benchmark dock%2</i>")
            .arg(name, which == 1 ? tr(", or Import B…") : QString());
    QString text = tr("<b>%1</b>: %2").arg(name, s.label.toHtmlEscaped());
    if (s.cost) text += tr("<br>predicted %1").arg(format::ms(s.cost->total));
    if (s.measuredMs) text += tr(", <b>measured %1</b>").arg(format::ms(*s.measuredMs));
    return text;
}

QString CompareView::sideToolTip(int which) const {
    // Where and as what the side was measured: in the tooltip, so that the caption keeps to
    // two lines and leaves the tree and the chart their height.
    const CompareSide &s = m_model->side(which);
    if (!s.measuredMs || s.measuredAs.isEmpty()) return QString();
    return tr("Measured %1: %2").arg(format::ms(*s.measuredMs), s.measuredAs);
}

void CompareView::refresh() {
    m_captionA->setText(sideCaption(0));
    m_captionB->setText(sideCaption(1));
    m_captionA->setToolTip(sideToolTip(0));
    m_captionB->setToolTip(sideToolTip(1));
    // The term choices follow the model that costed the sides.
    const CompareSide &any = m_model->side(0).isSet() ? m_model->side(0) : m_model->side(1);
    const std::vector<std::string> names =
        any.termNames.empty() ? analyticTermNames() : any.termNames;
    const int term = m_term->currentData().toInt();
    {
        const QSignalBlocker block(m_term);
        m_term->clear();
        m_term->addItem(tr("total"), -1);
        for (size_t t = 0; t < names.size(); ++t)
            m_term->addItem(QString::fromStdString(names[t]), int(t));
        m_term->setCurrentIndex(std::max(0, m_term->findData(term)));
    }
    // The differing Funcs open on their stages; the others stay one line each.
    for (int node : m_model->differing())
        m_tree->expand(m_model->indexOfRow(m_model->rowOfFunc(node)));
    for (int c = 0; c < CompareModel::DeltaColumn; ++c)
        m_tree->resizeColumnToContents(c);
    // Long tilings may not push the costs out of sight (the full text is in the cell).
    for (int c : {int(CompareModel::AColumn), int(CompareModel::BColumn)})
        m_tree->setColumnWidth(c, std::min(m_tree->columnWidth(c), 250));
    m_summary->setText(m_model->comparable() ? tr("%n Func(s) decided differently", nullptr,
                                                  int(m_model->differing().size()))
                                             : QString());
    selectFunc(m_hub->selectedFunc());
    m_pinA->setEnabled(pinFromSide(0).has_value());
    m_pinB->setEnabled(pinFromSide(1).has_value());
    m_whyB->setEnabled(pinFromSide(1).has_value());
    m_loopNestB->setEnabled(m_model->side(1).isSet());
    m_chart->show(m_model->side(0), m_model->side(1), m_term->currentData().toInt());
}

void CompareView::selectFunc(int node) {
    const int id = m_model->rowOfFunc(node);
    if (id < 0) return;
    m_syncing = true;
    m_tree->setCurrentIndex(m_model->indexOfRow(id));
    m_syncing = false;
}

} // namespace beamscope
