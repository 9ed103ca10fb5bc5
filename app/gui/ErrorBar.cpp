// ErrorBar: label and close button on a light red frame.
#include "ErrorBar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace beamscope {

ErrorBar::ErrorBar(QWidget *parent)
    : QFrame(parent), m_label(new QLabel(this)), m_close(new QToolButton(this)) {
    setObjectName(QStringLiteral("errorBar"));
    setFrameShape(QFrame::StyledPanel);
    setStyleSheet(QStringLiteral("#errorBar { background: #fde8e4; border: 1px solid #d9826f; }"
                                 "#errorBar QLabel { color: #8a1c00; }"));
    m_label->setWordWrap(true);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_close->setText(QStringLiteral("✕"));
    m_close->setAutoRaise(true);
    m_close->setToolTip(tr("Dismiss"));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 2, 2, 2);
    layout->addWidget(m_label, 1);
    layout->addWidget(m_close, 0, Qt::AlignTop);
    connect(m_close, &QToolButton::clicked, this, &ErrorBar::dismiss);
    hide();
}

void ErrorBar::showMessage(const QString &message) {
    m_label->setText(message);
    show();
}

QString ErrorBar::message() const {
    return isHidden() ? QString() : m_label->text();
}

void ErrorBar::dismiss() {
    m_label->clear();
    hide();
}

} // namespace beamscope
