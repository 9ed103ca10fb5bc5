// DagPanel: the DAG view with what a user needs around it — a caption saying which step and
// Func are shown, zoom and fit buttons, and the legend underneath.
#pragma once

#include <QWidget>

class QLabel;

namespace beamscope {

class DagView;
class DagLegend;
class SelectionHub;

class DagPanel : public QWidget {
    Q_OBJECT
public:
    explicit DagPanel(SelectionHub *hub, QWidget *parent = nullptr);

    DagView *view() const { return m_view; }

private:
    void updateCaption();

    SelectionHub *m_hub;
    QLabel *m_caption;
    DagView *m_view;
    DagLegend *m_legend;
};

} // namespace beamscope
