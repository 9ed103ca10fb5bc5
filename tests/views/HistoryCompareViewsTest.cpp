// The Timeline and Compare views: TimelineModel and CompareModel under QAbstractItemModelTester
// with expectations built independently (hand-made steps; two hand-built schedules of
// stencil_chain that differ in one Func, with hand-made per-stage costs), the timeline's slider
// and caption, a click on the best-cost chart going to the step under it, the paired bars, and
// the compare view's one-click pin. No search runs (well under a second).
#include "RealSearch.h"

#include "views/common/CaptionBox.h"
#include "views/common/SelectionHub.h"
#include "views/compare/CompareChart.h"
#include "views/compare/CompareModel.h"
#include "views/compare/CompareView.h"
#include "views/cost/BestCostChart.h"
#include "views/history/TimelineModel.h"
#include "views/history/TimelinePanel.h"

#include <QAbstractItemModelTester>
#include <QChart>
#include <QFont>
#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSlider>
#include <QTest>
#include <QTreeView>
#include <QVBoxLayout>
#include <QValueAxis>

using namespace beamscope;

namespace {

/// Every Func inline where it can be, root (provisional tiling) where not, and `rootNode` root.
StatePtr buildState(const std::shared_ptr<const FunctionDAG> &dag, int rootNode) {
    StatePtr s = ScheduleState::initial(dag);
    for (int node : dag->outputsFirst()) {
        if (dag->node(node).isInput) continue;
        if (dag->node(node).isOutput || node == rootNode || !s->canInline(node))
            s = s->withRootTiling(node, ScheduleState::provisionalTiling(*dag, node));
        else
            s = s->withInline(node);
    }
    return s;
}

/// A cost for every stage of every root Func of `state`: compute node + 1 (+ `extra` on
/// `extraNode`), load 0.25.
StateCost buildCost(const ScheduleState &state, int extraNode, double extra) {
    StateCost cost;
    for (int node : state.dag().outputsFirst()) {
        if (state.placement(node).kind != ComputeKind::Root) continue;
        for (int st = 0; st < int(state.dag().node(node).stages.size()); ++st) {
            StageCost c;
            c.node = node;
            c.stage = st;
            c.terms[0] = node + 1 + (node == extraNode ? extra : 0);
            c.terms[1] = 0.25;
            cost.stages.push_back(c);
            cost.total += c.total();
        }
    }
    return cost;
}

/// Counts the layout requests its watched widget receives.
class LayoutRequestCounter : public QObject {
public:
    explicit LayoutRequestCounter(int *count) : m_count(count) {}
    bool eventFilter(QObject *watched, QEvent *event) override {
        if (event->type() == QEvent::LayoutRequest) ++*m_count;
        return QObject::eventFilter(watched, event);
    }

private:
    int *m_count;
};

/// Handles every posted event, and those they post in turn (layout requests go up a level each).
void settle() {
    for (int i = 0; i < 8; ++i) {
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents();
    }
}

TimelineEntry entry(int k, const std::string &func, double best) {
    TimelineEntry e;
    e.index = k;
    e.pass = k < 2 ? 0 : 1;
    e.func = func;
    e.phase = k % 2 ? Phase::Tiling : Phase::ComputeLocation;
    e.candidates = 10 * (k + 1);
    e.sampled = k + 1;
    e.pruned = k;
    e.bestCost = best;
    return e;
}

} // namespace

class HistoryCompareViewsTest : public QObject {
    Q_OBJECT
private:
    std::shared_ptr<const FunctionDAG> m_dag;
    int m_output = -1;
    int m_changed = -1; ///< inline in A, root in B
    CompareSide m_a, m_b;

private Q_SLOTS:
    void initTestCase() {
        m_dag = test::loadDag("stencil_chain", {"length=4"});
        StatePtr probe = ScheduleState::initial(m_dag);
        for (int node : m_dag->outputsFirst()) {
            const Node &n = m_dag->node(node);
            if (n.isOutput) m_output = node;
        }
        StatePtr a = buildState(m_dag, -1);
        for (int node : m_dag->outputsFirst()) {
            if (!m_dag->node(node).isInput && a->placement(node).kind == ComputeKind::Inline) {
                m_changed = node;
                break;
            }
        }
        QVERIFY(m_output >= 0 && m_changed >= 0);
        StatePtr b = buildState(m_dag, m_changed);
        m_a = {a, buildCost(*a, -1, 0), QStringLiteral("left"), std::nullopt, {}, {}};
        m_b = {b, buildCost(*b, m_output, 0.5), QStringLiteral("right"), 1.5, {}, {}};
    }

    void compareModelAlignsFuncsAndHighlightsTheDifference() {
        CompareModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::Fatal);
        model.setSide(0, m_a);
        QVERIFY(!model.comparable());
        model.setSide(1, m_b);
        QVERIFY(model.comparable());
        QCOMPARE(model.differing(), std::vector<int>{m_changed});

        // One top-level row per Func, outputs first.
        std::vector<int> funcs;
        for (int node : m_dag->outputsFirst())
            if (!m_dag->node(node).isInput) funcs.push_back(node);
        QCOMPARE(model.rowCount(), int(funcs.size()));
        for (int r = 0; r < int(funcs.size()); ++r) {
            const QModelIndex name = model.index(r, CompareModel::NameColumn);
            const Node &n = m_dag->node(funcs[size_t(r)]);
            QCOMPARE(name.data().toString(), QString::fromStdString(n.name));
            const bool changed = funcs[size_t(r)] == m_changed;
            QCOMPARE(name.data(Qt::FontRole).value<QFont>().bold(), changed);
            QCOMPARE(model.index(r, CompareModel::BColumn).data(Qt::BackgroundRole).isValid(),
                     changed);
            // Stage rows under the Funcs either side tiles: the output and the changed Func.
            const bool tiled = funcs[size_t(r)] == m_output || changed;
            QCOMPARE(model.rowCount(name), tiled ? int(n.stages.size()) : 0);
        }
        const int changedRow = model.rowOfFunc(m_changed);
        QCOMPARE(model.indexOfRow(changedRow, CompareModel::AColumn).data().toString(),
                 QStringLiteral("inline"));
        QVERIFY2(model.indexOfRow(changedRow, CompareModel::BColumn)
                     .data()
                     .toString()
                     .startsWith("root"),
                 qPrintable(model.indexOfRow(changedRow, CompareModel::BColumn).data().toString()));
        // The stage row shows B's tiling: the provisional threads, per loop.
        const StageTiling t = ScheduleState::provisionalTiling(*m_dag, m_changed)[0];
        QStringList threads;
        for (int64_t v : t.threads)
            threads << QString::number(v);
        const QModelIndex stage =
            model.index(0, CompareModel::BColumn, model.indexOfRow(changedRow));
        QVERIFY2(stage.data().toString().contains("threads " + threads.join(QStringLiteral("×"))),
                 qPrintable(stage.data().toString()));
        QVERIFY(model.index(0, CompareModel::AColumn, model.indexOfRow(changedRow))
                    .data()
                    .toString()
                    .contains("not tiled"));

        // Costs: the sums of the hand-made stage costs; B - A on the output is +0.5 per stage.
        const double stages = double(m_dag->node(m_output).stages.size());
        QCOMPARE(model.cost(0, m_output), stages * (m_output + 1.25));
        QCOMPARE(model.cost(1, m_output), stages * (m_output + 1.75));
        QCOMPARE(model.cost(0, m_changed), 0.0);
        QCOMPARE(model.cost(1, m_changed), m_changed + 1.25);
        const int outputRow = model.rowOfFunc(m_output);
        QVERIFY(model.indexOfRow(outputRow, CompareModel::DeltaColumn)
                    .data()
                    .toString()
                    .startsWith("+"));
        QVERIFY(model.indexOfRow(outputRow, CompareModel::ACostColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains("compute"));

        // Swapping sides through the model keeps it consistent.
        model.setSide(0, m_b);
        model.setSide(1, m_a);
        QCOMPARE(model.differing(), std::vector<int>{m_changed});
        model.setSide(0, {});
        model.setSide(1, {});
        QCOMPARE(model.rowCount(), 0);
    }

    void compareChartPairsTheStages() {
        CompareChart chart;
        chart.show(m_a, m_b, -1);
        // Stages of root Funcs of either side, costliest (by the larger side) first.
        QStringList expected;
        std::vector<std::pair<double, int>> order;
        for (int node : m_dag->outputsFirst()) {
            if (m_b.state->placement(node).kind != ComputeKind::Root) continue;
            order.push_back({-(node + 1 + (node == m_output ? 0.5 : 0) + 0.25), node});
        }
        std::sort(order.begin(), order.end());
        for (const auto &[cost, node] : order)
            expected << QString::fromStdString(m_dag->node(node).stages[0].name);
        QCOMPARE(chart.categories(), expected);
        const std::vector<double> a = chart.values(0), b = chart.values(1);
        for (size_t i = 0; i < order.size(); ++i) {
            const int node = order[i].second;
            QCOMPARE(b[i], -order[i].first);
            QCOMPARE(a[i],
                     m_a.state->placement(node).kind == ComputeKind::Root ? node + 1 + 0.25 : 0.0);
        }
        chart.show(m_a, m_b, 1); // the load term only
        for (double v : chart.values(1))
            QCOMPARE(v, 0.25);
    }

    void compareViewPinsEitherSidesDecision() {
        SelectionHub hub;
        hub.setDag(m_dag);
        CompareView view(&hub);
        view.setSide(0, m_a);
        view.setSide(1, m_b);
        QVERIFY(view.summary().startsWith("1 "));
        QSignalSpy requested(&hub, &SelectionHub::pinsRequested);
        hub.selectFunc(m_changed);
        QCOMPARE(view.model()->funcOfRow(view.model()->rowId(view.tree()->currentIndex())),
                 m_changed);
        view.pinFromSelected(1);
        QCOMPARE(requested.count(), 1);
        auto pins = requested.last().front().value<std::vector<Pin>>();
        QCOMPARE(pins.size(), size_t(1));
        QCOMPARE(pins[0].func, m_dag->node(m_changed).name);
        QVERIFY(pins[0].location == ComputeKind::Root);
        QVERIFY(pins[0].frozen);
        view.pinFromSelected(0);
        pins = requested.last().front().value<std::vector<Pin>>();
        QVERIFY(pins[0].location == ComputeKind::Inline);
        view.swapSides();
        QCOMPARE(view.model()->side(0).label, QStringLiteral("right"));
    }

    void timelineModelAppendsSteps() {
        TimelineModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::Fatal);
        model.append(entry(0, "output", 1.5));
        model.append(entry(1, "output", 1.25));
        model.append(entry(5, "stage_2", 1)); // out of order: ignored
        model.append(entry(2, "stage_2", 2.5));
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.index(2, TimelineModel::StepColumn).data().toInt(), 3);
        QCOMPARE(model.index(2, TimelineModel::FuncColumn).data().toString(),
                 QStringLiteral("stage_2"));
        QCOMPARE(model.index(1, TimelineModel::PassColumn).data().toString(),
                 QStringLiteral("pre tile"));
        QCOMPARE(model.index(2, TimelineModel::PassColumn).data().toString(),
                 QStringLiteral("1 loc"));
        QCOMPARE(model.index(2, TimelineModel::CandidatesColumn).data().toString(),
                 QStringLiteral("30"));
        model.setShown(1);
        QVERIFY(model.index(1, 0).data(Qt::FontRole).value<QFont>().bold());
        QVERIFY(!model.index(0, 0).data(Qt::FontRole).isValid());
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void timelinePanelAsksForSteps() {
        TimelinePanel panel;
        for (int k = 0; k < 5; ++k)
            panel.appendStep(entry(k, "f" + std::to_string(k), 2.0 - 0.1 * k));
        QCOMPARE(panel.model()->entryCount(), 0);     // buffered during a run
        QTRY_COMPARE(panel.model()->entryCount(), 5); // shown within 100 ms
        QCOMPARE(panel.slider()->maximum(), 4);
        QCOMPARE(panel.slider()->value(), 4); // follows the newest
        QVERIFY(panel.caption().startsWith("Newest: step 5 of 5"));
        QSignalSpy requested(&panel, &TimelinePanel::stepRequested);
        panel.slider()->setValue(1);
        QCOMPARE(requested.count(), 1);
        QCOMPARE(requested.last().front().toInt(), 1);
        panel.setShown(1, false, false);
        QVERIFY2(panel.caption().contains("Back at step 2 of 5"), qPrintable(panel.caption()));
        QVERIFY(panel.caption().contains("replaying"));
        QCOMPARE(requested.count(), 1); // showing a step does not ask for it again
        panel.appendStep(entry(5, "f5", 1.0));
        panel.flush();
        QCOMPARE(panel.slider()->value(), 1); // an older step stays on screen
        QVERIFY(panel.caption().contains("of 6"));
        panel.setShown(1, false, true);
        QVERIFY(!panel.caption().contains("replaying"));
    }

    void timelineCaptionRelayoutsTheWindowOnlyWhenItNeedsAnotherHeight() {
        // The caption changes on every step; a word-wrapped QLabel's new text relayouts every
        // widget up to the window, each asking the label for its height again (GUI latency).
        // The CaptionBox stops that unless the caption needs another height.
        QWidget window;
        auto *layout = new QVBoxLayout(&window);
        auto *panel = new TimelinePanel(&window);
        auto *plain = new QLabel(QStringLiteral("a plain caption, step 1"), &window);
        plain->setWordWrap(true);
        layout->addWidget(plain);
        layout->addWidget(panel, 1);
        window.resize(600, 500);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        int layoutRequests = 0;
        LayoutRequestCounter counter(&layoutRequests);
        window.installEventFilter(&counter); // the plain label's layout
        panel->installEventFilter(&counter); // the caption's
        auto *box = panel->findChild<CaptionBox *>();
        QVERIFY(box);
        auto *caption = box->findChild<QLabel *>();
        QVERIFY(caption);

        // What the box saves: a plain label's new text of the same height relayouts the window.
        settle();
        layoutRequests = 0;
        plain->setText(QStringLiteral("a plain caption, step 2"));
        settle();
        QVERIFY(layoutRequests > 0);

        panel->appendStep(entry(0, "f0", 2.0));
        panel->flush();
        settle();
        const int oneLine = box->height();
        layoutRequests = 0;
        panel->appendStep(entry(1, "f1", 1.9));
        panel->flush();
        settle();
        QVERIFY2(caption->text().startsWith("Newest: step 2 of 2"), qPrintable(caption->text()));
        QCOMPARE(layoutRequests, 0);
        QCOMPARE(box->height(), oneLine);
        QCOMPARE(caption->geometry(), box->rect());

        // A caption that needs more lines gets them.
        panel->appendStep(entry(2, std::string(60, 'g'), 1.8));
        panel->flush();
        settle();
        QVERIFY(layoutRequests > 0);
        QVERIFY2(box->height() > oneLine, qPrintable(QString::number(box->height())));
        QCOMPARE(box->height(), caption->heightForWidth(box->width()));
        QCOMPARE(caption->geometry(), box->rect());
    }

    void timelineReadsAtTheDocksDefaultWidth() {
        // Compact figures: at most four characters a count, three significant digits a cost.
        QCOMPARE(compactCount(950), QStringLiteral("950"));
        QCOMPARE(compactCount(1234), QStringLiteral("1.2k"));
        QCOMPARE(compactCount(21504), QStringLiteral("22k"));
        QCOMPARE(compactCount(3400000), QStringLiteral("3.4M"));
        QCOMPARE(compactMs(0.05586), QStringLiteral("0.056"));
        QCOMPARE(compactMs(0.41234), QStringLiteral("0.412"));
        QCOMPARE(compactMs(1.2449), QStringLiteral("1.24"));
        QCOMPARE(compactMs(12.345), QStringLiteral("12.3"));
        QCOMPARE(compactMs(124.4), QStringLiteral("124"));
        // At 290 px (the dock's default) every column fits: no sideways scrolling, and a long
        // Func name is elided in the middle rather than widening its column.
        TimelinePanel panel;
        panel.resize(290, 400);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        for (int k = 0; k < 600; ++k) {
            TimelineEntry e = entry(k, "output_laplacian_pyramid_level_" + std::to_string(k), 12.5);
            e.candidates = 2904;
            e.sampled = 105;
            panel.appendStep(e);
        }
        panel.flush();
        QTest::qWait(50);
        const QTreeView *list = panel.list();
        QVERIFY2(list->header()->length() <= list->viewport()->width(),
                 qPrintable(QStringLiteral("%1 > %2")
                                .arg(list->header()->length())
                                .arg(list->viewport()->width())));
        QVERIFY(!list->horizontalScrollBar()->isVisible());
        QVERIFY(list->header()->sectionSize(TimelineModel::FuncColumn) >= 70);
        const QModelIndex cands = panel.model()->index(599, TimelineModel::CandidatesColumn);
        QVERIFY(list->fontMetrics().horizontalAdvance(cands.data().toString()) <=
                list->header()->sectionSize(TimelineModel::CandidatesColumn));
        QVERIFY(panel.model()
                    ->index(599, 0)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains("2,904 candidates, 105 costed"));
    }

    void clickingTheBestCostChartGoesToThatStep() {
        BestCostChart chart;
        chart.resize(640, 360);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        for (int k = 0; k < 12; ++k)
            chart.addPoint(k, k < 4 ? 0 : 1, 3.0 - 0.1 * k);
        QTest::qWait(250); // the chart draws buffered points every 100 ms
        QCOMPARE(chart.pointCount(), 12);
        QSignalSpy clicked(&chart, &BestCostChart::stepClicked);
        for (int k : {2, 7, 11}) {
            const QPoint pos = chart.positionOfStep(k);
            QVERIFY(chart.rect().contains(pos));
            QTest::mouseClick(chart.viewport(), Qt::LeftButton, {}, pos);
            QCOMPARE(clicked.last().front().toInt(), k);
        }
        QCOMPARE(clicked.count(), 3);
        QCOMPARE(chart.stepAt(QPoint(1, 1)), -1); // outside the plot
        chart.setShownStep(7);
        QCOMPARE(chart.shownStep(), 7);
        chart.clear();
        QCOMPARE(chart.shownStep(), -1);
    }

    void theStepAxisEndsNearTheLastStep() {
        // local_laplacian's 510 steps: the axis runs to 600 by 200, not to 1000 (issue 35).
        BestCostChart chart;
        chart.resize(640, 360);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        for (int k = 0; k < 510; ++k)
            chart.addPoint(k, k / 102, 135.0 - 0.1 * (k % 102));
        QTRY_COMPARE(chart.pointCount(), 510);
        const auto *steps = qobject_cast<QValueAxis *>(chart.chart()->axes(Qt::Horizontal).front());
        QVERIFY(steps);
        QCOMPARE(steps->min(), 0.0);
        QCOMPARE(steps->max(), 600.0);
        QCOMPARE(steps->tickCount(), 4);
    }
};

QTEST_MAIN(HistoryCompareViewsTest)
#include "HistoryCompareViewsTest.moc"
