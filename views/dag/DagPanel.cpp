// DagPanel: caption, zoom buttons, view and legend in one column.
#include "views/dag/DagPanel.h"

#include "views/common/SelectionHub.h"
#include "views/dag/DagLegend.h"
#include "views/dag/DagView.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

namespace beamscope {

DagPanel::DagPanel(SelectionHub *hub, QWidget *parent)
    : QWidget(parent), m_hub(hub), m_caption(new QLabel(this)), m_view(new DagView(hub, this)),
      m_legend(new DagLegend(this)) {
    m_caption->setTextFormat(Qt::RichText);
    m_caption->setWordWrap(true);
    auto *header = new QHBoxLayout;
    header->setContentsMargins(6, 4, 6, 0);
    header->addWidget(m_caption, 1);
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
    connect(hub, &SelectionHub::stateChanged, this, &DagPanel::updateCaption);
    updateCaption();
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
        const QString pass = step->pass == 0
                                 ? tr("pre-pass")
                                 : tr("pass %1 of %2").arg(step->pass).arg(step->passes);
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
