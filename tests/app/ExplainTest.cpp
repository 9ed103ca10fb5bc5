// The window's "explain" features on a real search (stencil_chain, length 4): "Why not…?" from
// the DAG's context menu answers off the GUI thread exactly as the core answers for the same
// search; File > Open trace… replays a CLI trace into the read-only history, step for step, and a
// mismatched trace is one line naming its line. With BEAMSCOPE_SHOT_DIR set it saves the dialog
// and the window as PNGs there (the screenshots in the README and the issue notes).
#include "ExplainCoordinator.h"
#include "MainWindow.h"

#include "controllers/SearchController.h"
#include "search/SearchReport.h"
#include "search/TraceReader.h"
#include "views/common/SelectionHub.h"
#include "views/cost/BestCostChart.h"
#include "views/cost/CostView.h"
#include "views/dag/DagPinMenu.h"
#include "views/explain/WhyDialog.h"

#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace beamscope;

namespace {

/// Saves `widget` as NAME.png under $BEAMSCOPE_SHOT_DIR, when set.
void shoot(QWidget *widget, const QString &name) {
    const QString dir = qEnvironmentVariable("BEAMSCOPE_SHOT_DIR");
    if (dir.isEmpty()) return;
    QVERIFY(widget->grab().save(dir + QLatin1Char('/') + name + QStringLiteral(".png")));
}

/// The trace `beamscope-cli search --trace` writes, into `path`; returns its lines.
std::vector<std::string> writeTrace(const std::string &path, const PipelineSource &source,
                                    const SearchOptions &options) {
    auto dag = std::make_shared<const FunctionDAG>(loadPipeline(source));
    SearchEngine engine(dag, options);
    std::vector<std::string> lines;
    std::ofstream out(path);
    while (!engine.finished()) {
        SearchStepPtr step = engine.step();
        nlohmann::json line = stepToJson(*step, *dag);
        if (step->index == 0) line["search"] = traceSearchToJson(source, options);
        lines.push_back(line.dump());
        out << lines.back() << "\n";
    }
    return lines;
}

} // namespace

class ExplainTest : public QObject {
    Q_OBJECT
private:
    std::unique_ptr<MainWindow> m_window;
    PipelineSource m_source;

    void waitSettled() { QTRY_VERIFY_WITH_TIMEOUT(m_window->isSettled(), 120000); }

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        m_source.name = "stencil_chain";
        m_source.params = {"length=4"};
    }

    void init() {
        m_window = std::make_unique<MainWindow>();
        m_window->resize(1600, 1000);
        m_window->show();
        m_window->loadPipeline(m_source);
        waitSettled();
        m_window->searchController()->runToEnd();
        waitSettled();
        QVERIFY(m_window->searchController()->searchFinished());
    }

    void cleanup() { m_window.reset(); }

    void whyNotFromTheDagMenu() {
        SelectionHub *hub = m_window->hub();
        SearchController *search = m_window->searchController();
        const int node = search->dag()->find("stage_1");
        // The "Why not…?" submenu's Inline, as the DAG's context menu builds it.
        DagPinMenu menu(*hub, node, m_window.get());
        QAction *why = menu.action(QStringLiteral("Why not…?"));
        QVERIFY(why && why->menu() && why->isEnabled());
        QAction *inlineChoice = nullptr;
        for (QAction *a : why->menu()->actions()) {
            if (a->text() == QStringLiteral("Inline")) inlineChoice = a;
        }
        QVERIFY(inlineChoice);
        const std::optional<Pin> decision = menu.whyFor(inlineChoice);
        QVERIFY(decision);
        QCOMPARE(decision->func, std::string("stage_1"));
        QVERIFY(decision->location == ComputeKind::Inline);
        QVERIFY(!menu.pinsFor(inlineChoice)); // asks, does not pin

        hub->requestWhy(*decision);
        WhyDialog *dialog = m_window->explainCoordinator()->whyDialog();
        QVERIFY(dialog->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(dialog->answer() != nullptr, 60000);
        // The same answer as the core gives for the window's search.
        const WhyResult expected = whyNot(search->dag(), search->options(), *decision);
        const WhyResult &shown = *dialog->answer();
        QCOMPARE(shown.answer.verdict, expected.answer.verdict);
        QCOMPARE(shown.answer.step, expected.answer.step);
        QCOMPARE(shown.answer.detail, expected.answer.detail);
        QVERIFY2(dialog->headline().contains(whyVerdictTitle(expected.answer.verdict)),
                 qPrintable(dialog->headline()));
        // Steps counted from 1, as the Timeline's rows.
        QVERIFY(expected.answer.step >= 0);
        QVERIFY2(dialog->headline().contains(
                     QStringLiteral(" at step %1 ").arg(expected.answer.step + 1)),
                 qPrintable(dialog->headline()));
        shoot(dialog, QStringLiteral("why-dialog-pruned"));

        // Compute at root: costed, and its figures against the state that survived.
        QAction *rootChoice = why->menu()->actions().front();
        QCOMPARE(rootChoice->text(), QStringLiteral("Compute at root"));
        const std::optional<Pin> root = menu.whyFor(rootChoice);
        QVERIFY(root && root->location == ComputeKind::Root);
        hub->requestWhy(*root);
        QTRY_VERIFY_WITH_TIMEOUT(dialog->answer() != nullptr, 60000);
        const WhyResult atRoot = whyNot(search->dag(), search->options(), *root);
        QCOMPARE(dialog->answer()->answer.verdict, atRoot.answer.verdict);
        QCOMPARE(dialog->answer()->answer.cost, atRoot.answer.cost);
        shoot(dialog, QStringLiteral("why-dialog"));
    }

    void openTraceReplaysIntoTheHistory() {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("t.jsonl")).toStdString();
        SearchOptions options;
        options.beamSize = 8;
        options.passes = 3;
        options.seed = 5;
        options.gpu = GpuSpec::load("v100");
        const std::vector<std::string> lines = writeTrace(path, m_source, options);
        SearchController *search = m_window->searchController();
        QSignalSpy opened(m_window->explainCoordinator(), &ExplainCoordinator::traceOpened);
        m_window->explainCoordinator()->openTrace(QString::fromStdString(path));
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 60000);
        QVERIFY(search->isReadOnly());
        QCOMPARE(search->history().size(), int(lines.size()));
        // The best-cost chart has a point per step.
        QTRY_COMPARE_WITH_TIMEOUT(m_window->costView()->historyChart()->pointCount(),
                                  int(lines.size()), 5000);
        // The history keeps compact records, as a live search's; the newest step is whole and
        // an older one, replayed on demand from the trace's search, is the step its line
        // recorded (the first line less "search").
        const auto lineOf = [&](int k) {
            nlohmann::json line = nlohmann::json::parse(lines[size_t(k)]);
            line.erase("search");
            return line.dump();
        };
        const int newest = search->history().size() - 1;
        QVERIFY(!search->history().at(0).complete);
        QVERIFY(search->history().at(0).step->candidates.empty());
        QCOMPARE(stepToJson(*search->lastStep(), *search->dag()).dump(), lineOf(newest));
        for (int k : {0, newest / 2}) {
            QSignalSpy shown(search, &SearchController::stepShown);
            search->showStep(k);
            QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty() && shown.last().at(3).toBool(), 60000);
            const auto whole = shown.last().at(0).value<SearchStepPtr>();
            QCOMPARE(stepToJson(*whole, *search->dag()).dump(), lineOf(k));
        }
        search->showNewest();
        waitSettled();
        // "Why not?" on a trace follows the trace's search, not the window's.
        Pin decision;
        decision.func = "stage_2";
        decision.location = ComputeKind::Root;
        m_window->hub()->requestWhy(decision);
        WhyDialog *dialog = m_window->explainCoordinator()->whyDialog();
        QTRY_VERIFY_WITH_TIMEOUT(dialog->answer() != nullptr, 60000);
        QCOMPARE(dialog->answer()->answer.step,
                 whyNot(search->dag(), options, decision).answer.step);
        dialog->hide();
        shoot(m_window.get(), QStringLiteral("trace-replayed"));

        // A trace whose line 3 does not match its search: one line naming the line.
        nlohmann::json third = nlohmann::json::parse(lines[2]);
        third["candidates"] = third["candidates"].get<int>() + 1;
        std::ofstream(path) << lines[0] << "\n" << lines[1] << "\n" << third.dump() << "\n";
        QSignalSpy errors(m_window.get(), &MainWindow::errorShown);
        m_window->explainCoordinator()->openTrace(QString::fromStdString(path));
        QTRY_COMPARE_WITH_TIMEOUT(errors.count(), 1, 60000);
        const QString message = errors.front().front().toString();
        QVERIFY2(message.contains(QStringLiteral("line 3: step 2 does not match the replay")),
                 qPrintable(message));
        QVERIFY(!message.contains(QLatin1Char('\n')));
    }
};

QTEST_MAIN(ExplainTest)
#include "ExplainTest.moc"
