// BeamView: the beam after the current step as a table; selecting a row inspects that state,
// and rows that decide the selected Func differently are emphasized. A right click on a row
// offers to compare it side by side (compareRequested).
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
    QTreeView *table() const { return m_table; }

Q_SIGNALS:
    /// The user asks to compare beam entry `rank` (0-based; -1: the search's result) of the step
    /// on screen, as side `side` (0: A, 1: B); `side` -1 compares it (B) with the best (A).
    void compareRequested(int rank, int side);

private:
    void showStep();

    SelectionHub *m_hub;
    BeamModel *m_model;
    QLabel *m_caption;
    QTreeView *m_table;
    // What the columns were last sized for (showStep).
    const void *m_sizedFor = nullptr;
    int m_sizedPass = -1;
    bool m_sizedWithResult = false;
    int m_sizedRows = 0;
};

} // namespace beamscope
