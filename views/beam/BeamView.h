// BeamView: the beam after the current step as a table; selecting a row inspects that state,
// and rows that decide the selected Func differently are emphasized.
#pragma once

#include <QWidget>

class QLabel;
class QTreeView;

namespace beamscope {

class BeamModel;
class SelectionHub;

class BeamView : public QWidget {
    Q_OBJECT
public:
    explicit BeamView(SelectionHub *hub, QWidget *parent = nullptr);

    BeamModel *model() const { return m_model; }

private:
    void showStep();

    SelectionHub *m_hub;
    BeamModel *m_model;
    QLabel *m_caption;
    QTreeView *m_table;
};

} // namespace beamscope
