// FlowLayout: lays its widgets out left to right and starts a new line when the next one does not
// fit, so that a dock's row of controls wraps onto two lines on a narrow screen instead of
// setting the window's minimum width (every item keeps its size hint).
#pragma once

#include <QLayout>
#include <QList>

#include <initializer_list>

namespace beamscope {

class FlowLayout : public QLayout {
public:
    explicit FlowLayout(QWidget *parent = nullptr, int spacing = 6);
    ~FlowLayout() override;

    void addItem(QLayoutItem *item) override;
    int count() const override;
    QLayoutItem *itemAt(int index) const override;
    QLayoutItem *takeAt(int index) override;
    Qt::Orientations expandingDirections() const override;
    bool hasHeightForWidth() const override;
    int heightForWidth(int width) const override;
    QSize minimumSize() const override;
    QSize sizeHint() const override;
    void setGeometry(const QRect &rect) override;

private:
    /// Places the items in `rect` (or only measures, when `apply` is false); returns the height
    /// used.
    int arrange(const QRect &rect, bool apply) const;

    QList<QLayoutItem *> m_items;
    int m_spacing;
};

/// Widgets that wrap as one (a label and its box): a row of its own, no margins.
QWidget *controlGroup(std::initializer_list<QWidget *> widgets);

} // namespace beamscope
