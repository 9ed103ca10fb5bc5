// TimelinePanel: slider, arrow buttons, caption and the list of steps.
#include "views/history/TimelinePanel.h"

#include "views/common/CaptionBox.h"
#include "views/common/Format.h"

#include <QFont>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QPalette>
#include <QSlider>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace beamscope {

TimelinePanel::TimelinePanel(QWidget *parent)
    : QWidget(parent), m_model(new TimelineModel(this)), m_caption(new QLabel(this)),
      m_result(new QLabel(this)), m_slider(new QSlider(Qt::Horizontal, this)),
      m_back(new QToolButton(this)), m_forward(new QToolButton(this)),
      m_newest(new QToolButton(this)), m_list(new QTreeView(this)) {
    setObjectName(QStringLiteral("timelinePanel"));
    m_caption->setWordWrap(true);
    m_result->setObjectName(QStringLiteral("timelineResult"));
    m_result->setWordWrap(true);
    m_result->setTextFormat(Qt::RichText);
    m_result->setAutoFillBackground(true);
    QPalette tint = m_result->palette(); // the Beam dock's and the ★ row's tint
    tint.setColor(QPalette::Window, QColor(0xff, 0xf4, 0xd6));
    m_result->setPalette(tint);
    m_result->setContentsMargins(4, 2, 4, 2);
    m_result->setToolTip(tr("The search's result: the cheapest complete state of the passes' "
                            "final beams, as the status bar, Loop nest, Export and Benchmark "
                            "take it. The Best column is the cheapest state of each step's "
                            "beam, complete or not."));
    m_result->hide();
    m_slider->setRange(0, 0);
    m_slider->setEnabled(false);
    m_slider->setToolTip(tr("Drag to go back to any step; the search itself does not move"));
    m_back->setArrowType(Qt::LeftArrow);
    m_back->setToolTip(tr("The step before"));
    m_forward->setArrowType(Qt::RightArrow);
    m_forward->setToolTip(tr("The step after"));
    m_newest->setText(tr("Newest"));
    m_newest->setToolTip(tr("Back to the newest step, where Step and Run continue"));
    m_list->setModel(m_model);
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setAlternatingRowColors(true);
    m_list->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_list->setContextMenuPolicy(Qt::CustomContextMenu);
    // Fixed widths from the font (measuring every row on each new step would cost a run dearly),
    // each the wider of its header and its widest compact value; the Func column takes the rest,
    // its long names elided on the left when the dock is narrow: generated names differ at
    // their ends ("gPyramid_3_downx", "inGPyramid_4"), which the middle elision cut away (the
    // row's tooltip has them whole). At the dock's default width nothing scrolls sideways.
    QFont bold = m_list->font(); // the shown step's row is bold: its figures are the widest
    bold.setBold(true);
    const QFontMetrics metrics(bold);
    auto width = [&](int column, const char *sample) {
        const QString header =
            m_model->headerData(column, Qt::Horizontal, Qt::DisplayRole).toString();
        return std::max(metrics.horizontalAdvance(header),
                        metrics.horizontalAdvance(QString::fromUtf8(sample))) +
               8;
    };
    m_list->setTextElideMode(Qt::ElideLeft);
    m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    QHeaderView *header = m_list->header();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QHeaderView::Fixed);
    header->setSectionResizeMode(TimelineModel::FuncColumn, QHeaderView::Stretch);
    header->setMinimumSectionSize(16);
    header->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    header->resizeSection(TimelineModel::StepColumn, width(TimelineModel::StepColumn, "000"));
    header->resizeSection(TimelineModel::PassColumn, width(TimelineModel::PassColumn, "pre tile"));
    header->resizeSection(TimelineModel::BestColumn, width(TimelineModel::BestColumn, "0.000"));
    header->resizeSection(TimelineModel::CandidatesColumn,
                          width(TimelineModel::CandidatesColumn, "0.0k"));

    auto *controls = new QHBoxLayout;
    controls->addWidget(m_back);
    controls->addWidget(m_slider, 1);
    controls->addWidget(m_forward);
    controls->addWidget(m_newest);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(new CaptionBox(m_caption, this));
    layout->addWidget(m_result);
    layout->addLayout(controls);
    layout->addWidget(m_list, 1);

    connect(m_slider, &QSlider::valueChanged, this, [this](int k) {
        if (!m_syncing) request(k);
    });
    connect(m_back, &QToolButton::clicked, this, [this] {
        if (m_shown > 0) request(m_shown - 1);
    });
    connect(m_forward, &QToolButton::clicked, this, [this] {
        if (m_shown >= 0 && m_shown + 1 < m_model->entryCount()) request(m_shown + 1);
    });
    connect(m_newest, &QToolButton::clicked, this, [this] { request(-1); });
    connect(m_result, &QLabel::linkActivated, this, [this] {
        if (m_model->resultStep() >= 0) request(m_model->resultStep());
    });
    connect(m_list->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (!m_syncing && current.isValid()) request(current.row());
            });
    connect(m_list, &QTreeView::customContextMenuRequested, this, [this](const QPoint &pos) {
        const QModelIndex index = m_list->indexAt(pos);
        if (!index.isValid()) return;
        const int k = index.row();
        QMenu menu(this);
        menu.addAction(tr("Show step %1").arg(k + 1), this, [this, k] { request(k); });
        menu.addSeparator();
        menu.addAction(tr("Compare its best as A"), this,
                       [this, k] { Q_EMIT compareRequested(k, 0); });
        menu.addAction(tr("Compare its best as B"), this,
                       [this, k] { Q_EMIT compareRequested(k, 1); });
        menu.exec(m_list->viewport()->mapToGlobal(pos));
    });
    m_flush.setInterval(100);
    m_flush.setSingleShot(true);
    connect(&m_flush, &QTimer::timeout, this, &TimelinePanel::flush);
    updateCaption();
}

QString TimelinePanel::caption() const {
    return m_caption->text();
}

QString TimelinePanel::resultLine() const {
    return m_result->isHidden() ? QString() : m_result->text();
}

void TimelinePanel::updateResultLine() {
    const int k = m_model->resultStep();
    m_result->setVisible(k >= 0);
    if (k < 0) {
        m_result->clear();
        return;
    }
    const TimelineEntry &e = m_model->entry(k);
    m_result->setText(
        tr("★ <b>Result %1</b>, from the final beam of %2 (<a href=\"#\">step %3</a>)")
            .arg(format::ms(e.resultCost).toHtmlEscaped(),
                 e.pass == 0 ? tr("the pre-pass") : tr("pass %1").arg(e.pass))
            .arg(k + 1));
}

void TimelinePanel::request(int k) {
    Q_EMIT stepRequested(k);
}

void TimelinePanel::appendStep(const TimelineEntry &entry) {
    m_pending.push_back(entry);
    if (!m_flush.isActive()) m_flush.start();
}

void TimelinePanel::flush() {
    m_flush.stop();
    if (m_pending.empty()) return;
    m_model->append(std::exchange(m_pending, {}));
    updateResultLine();
    const int n = m_model->entryCount();
    m_syncing = true;
    m_slider->setRange(0, std::max(0, n - 1));
    m_slider->setEnabled(n > 1);
    if (m_newestShown) m_slider->setValue(n - 1);
    m_syncing = false;
    if (m_newestShown)
        setShown(n - 1, true, true);
    else
        updateCaption();
}

void TimelinePanel::clear() {
    m_flush.stop();
    m_pending.clear();
    m_syncing = true;
    m_model->clear();
    m_slider->setRange(0, 0);
    m_slider->setEnabled(false);
    m_syncing = false;
    m_shown = -1;
    m_newestShown = true;
    m_whole = true;
    updateResultLine();
    updateCaption();
}

void TimelinePanel::setShown(int k, bool newest, bool whole) {
    flush(); // step k may still be pending
    m_shown = k;
    m_newestShown = newest;
    m_whole = whole;
    m_model->setShown(k);
    m_syncing = true;
    if (k >= 0 && k <= m_slider->maximum()) m_slider->setValue(k);
    if (k >= 0 && k < m_model->entryCount()) {
        const QModelIndex index = m_model->index(k, 0);
        m_list->setCurrentIndex(index);
        m_list->scrollTo(index);
    }
    m_syncing = false;
    updateCaption();
}

void TimelinePanel::updateCaption() {
    const int n = m_model->entryCount();
    m_back->setEnabled(m_shown > 0);
    m_forward->setEnabled(m_shown >= 0 && m_shown + 1 < n);
    m_newest->setEnabled(!m_newestShown);
    if (n == 0 || m_shown < 0 || m_shown >= n) {
        m_caption->setText(tr("<i>Every step of the search is kept here once it starts.</i>"));
        return;
    }
    const TimelineEntry &e = m_model->entry(m_shown);
    const QString where =
        tr("step %1 of %2: %3 (%4, %5), beam's best %6")
            .arg(m_shown + 1)
            .arg(n)
            .arg(QString::fromStdString(e.func))
            .arg(e.pass == 0 ? tr("pre-pass") : tr("pass %1").arg(e.pass))
            .arg(e.phase == Phase::ComputeLocation ? tr("location") : tr("tiling"))
            .arg(format::ms(e.bestCost));
    if (m_newestShown) {
        m_caption->setText(tr("Newest: %1").arg(where));
    } else {
        m_caption->setText(
            tr("<b>Back at %1</b> — the search goes on from step %2%3")
                .arg(where.toHtmlEscaped())
                .arg(n)
                .arg(m_whole ? QString() : tr(" <i>(replaying its candidates…)</i>")));
    }
}

} // namespace beamscope
