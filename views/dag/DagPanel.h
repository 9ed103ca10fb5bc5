// DagPanel: the DAG view with what a user needs around it — a caption saying which step and
// Func are shown, a find-by-name field (Ctrl+F; completes Func names), zoom and fit buttons,
// and the legend underneath.
#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;

namespace beamscope {

class DagView;
class DagLegend;
class SelectionHub;

class DagPanel : public QWidget {
    Q_OBJECT
public:
    explicit DagPanel(SelectionHub *hub, QWidget *parent = nullptr);

    DagView *view() const { return m_view; }
    QLineEdit *findField() const { return m_find; }

private:
    void updateCaption();
    void updateCompletions();
    void find();

    SelectionHub *m_hub;
    QLabel *m_caption;
    DagView *m_view;
    DagLegend *m_legend;
    QLineEdit *m_find;
};

} // namespace beamscope
