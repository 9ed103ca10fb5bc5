// LoopNestView: the inspected state's loop nest as an expanded tree, with a caption naming the
// state; selecting a row selects its Func everywhere and vice versa.
#pragma once

#include <QWidget>

class QLabel;
class QTreeView;

namespace beamscope {

class FunctionDAG;
class LoopNestModel;
class SelectionHub;

class LoopNestView : public QWidget {
    Q_OBJECT
public:
    explicit LoopNestView(SelectionHub *hub, QWidget *parent = nullptr);

    LoopNestModel *model() const { return m_model; }

private:
    void showState();
    void showFunc(int node);

    SelectionHub *m_hub;
    LoopNestModel *m_model;
    QLabel *m_caption;
    QTreeView *m_tree;
    bool m_syncing = false;
    const FunctionDAG *m_sizedFor = nullptr; ///< the pipeline the columns were sized for
    int m_sizedRows = 0;                     ///< rows when they were sized
};

} // namespace beamscope
