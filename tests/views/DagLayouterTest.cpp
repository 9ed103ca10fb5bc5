// DagLayouter and DagView tests: dot positions every node of local_laplacian (88 Funcs) off the
// GUI thread, layouts from two threads at once are serialized by the Graphviz mutex, a newer
// request drops an older result, and the view decorates nodes from a real search step.
#include "RealSearch.h"

#include "views/common/SelectionHub.h"
#include "views/dag/DagLayouter.h"
#include "views/dag/DagNodeItem.h"
#include "views/dag/DagView.h"
#include "views/dag/GraphvizLayout.h"

#include <QGraphicsScene>
#include <QSignalSpy>
#include <QTest>

#include <cmath>
#include <future>

using namespace beamscope;

Q_DECLARE_METATYPE(std::shared_ptr<const beamscope::DagLayout>)

namespace {
DagLayoutRequest requestFor(const FunctionDAG &dag) {
    DagLayoutRequest r;
    r.dag = &dag;
    for (const Node &n : dag.nodes())
        r.nodeSizes.push_back(DagNodeItem::preferredSize(n));
    return r;
}
} // namespace

class DagLayouterTest : public QObject {
    Q_OBJECT
private:
    std::shared_ptr<const FunctionDAG> m_laplacian;

    static void checkLayout(const DagLayout &layout, const FunctionDAG &dag) {
        QCOMPARE(layout.nodes.size(), dag.nodes().size());
        QCOMPARE(layout.edges.size(), dag.edges().size());
        QVERIFY(layout.bounds.width() > 0 && layout.bounds.height() > 0);
        for (size_t i = 0; i < layout.nodes.size(); ++i) {
            const QRectF &r = layout.nodes[i].rect;
            QCOMPARE(layout.nodes[i].node, int(i));
            QVERIFY(std::isfinite(r.x()) && std::isfinite(r.y()) && !r.isEmpty());
            QVERIFY2(layout.bounds.adjusted(-1, -1, 1, 1).contains(r),
                     qPrintable(QString::fromStdString(dag.node(int(i)).name)));
            for (size_t j = 0; j < i; ++j)
                QVERIFY(!r.adjusted(1, 1, -1, -1).intersects(layout.nodes[j].rect));
        }
        for (const DagLayout::EdgePath &e : layout.edges) {
            QVERIFY(!e.path.isEmpty());
            QCOMPARE(e.label, QString::number(dag.edge(e.edge).calls.size()));
        }
    }

private Q_SLOTS:
    void initTestCase() {
        qRegisterMetaType<std::shared_ptr<const DagLayout>>();
        m_laplacian = test::loadDag("local_laplacian", {});
        QVERIFY(m_laplacian->nodes().size() > 80);
    }

    void layouterPositionsEveryNodeOfLocalLaplacian() {
        DagLayouter layouter;
        QSignalSpy ready(&layouter, &DagLayouter::layoutReady);
        QElapsedTimer timer;
        timer.start();
        layouter.layout(requestFor(*m_laplacian), m_laplacian);
        QVERIFY(layouter.isBusy());
        QVERIFY(ready.wait(60000));
        qInfo("local_laplacian: %zu nodes laid out in %lld ms", m_laplacian->nodes().size(),
              timer.elapsed());
        QCOMPARE(ready.count(), 1);
        checkLayout(*ready.front().front().value<std::shared_ptr<const DagLayout>>(), *m_laplacian);
        QVERIFY(!layouter.isBusy());
    }

    void newerRequestDropsOlderResult() {
        auto small = test::loadDag("stencil_chain", {"length=3"});
        DagLayouter layouter;
        QSignalSpy ready(&layouter, &DagLayouter::layoutReady);
        layouter.layout(requestFor(*m_laplacian), m_laplacian);
        layouter.layout(requestFor(*small), small);
        QTRY_VERIFY_WITH_TIMEOUT(!layouter.isBusy(), 60000);
        QCOMPARE(ready.count(), 1);
        QCOMPARE(ready.front().front().value<std::shared_ptr<const DagLayout>>()->nodes.size(),
                 small->nodes().size());
    }

    void concurrentLayoutsAreSerialized() {
        // Graphviz is not thread-safe: two threads laying out at once must both succeed.
        const DagLayoutRequest request =
            requestFor(*m_laplacian); // fonts are measured on this thread
        auto a = std::async(std::launch::async, [&] { return computeDagLayout(request); });
        auto b = std::async(std::launch::async, [&] { return computeDagLayout(request); });
        const DagLayout la = a.get(), lb = b.get();
        checkLayout(la, *m_laplacian);
        for (size_t i = 0; i < la.nodes.size(); ++i)
            QCOMPARE(la.nodes[i].rect, lb.nodes[i].rect);
    }

    void viewDecoratesNodesFromTheInspectedState() {
        const test::RealSearch search =
            test::runSearch("stencil_chain", {"length=4"}, test::testOptions(4, 1), 6);
        SelectionHub hub;
        DagView view(&hub);
        view.resize(800, 600);
        QSignalSpy shown(&view, &DagView::layoutShown);
        hub.setDag(search.dag);
        QVERIFY(shown.wait(30000));
        const SearchStepPtr step = search.steps.back();
        hub.setStep(step);
        const StatePtr &state = step->beam.front().state;
        for (const Node &n : search.dag->nodes()) {
            DagNodeItem *item = view.nodeItem(n.index);
            QVERIFY(item);
            if (!n.isInput) QCOMPARE(item->decoration().kind, state->placement(n.index).kind);
            QCOMPARE(item->decoration().deciding, n.index == step->node);
        }
        // The next snapshot decorates every node again; one that changes nothing repaints
        // nothing (GUI latency: the scene had repainted the window for each snapshot).
        QCoreApplication::processEvents();
        QSignalSpy changed(view.scene(), &QGraphicsScene::changed);
        hub.setStep(std::make_shared<SearchStep>(*step));
        QCoreApplication::processEvents();
        QCOMPARE(changed.count(), 0);
        hub.selectFunc(step->node);
        QVERIFY(view.nodeItem(step->node)->decoration().selected);
        QTRY_VERIFY(changed.count() > 0);
        Pin pin;
        pin.func = search.dag->node(step->node).name;
        pin.location = ComputeKind::Root;
        hub.setPins({pin});
        QVERIFY(view.nodeItem(step->node)->decoration().pinned);

        // A Func frozen by the pre-pass and not yet reached reads as such, not "unscheduled"
        // under its FROZEN badge (issue 35).
        DagNodeItem *item = view.nodeItem(step->node);
        DagNodeItem::Decoration frozen;
        frozen.frozen = true;
        item->setDecoration(frozen);
        QVERIFY2(item->subtitle().endsWith(QStringLiteral(" · as pre-pass")),
                 qPrintable(item->subtitle()));
        frozen.frozen = false;
        item->setDecoration(frozen);
        QVERIFY2(item->subtitle().endsWith(QStringLiteral(" · unscheduled")),
                 qPrintable(item->subtitle()));
    }
};

QTEST_MAIN(DagLayouterTest)
#include "DagLayouterTest.moc"
