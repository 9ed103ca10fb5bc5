// The main window on a real search: a Func selected in one view is selected in the others, pins
// asked for in a view restart the search with them (and impossible pins are refused with a
// one-line message), and option changes restart the search.
#include "MainWindow.h"

#include "controllers/SearchController.h"
#include "views/common/SelectionHub.h"
#include "views/dag/DagNodeItem.h"
#include "views/dag/DagPanel.h"
#include "views/dag/DagView.h"
#include "views/loopnest/LoopNestModel.h"
#include "views/loopnest/LoopNestView.h"

#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QTreeView>

using namespace beamscope;

class MainWindowTest : public QObject {
    Q_OBJECT
private:
    std::unique_ptr<MainWindow> m_window;

    void waitSettled() { QTRY_VERIFY_WITH_TIMEOUT(m_window->isSettled(), 120000); }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void init() {
        m_window = std::make_unique<MainWindow>();
        m_window->resize(1600, 1000);
        m_window->show();
        PipelineSource source;
        source.name = "stencil_chain";
        source.params = {"length=4"};
        m_window->loadPipeline(source, 30);
        waitSettled();
        QCOMPARE(m_window->searchController()->stepsDone(), 30);
    }

    void cleanup() { m_window.reset(); }

    void selectingAFuncSelectsItEverywhere() {
        SelectionHub *hub = m_window->hub();
        const StatePtr state = hub->state();
        QVERIFY(state);
        // A Func that has its own kernel in the inspected state.
        const int node = state->kernels().front()->node;
        hub->selectFunc(node);
        QVERIFY(m_window->dagPanel()->view()->nodeItem(node)->decoration().selected);
        auto *loops = m_window->findChild<LoopNestView *>();
        QVERIFY(loops);
        auto *tree = loops->findChild<QTreeView *>();
        QCOMPARE(loops->model()->funcOfRow(loops->model()->rowId(tree->currentIndex())), node);

        // And back: choosing a row of another Func in the loop nest selects that Func.
        const int other = state->kernels().back()->node;
        const std::vector<int> rows = loops->model()->rowsOfFunc(other);
        QVERIFY(!rows.empty());
        tree->setCurrentIndex(loops->model()->indexOfRow(rows.front()));
        QCOMPARE(hub->selectedFunc(), other);
        QVERIFY(m_window->dagPanel()->view()->nodeItem(other)->decoration().selected);
    }

    void pinsRestartTheSearchOrAreRefused() {
        SelectionHub *hub = m_window->hub();
        SearchController *search = m_window->searchController();
        QSignalSpy reset(search, &SearchController::searchReset);
        QSignalSpy errors(m_window.get(), &MainWindow::errorShown);
        Pin pin;
        pin.func = "stage_1";
        pin.location = ComputeKind::Root;
        hub->requestPins({pin});
        QCOMPARE(hub->pins().size(), size_t(1));
        QCOMPARE(search->options().pins.size(), size_t(1));
        QTRY_COMPARE_WITH_TIMEOUT(reset.count(), 1, 30000);
        search->runToEnd();
        waitSettled();
        const int node = search->dag()->find("stage_1");
        QCOMPARE(search->lastStep()->beam.front().state->placement(node).kind, ComputeKind::Root);
        QVERIFY(m_window->dagPanel()->view()->nodeItem(node)->decoration().pinned);

        Pin impossible;
        impossible.func = "output";
        impossible.location = ComputeKind::Inline;
        hub->requestPins({pin, impossible});
        QCOMPARE(errors.count(), 1);
        QVERIFY(errors.front().front().toString().contains("output"));
        QCOMPARE(hub->pins().size(), size_t(1)); // refused: the pins in force stay
    }
};

QTEST_MAIN(MainWindowTest)
#include "MainWindowTest.moc"
