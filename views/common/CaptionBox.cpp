// CaptionBox: a per-step caption's layout requests stop here unless its height changes.
#include "views/common/CaptionBox.h"

#include <QEvent>
#include <QLabel>

#include <algorithm>

namespace beamscope {

CaptionBox::CaptionBox(QLabel *label, QWidget *parent) : QWidget(parent), m_label(label) {
    m_label->setParent(this);
    setSizePolicy(m_label->sizePolicy());
    m_label->setGeometry(rect());
}

int CaptionBox::heightForWidth(int width) const {
    const int wanted = m_label->hasHeightForWidth() ? m_label->heightForWidth(width)
                                                    : m_label->sizeHint().height();
    return std::max(wanted, m_label->minimumHeight());
}

QSize CaptionBox::sizeHint() const {
    const QSize hint = m_label->sizeHint();
    return {hint.width(), heightForWidth(hint.width())};
}

QSize CaptionBox::minimumSizeHint() const {
    return m_label->minimumSizeHint().expandedTo(m_label->minimumSize());
}

bool CaptionBox::event(QEvent *event) {
    // The box has no layout: the label's updateGeometry() posts its layout request here.
    if (event->type() == QEvent::LayoutRequest) refit();
    return QWidget::event(event);
}

void CaptionBox::resizeEvent(QResizeEvent *event) {
    QWidget::resizeEvent(event);
    refit();
}

void CaptionBox::showEvent(QShowEvent *event) {
    QWidget::showEvent(event);
    refit();
}

void CaptionBox::refit() {
    m_label->setGeometry(rect());
    if (heightForWidth(width()) != height()) updateGeometry();
}

} // namespace beamscope
