// DagLegend: the key to the DAG view's colours and marks — one swatch per compute location,
// then the input/output shapes, the "being decided" and "selected" outlines and the badges.
// Items flow onto as many lines as the width needs.
#pragma once

#include <QWidget>

namespace beamscope {

class DagLegend : public QWidget {
    Q_OBJECT
public:
    explicit DagLegend(QWidget *parent = nullptr);

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    /// Lays the items out for `width`; paints them if `painter` is set; returns the height.
    int layoutItems(int width, class QPainter *painter) const;
};

} // namespace beamscope
