// DagView: the pipeline's Func DAG laid out by dot (on a worker thread), drawn with each Func's
// current compute location, the Func being decided, the selected Func, frozen and pinned badges
// and call counts on edges. Wheel zooms at the cursor, dragging pans, Ctrl+0 or double-click on
// the background fits. Clicking a Func selects it everywhere; its context menu edits pins.
// Until the user zooms or pans, the view keeps text readable: a graph too big to fit at a
// readable scale is shown at that scale and scrolled to follow the Func being decided.
#pragma once

#include "views/dag/DagLayout.h"

#include <QGraphicsView>

#include <memory>
#include <vector>

namespace beamscope {

class DagEdgeItem;
class DagLayouter;
class DagNodeItem;
class SelectionHub;

class DagView : public QGraphicsView {
    Q_OBJECT
public:
    explicit DagView(SelectionHub *hub, QWidget *parent = nullptr);
    ~DagView() override;

    /// True while a layout is being computed.
    bool isLayoutPending() const;
    /// The layout on screen (nullptr before the first one).
    const std::shared_ptr<const DagLayout> &currentLayout() const { return m_layout; }
    /// The item of Func `node` (nullptr if none).
    DagNodeItem *nodeItem(int node) const;

public Q_SLOTS:
    /// Shows the whole graph, however small.
    void fitAll();
    void zoomIn();
    void zoomOut();

Q_SIGNALS:
    /// A layout was put on screen.
    void layoutShown();
    /// Graphviz failed (one line).
    void layoutFailed(const QString &message);

protected:
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;

private:
    void requestLayout();
    void showLayout(std::shared_ptr<const DagLayout> layout);
    void redecorate();
    void autoFit();
    void follow();
    void zoomBy(double factor);
    DagNodeItem *itemAt(const QPoint &viewPos) const;

    SelectionHub *m_hub;
    DagLayouter *m_layouter;
    QGraphicsScene *m_scene;
    std::shared_ptr<const DagLayout> m_layout;
    std::vector<DagNodeItem *> m_nodes; ///< by node index
    std::vector<DagEdgeItem *> m_edges; ///< by edge index
    bool m_autoFit = true;              ///< refit on resize (until the user zooms or pans)
    bool m_follow = true;               ///< scroll to the Func being decided
};

} // namespace beamscope
