// DagView: the pipeline's Func DAG laid out by dot (on a worker thread), drawn with each Func's
// current compute location, the Func being decided, the selected Func, frozen and pinned badges
// and call counts on edges. Wheel zooms at the cursor, dragging pans, Ctrl+0 or double-click on
// the background fits. Clicking a Func selects it everywhere; its context menu edits pins.
// Until the user zooms or pans, the view keeps text readable: a graph too big to fit at a
// readable scale is shown at that scale and scrolled to follow the Func being decided. Fit shows
// the whole graph at any size (and keeps doing so as the view is resized); zooming out stops
// there. findFunc() centres a Func by name; a graph larger than the view gets an overview in
// the corner (DagOverview) to see where the view is and to click elsewhere.
#pragma once

#include "views/dag/DagLayout.h"

#include <QGraphicsView>

#include <memory>
#include <vector>

namespace beamscope {

class DagEdgeItem;
class DagLayouter;
class DagOverview;
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
    /// The scale at which the whole graph fits the view (at most a little above 1).
    double wholeGraphScale() const;
    /// The scale on screen.
    double currentScale() const;
    /// Selects the Func named `text` (exactly, else by prefix, else containing it; case
    /// insensitive; the first in DAG order) and centres it at a readable scale. False if none.
    bool findFunc(const QString &text);
    /// The overview shown in the corner while the graph is larger than the view.
    DagOverview *overview() const { return m_overview; }

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
    void fitWhole();
    void follow();
    void placeOverview();
    void zoomBy(double factor);
    DagNodeItem *itemAt(const QPoint &viewPos) const;

    SelectionHub *m_hub;
    DagLayouter *m_layouter;
    QGraphicsScene *m_scene;
    std::shared_ptr<const DagLayout> m_layout;
    std::vector<DagNodeItem *> m_nodes; ///< by node index
    std::vector<DagEdgeItem *> m_edges; ///< by edge index
    /// What a resize keeps: a readable scale (until the user zooms or pans), the whole graph
    /// (after Fit), or whatever the user chose.
    enum class FitMode { Readable, Whole, Free };
    FitMode m_fit = FitMode::Readable;
    bool m_follow = true; ///< scroll to the Func being decided
    DagOverview *m_overview;
};

} // namespace beamscope
