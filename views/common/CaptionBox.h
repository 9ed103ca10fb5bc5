// A box around a word-wrapped caption whose text changes on every search step (the step's
// number, counts, a cost). A QLabel's new text invalidates every layout up to the main window,
// and each of them asks the label again for its height (a rich-text layout per question), a few
// milliseconds a caption a step (docs/performance.md, "GUI latency"). The box takes the label's
// layout requests itself and passes one on only when the label needs another height at the
// box's width; the label stays a QLabel (links, palette, findChild<QLabel>).
#pragma once

#include <QWidget>

class QLabel;

namespace beamscope {

class CaptionBox : public QWidget {
    Q_OBJECT
public:
    /// Takes `label` as its only child; it should already be word-wrapped (captions are).
    explicit CaptionBox(QLabel *label, QWidget *parent = nullptr);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;

protected:
    bool event(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void showEvent(QShowEvent *event) override; ///< text set while hidden posted no request

private:
    /// Fits the label to the box; asks the box's own layout for another height only when the
    /// label's height at this width has changed.
    void refit();

    QLabel *m_label;
};

} // namespace beamscope
