// DagView: scene building from a layout, decoration from the selection hub, zoom and pan.
//   requestLayout() / showLayout()  node sizes -> DagLayouter (worker thread) -> scene items
//   redecorate()                    colours, outlines and badges from the hub's state and step
//   fitAll() / autoFit() / follow() what part of the graph is shown, at what scale
//   mouse, wheel and key events     selection, context menu, zoom, pan
#include "views/dag/DagView.h"

#include "views/common/Format.h"
#include "views/common/PinEdits.h"
#include "views/common/SelectionHub.h"
#include "views/dag/DagEdgeItem.h"
#include "views/dag/DagLayouter.h"
#include "views/dag/DagNodeItem.h"
#include "views/dag/DagOverview.h"
#include "views/dag/DagPinMenu.h"

#include "search/SearchEngine.h"

#include <QContextMenuEvent>
#include <QGraphicsScene>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace beamscope {

namespace {
constexpr double kMaxFitScale = 1.15;
constexpr double kMinReadableScale = 0.7; ///< 10 pt names stay about 7 pt on screen
constexpr double kMinScale = 0.05, kMaxScale = 6.0;

/// Where the pre-pass ranked `node` for freezing (cheapest first), in words; empty when the
/// step has no ranking (before the pre-pass ends, without freezing) or the Func is not in it.
QString freezeNote(const SearchStep &step, int node) {
    if (!step.freezeRanking) return {};
    const std::vector<FreezeRank> &ranking = *step.freezeRanking;
    const auto it = std::find_if(ranking.begin(), ranking.end(),
                                 [&](const FreezeRank &r) { return r.node == node; });
    if (it == ranking.end()) return {};
    return QStringLiteral(
               "freezing: rank %1 of %2, cheapest first, at %3 in the pre-pass's best: %4")
        .arg(int(it - ranking.begin()) + 1)
        .arg(int(ranking.size()))
        .arg(format::ms(it->cost),
             it->frozen ? QStringLiteral("frozen") : QStringLiteral("left under search"));
}
} // namespace

DagView::DagView(SelectionHub *hub, QWidget *parent)
    : QGraphicsView(parent), m_hub(hub), m_layouter(new DagLayouter(this)),
      m_scene(new QGraphicsScene(this)), m_overview(new DagOverview(this)) {
    setScene(m_scene);
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setResizeAnchor(QGraphicsView::AnchorViewCenter);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    setBackgroundBrush(QColor(0xfb, 0xfb, 0xfc));
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(200, 100);

    connect(horizontalScrollBar(), &QScrollBar::valueChanged, m_overview,
            qOverload<>(&QWidget::update));
    connect(verticalScrollBar(), &QScrollBar::valueChanged, m_overview,
            qOverload<>(&QWidget::update));
    connect(m_scene, &QGraphicsScene::changed, m_overview, &DagOverview::sceneChanged);
    connect(m_layouter, &DagLayouter::layoutReady, this, &DagView::showLayout);
    connect(m_layouter, &DagLayouter::layoutFailed, this, &DagView::layoutFailed);
    connect(m_hub, &SelectionHub::dagChanged, this, &DagView::requestLayout);
    connect(m_hub, &SelectionHub::stateChanged, this, &DagView::redecorate);
    connect(m_hub, &SelectionHub::stepChanged, this, [this] {
        redecorate();
        follow();
    });
    connect(m_hub, &SelectionHub::pinsChanged, this, &DagView::redecorate);
    connect(m_hub, &SelectionHub::funcSelected, this, [this](int node) {
        redecorate();
        if (node >= 0 && node < int(m_nodes.size()) && m_nodes[size_t(node)]) {
            ensureVisible(m_nodes[size_t(node)], 40, 40);
        }
    });
    if (m_hub->dag()) requestLayout();
    connect(this, &DagView::layoutFailed, this, [this](const QString &message) {
        m_scene->addText(tr("Graphviz could not lay the graph out: %1").arg(message));
    });
}

DagView::~DagView() = default;

bool DagView::isLayoutPending() const {
    return m_layouter->isBusy();
}

DagNodeItem *DagView::nodeItem(int node) const {
    return node >= 0 && node < int(m_nodes.size()) ? m_nodes[size_t(node)] : nullptr;
}

void DagView::requestLayout() {
    m_scene->clear();
    m_nodes.clear();
    m_edges.clear();
    m_layout.reset();
    const auto &dag = m_hub->dag();
    if (!dag) return;
    DagLayoutRequest request;
    request.dag = dag.get();
    for (const Node &node : dag->nodes())
        request.nodeSizes.push_back(DagNodeItem::preferredSize(node));
    const QSize viewport = this->viewport()->size();
    request.viewAspect = viewport.height() > 0 ? double(viewport.width()) / viewport.height() : 1.5;
    m_layouter->layout(std::move(request), dag);
}

void DagView::showLayout(std::shared_ptr<const DagLayout> layout) {
    const auto &dag = m_hub->dag();
    if (!dag || layout->nodes.size() != dag->nodes().size()) return;
    m_scene->clear();
    m_nodes.assign(dag->nodes().size(), nullptr);
    m_edges.assign(dag->edges().size(), nullptr);
    for (const DagLayout::EdgePath &path : layout->edges) {
        auto *item = new DagEdgeItem(path, dag->edge(path.edge).allAffine);
        m_scene->addItem(item);
        m_edges[size_t(path.edge)] = item;
    }
    for (const DagLayout::NodeBox &box : layout->nodes) {
        auto *item = new DagNodeItem(dag->node(box.node), box.rect);
        m_scene->addItem(item);
        m_nodes[size_t(box.node)] = item;
    }
    m_layout = std::move(layout);
    m_scene->setSceneRect(m_layout->bounds.adjusted(-30, -30, 30, 30));
    redecorate();
    m_fit = FitMode::Readable;
    m_follow = true;
    autoFit();
    Q_EMIT layoutShown();
}

void DagView::redecorate() {
    const auto &dag = m_hub->dag();
    if (!dag || m_nodes.size() != dag->nodes().size()) return;
    const StatePtr &state = m_hub->state();
    const SearchStepPtr &step = m_hub->step();
    const int selected = m_hub->selectedFunc();
    for (const Node &node : dag->nodes()) {
        DagNodeItem *item = m_nodes[size_t(node.index)];
        if (!item) continue;
        DagNodeItem::Decoration d;
        if (state && !node.isInput) {
            d.kind = state->placement(node.index).kind;
            d.placement = format::placement(*state, node.index);
        } else {
            d.placement = QStringLiteral("unscheduled");
        }
        d.frozen = m_hub->isFrozen(node.index);
        if (step) d.searchNote = freezeNote(*step, node.index);
        if (state && d.kind == ComputeKind::Inline &&
            SearchEngine::readsInPlace(node, m_hub->pins())) {
            d.searchNote = QStringLiteral("wraps an input buffer: read in place from the first "
                                          "step, never searched (pin it to search it)");
        }
        if (const Pin *pin = m_hub->pinFor(node.name)) {
            d.pinned = true;
            d.pin = QString::fromStdString(pinDescription(*pin));
        }
        d.deciding = step && !step->finished && step->node == node.index;
        d.selected = selected == node.index;
        item->setDecoration(d);
    }
    for (size_t e = 0; e < m_edges.size(); ++e) {
        if (!m_edges[e]) continue;
        const Edge &edge = dag->edge(int(e));
        m_edges[e]->setHighlighted(selected >= 0 &&
                                   (edge.producer == selected || edge.consumer == selected));
    }
}

double DagView::wholeGraphScale() const {
    const QRectF rect = sceneRect();
    // The viewport without scroll bars: once the graph fits, they go.
    const QSize view = maximumViewportSize();
    if (rect.isEmpty() || view.isEmpty()) return 1.0;
    // A few pixels short of the viewport: an exact fit can round up and bring the scroll bars
    // back, which shrink the viewport below the graph.
    const double fit =
        std::min((view.width() - 4) / rect.width(), (view.height() - 4) / rect.height());
    return std::clamp(fit, kMinScale, kMaxFitScale);
}

double DagView::currentScale() const {
    return transform().m11();
}

void DagView::fitAll() {
    if (!m_layout) return;
    m_fit = FitMode::Whole;
    m_follow = false;
    fitWhole();
}

void DagView::fitWhole() {
    const double scale = wholeGraphScale();
    setTransform(QTransform::fromScale(scale, scale));
    centerOn(sceneRect().center());
    placeOverview();
}

void DagView::autoFit() {
    if (!m_layout) return;
    const double scale = std::clamp(wholeGraphScale(), kMinReadableScale, kMaxFitScale);
    setTransform(QTransform::fromScale(scale, scale));
    centerOn(sceneRect().center());
    follow();
    placeOverview();
}

void DagView::follow() {
    const SearchStepPtr &step = m_hub->step();
    if (!m_follow || !step || step->finished) return;
    if (DagNodeItem *item = nodeItem(step->node)) ensureVisible(item, 60, 60);
}

bool DagView::findFunc(const QString &text) {
    const auto &dag = m_hub->dag();
    const QString wanted = text.trimmed();
    if (!dag || wanted.isEmpty()) return false;
    int found = -1;
    for (auto matches :
         {+[](const QString &n, const QString &w) {
              return n.compare(w, Qt::CaseInsensitive) == 0;
          },
          +[](const QString &n, const QString &w) { return n.startsWith(w, Qt::CaseInsensitive); },
          +[](const QString &n, const QString &w) { return n.contains(w, Qt::CaseInsensitive); }}) {
        for (const Node &node : dag->nodes()) {
            if (found < 0 && matches(QString::fromStdString(node.name), wanted)) found = node.index;
        }
    }
    DagNodeItem *item = nodeItem(found);
    if (!item) return false;
    m_fit = FitMode::Free;
    m_follow = false;
    if (currentScale() < kMinReadableScale)
        setTransform(QTransform::fromScale(kMinReadableScale, kMinReadableScale));
    m_hub->selectFunc(found);
    centerOn(item);
    placeOverview();
    return true;
}

void DagView::zoomBy(double factor) {
    // Not below the whole graph (a smaller thumbnail only scrolls), not above kMaxScale.
    const double floor = std::min(wholeGraphScale(), kMinReadableScale);
    const double scale = std::clamp(currentScale() * factor, floor, kMaxScale);
    if (scale == currentScale()) return;
    this->scale(scale / currentScale(), scale / currentScale());
    m_fit = scale <= wholeGraphScale() ? FitMode::Whole : FitMode::Free;
    m_follow = false;
    placeOverview();
}

void DagView::zoomIn() {
    zoomBy(1.25);
}
void DagView::zoomOut() {
    zoomBy(0.8);
}

void DagView::wheelEvent(QWheelEvent *event) {
    zoomBy(std::pow(1.0015, event->angleDelta().y()));
    event->accept();
}

DagNodeItem *DagView::itemAt(const QPoint &viewPos) const {
    for (QGraphicsItem *item : items(viewPos)) {
        if (auto *node = dynamic_cast<DagNodeItem *>(item)) return node;
    }
    return nullptr;
}

void DagView::mousePressEvent(QMouseEvent *event) {
    if (event->button() == Qt::LeftButton) {
        if (DagNodeItem *node = itemAt(event->position().toPoint())) {
            m_hub->selectFunc(node->node());
            event->accept();
            return;
        }
        // The user pans: leave the view where they put it.
        if (m_fit != FitMode::Whole) m_fit = FitMode::Free;
        m_follow = false;
    }
    QGraphicsView::mousePressEvent(event);
}

void DagView::mouseDoubleClickEvent(QMouseEvent *event) {
    if (!itemAt(event->position().toPoint()))
        fitAll();
    else
        QGraphicsView::mouseDoubleClickEvent(event);
}

void DagView::contextMenuEvent(QContextMenuEvent *event) {
    DagNodeItem *node = itemAt(event->pos());
    if (!node || !m_hub->dag() || m_hub->dag()->node(node->node()).isInput) return;
    m_hub->selectFunc(node->node());
    execDagMenu(*m_hub, node->node(), event->globalPos(), this);
}

void DagView::resizeEvent(QResizeEvent *event) {
    QGraphicsView::resizeEvent(event);
    if (m_fit == FitMode::Readable)
        autoFit();
    else if (m_fit == FitMode::Whole)
        fitWhole();
    placeOverview();
}

void DagView::placeOverview() {
    if (!m_layout) {
        m_overview->hide();
        return;
    }
    // Only while some of the graph is off screen.
    const QRectF shown = mapToScene(viewport()->rect()).boundingRect();
    const QRectF graph = m_layout->bounds;
    m_overview->setVisible(!shown.contains(graph));
    m_overview->placeIn(viewport()->geometry());
    m_overview->update();
}

void DagView::keyPressEvent(QKeyEvent *event) {
    if (event->modifiers() & Qt::ControlModifier) {
        switch (event->key()) {
        case Qt::Key_Plus:
        case Qt::Key_Equal:
            zoomIn();
            return;
        case Qt::Key_Minus:
            zoomOut();
            return;
        case Qt::Key_0:
            fitAll();
            return;
        default:
            break;
        }
    }
    QGraphicsView::keyPressEvent(event);
}

} // namespace beamscope
