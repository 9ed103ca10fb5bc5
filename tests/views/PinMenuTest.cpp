// The DAG view's pin menu on a real search: which choices a Func offers (outputs stay at root,
// Funcs with updates at root or, accumulators, a consumer's block or thread level; fusion hosts
// are the consumers), the pins each choice asks for, and that "freeze at current decision" gives
// a pin the engine accepts and reproduces exactly. With BEAMSCOPE_SHOT_DIR set it saves matmul's
// prod menu and bilateral_grid's histogram menu open on their block level, with the consumer's
// tooltip (docs/images/pin-menu-prod.png, pin-menu-histogram.png).
#include "RealSearch.h"

#include "views/common/PinEdits.h"
#include "views/common/SelectionHub.h"
#include "views/dag/DagPinMenu.h"

#include <QApplication>
#include <QPainter>
#include <QTest>
#include <QToolTip>

using namespace beamscope;

namespace {

/// With BEAMSCOPE_SHOT_DIR set, saves `menu` open with its submenu `sub` open beside it, as the
/// user sees them after a right click, as NAME.png there (the menus are separate windows: each
/// is painted at its place).
void shootOpenMenu(QMenu &menu, QMenu *sub, const QString &name) {
    const QString dir = qEnvironmentVariable("BEAMSCOPE_SHOT_DIR");
    if (dir.isEmpty()) return;
    menu.popup(QPoint(20, 20));
    QVERIFY(QTest::qWaitForWindowExposed(&menu));
    menu.setActiveAction(sub->menuAction());
    sub->popup(QPoint(menu.geometry().right(),
                      menu.actionGeometry(sub->menuAction()).top() + menu.geometry().top()));
    QVERIFY(QTest::qWaitForWindowExposed(sub));
    // The first entry's tooltip, as hovering shows it.
    QAction *entry = sub->actions().front();
    sub->setActiveAction(entry);
    const QRect entryRect = sub->actionGeometry(entry).translated(sub->geometry().topLeft());
    QToolTip::showText(entryRect.bottomLeft() + QPoint(16, 4), entry->toolTip(), sub);
    QWidget *tip = nullptr;
    for (QWidget *w : QApplication::topLevelWidgets())
        if (w->isVisible() && w->inherits("QTipLabel")) tip = w;
    QVERIFY(tip);
    QRect all = menu.geometry().united(sub->geometry()).united(tip->geometry());
    all.adjust(-20, -20, 20, 20);
    QImage image(all.size(), QImage::Format_RGB32);
    image.fill(QColor(235, 235, 235));
    QPainter painter(&image);
    for (QWidget *w : {static_cast<QWidget *>(&menu), static_cast<QWidget *>(sub), tip})
        painter.drawPixmap(w->geometry().topLeft() - all.topLeft(), w->grab());
    painter.end();
    QToolTip::hideText();
    QVERIFY(image.save(dir + QLatin1Char('/') + name + QStringLiteral(".png")));
    sub->hide();
    menu.hide();
}

} // namespace

class PinMenuTest : public QObject {
    Q_OBJECT
private:
    test::RealSearch m_search;
    SelectionHub m_hub;

private Q_SLOTS:
    void initTestCase() {
        m_search = test::runSearch("stencil_chain", {"length=4"}, test::testOptions(4, 1));
        m_hub.setDag(m_search.dag);
        m_hub.setStep(m_search.steps.back());
        QVERIFY(m_hub.state()->complete());
    }

    void outputsOnlyOfferRoot() {
        const int output = m_search.dag->find("output");
        DagPinMenu menu(m_hub, output, nullptr);
        QVERIFY(menu.action("Compute at root")->isEnabled());
        QVERIFY(!menu.action("Inline")->isEnabled());
        QVERIFY(!menu.action("Shared memory, at block level of")->isEnabled());
        QVERIFY(!menu.action("Unpin")->isEnabled());
    }

    void anAccumulatorOffersItsConsumersBlockAndThreadLevels() {
        // matmul's prod (prod(x, y) += A(k, y) * B(x, k)) can accumulate in shared memory at
        // output's block level or in registers at its thread level; a Func with updates is
        // never inlined.
        test::RealSearch mm =
            test::runSearch("matmul", {"m=64", "n=64", "k=64"}, test::testOptions(4, 1));
        SelectionHub hub;
        hub.setDag(mm.dag);
        hub.setStep(mm.steps.back());
        DagPinMenu menu(hub, mm.dag->find("prod"), nullptr);
        QVERIFY(!menu.action("Inline")->isEnabled());
        QCOMPARE(menu.action("Inline")->toolTip(),
                 QStringLiteral("A Func with updates is never inlined"));
        QVERIFY(menu.action("Shared memory, at block level of")->isEnabled());
        QVERIFY(menu.action("Registers, at thread level of")->isEnabled());
        // The consumer's entry says where prod and its update go.
        const QMenu *block = menu.action("Shared memory, at block level of")->menu();
        QCOMPARE(block->actions().size(), 1);
        QCOMPARE(block->actions().front()->text(), QStringLiteral("output"));
        QCOMPARE(block->actions().front()->toolTip(),
                 QStringLiteral("prod computed in each GPU block of output, stored in shared "
                                "memory, on the block's threads; its update runs there too, on "
                                "the same threads, each thread updating its own points"));
        shootOpenMenu(menu.menu(), menu.action("Shared memory, at block level of")->menu(),
                      QStringLiteral("pin-menu-prod"));
    }

    void aHistogramOffersItsConsumersBlockLevelOnly() {
        // bilateral_grid's histogram scatters into a data-dependent z: shared memory at a
        // consumer's block level (whole in z), never registers (their indices are constants).
        test::RealSearch grid = test::runSearch("bilateral_grid", {"width=128", "height=96"},
                                                test::testOptions(4, 1));
        SelectionHub hub;
        hub.setDag(grid.dag);
        hub.setStep(grid.steps.back());
        DagPinMenu menu(hub, grid.dag->find("histogram"), nullptr);
        QVERIFY(!menu.action("Inline")->isEnabled());
        QVERIFY(menu.action("Shared memory, at block level of")->isEnabled());
        QVERIFY(!menu.action("Registers, at thread level of")->isEnabled());
        QAction *host = menu.action("blurz");
        QVERIFY(host);
        QCOMPARE(host->toolTip(),
                 QStringLiteral("histogram computed in each GPU block of blurz, stored in shared "
                                "memory, on the block's threads; its update runs there too, on "
                                "the same threads, each thread adding into the bins its own "
                                "points' data select"));
        const auto pins = menu.pinsFor(host);
        QVERIFY(pins && pins->size() == 1 && pins->front().location == ComputeKind::Block);
        resolvePins(*pins, *grid.dag, GpuSpec::load("h100")); // throws if refused
        shootOpenMenu(menu.menu(), menu.action("Shared memory, at block level of")->menu(),
                      QStringLiteral("pin-menu-histogram"));
    }

    void fusionHostsAreTheConsumers() {
        const int node = m_search.dag->find("stage_1");
        DagPinMenu menu(m_hub, node, nullptr);
        QAction *host = menu.action("stage_2");
        QVERIFY(host);
        const auto pins = menu.pinsFor(host);
        QVERIFY(pins && pins->size() == 1);
        QCOMPARE(pins->front().func, std::string("stage_1"));
        QCOMPARE(pins->front().host, std::string("stage_2"));
        QVERIFY(pins->front().location == ComputeKind::Block ||
                pins->front().location == ComputeKind::Thread);
        resolvePins(*pins, *m_search.dag, GpuSpec::load("v100")); // throws if infeasible
    }

    void freezingReproducesTheDecision() {
        const StatePtr &state = m_hub.state();
        int checked = 0;
        for (int node : m_search.dag->outputsFirst()) {
            DagPinMenu menu(m_hub, node, nullptr);
            QAction *freeze = menu.action("Freeze at current decision");
            QVERIFY(freeze->isEnabled());
            const auto pins = menu.pinsFor(freeze);
            QVERIFY(pins && pins->size() == 1 && pins->front().frozen);
            // The engine accepts the pin and places the Func exactly as the state did.
            SearchOptions options = test::testOptions(2, 1);
            options.pins = *pins;
            SearchEngine engine(m_search.dag, options);
            engine.run();
            const FuncPlacement &want = state->placement(node),
                                &got = engine.best()->state->placement(node);
            QCOMPARE(int(got.kind), int(want.kind));
            QCOMPARE(got.host, want.host);
            if (want.kind == ComputeKind::Root) QVERIFY(got.tilings == want.tilings);
            ++checked;
        }
        QVERIFY(checked > 3);
    }

    void unpinRemovesOnlyThatPin() {
        Pin a, b;
        a.func = "stage_1";
        a.location = ComputeKind::Root;
        b.func = "stage_2";
        b.location = ComputeKind::Root;
        m_hub.setPins({a, b});
        DagPinMenu menu(m_hub, m_search.dag->find("stage_1"), nullptr);
        QVERIFY(menu.action("Unpin")->isEnabled());
        const auto pins = menu.pinsFor(menu.action("Unpin"));
        QVERIFY(pins && pins->size() == 1);
        QCOMPARE(pins->front().func, std::string("stage_2"));
        m_hub.setPins({});
    }
};

QTEST_MAIN(PinMenuTest)
#include "PinMenuTest.moc"
