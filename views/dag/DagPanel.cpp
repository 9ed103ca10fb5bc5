// DagPanel: caption, zoom buttons, view and legend in one column.
#include "views/dag/DagPanel.h"

#include "views/common/CaptionBox.h"
#include "views/common/SelectionHub.h"
#include "views/dag/DagLegend.h"
#include "views/dag/DagView.h"

#include <QCompleter>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QShortcut>
#include <QStringListModel>
#include <QToolButton>
#include <QVBoxLayout>

namespace beamscope {

DagPanel::DagPanel(SelectionHub *hub, QWidget *parent)
    : QWidget(parent), m_hub(hub), m_caption(new QLabel(this)), m_view(new DagView(hub, this)),
      m_legend(new DagLegend(this)), m_find(new QLineEdit(this)) {
    m_caption->setTextFormat(Qt::RichText);
    m_caption->setWordWrap(true);
    // Two lines when the window is narrow: its height goes to the graph, not the minimum.
    m_caption->setMinimumHeight(m_caption->fontMetrics().height() * 2);
    auto *header = new QHBoxLayout;
    header->setContentsMargins(6, 4, 6, 0);
    header->addWidget(new CaptionBox(m_caption, this), 1);
    m_find->setObjectName(QStringLiteral("dagFind"));
    m_find->setPlaceholderText(tr("Find Func (Ctrl+F)"));
    m_find->setClearButtonEnabled(true);
    m_find->setMaximumWidth(200);
    m_find->setToolTip(tr("Type a Func's name (or part of it) and press Enter: it is selected "
                          "everywhere and centred in the graph"));
    auto *completer = new QCompleter(this);
    completer->setCaseSensitivity(Qt::CaseInsensitive);
    completer->setFilterMode(Qt::MatchContains);
    m_find->setCompleter(completer);
    connect(m_find, &QLineEdit::returnPressed, this, &DagPanel::find);
    connect(completer, qOverload<const QString &>(&QCompleter::activated), this,
            [this](const QString &name) {
                m_find->setText(name);
                find();
            });
    connect(m_find, &QLineEdit::textEdited, this, [this] { m_find->setStyleSheet(QString()); });
    auto *shortcut = new QShortcut(QKeySequence::Find, this);
    shortcut->setContext(Qt::WindowShortcut);
    connect(shortcut, &QShortcut::activated, this, [this] {
        m_find->setFocus(Qt::ShortcutFocusReason);
        m_find->selectAll();
    });
    header->addWidget(m_find);
    auto addButton = [&](const QString &text, const QString &tip, auto slot) {
        auto *b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        b->setAutoRaise(true);
        connect(b, &QToolButton::clicked, m_view, slot);
        header->addWidget(b);
    };
    addButton(QStringLiteral("−"), tr("Zoom out (Ctrl+-)"), &DagView::zoomOut);
    addButton(QStringLiteral("+"), tr("Zoom in (Ctrl++)"), &DagView::zoomIn);
    addButton(tr("Fit"), tr("Fit the whole graph (Ctrl+0, or double-click the background)"),
              &DagView::fitAll);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(header);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_legend);

    connect(hub, &SelectionHub::stepChanged, this, &DagPanel::updateCaption);
    connect(hub, &SelectionHub::dagChanged, this, &DagPanel::updateCaption);
    connect(hub, &SelectionHub::dagChanged, this, &DagPanel::updateCompletions);
    connect(hub, &SelectionHub::stateChanged, this, &DagPanel::updateCaption);
    updateCaption();
}

void DagPanel::updateCompletions() {
    QStringList names;
    if (const auto &dag = m_hub->dag()) {
        for (const Node &node : dag->nodes())
            names << QString::fromStdString(node.name);
    }
    m_find->completer()->setModel(new QStringListModel(names, m_find->completer()));
}

void DagPanel::find() {
    const bool found = m_view->findFunc(m_find->text());
    // A red frame says nothing matched; the next edit clears it.
    m_find->setStyleSheet(found || m_find->text().isEmpty()
                              ? QString()
                              : QStringLiteral("QLineEdit { border: 1px solid #c03000; }"));
    if (found) m_view->setFocus(Qt::OtherFocusReason);
}

void DagPanel::updateCaption() {
    const auto &dag = m_hub->dag();
    if (!dag) {
        m_caption->setText(tr("<i>No pipeline loaded — pick an app and press Load.</i>"));
        return;
    }
    QString text = tr("<b>%1</b> · %2 Funcs, %3 stages")
                       .arg(QString::fromStdString(dag->pipelineName()).toHtmlEscaped())
                       .arg(dag->funcCount())
                       .arg(dag->stageCount());
    if (const SearchStepPtr &step = m_hub->step()) {
        QString pass = step->pass == 0
                           ? tr("pre-pass")
                           : (step->freezeRanking ? tr("pass %1 of %2 after the pre-pass")
                                                  : tr("pass %1 of %2"))
                                 .arg(step->pass)
                                 .arg(step->passes);
        // Freezing switched on but skipped on this pipeline: say why no stage is frozen.
        if (step->freezing.starts_with("off: "))
            pass += tr(", no freezing: %1").arg(QString::fromStdString(step->freezing.substr(5)));
        if (step->finished) {
            text += tr(" · <b>search finished</b> after step %1").arg(step->index + 1);
        } else {
            text += tr(" · step %1 (%2): decided <span style='color:#d55e00'><b>%3</b></span> — %4")
                        .arg(step->index + 1)
                        .arg(pass, QString::fromStdString(step->func).toHtmlEscaped(),
                             step->phase == Phase::ComputeLocation ? tr("compute location")
                                                                   : tr("tiling"));
        }
    } else {
        text += tr(" · no step yet");
    }
    if (!m_hub->stateLabel().isEmpty())
        text += tr(" · showing %1").arg(m_hub->stateLabel().toHtmlEscaped());
    m_caption->setText(text);
}

} // namespace beamscope
