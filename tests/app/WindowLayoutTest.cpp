// Dock layout persistence: an arrangement saved on close comes back in the next window, one saved
// with another layout version or another set of docks is ignored, View > Reset layout puts the
// docks back as they came, and a window that was not asked to keep its layout (tests,
// --screenshot) writes nothing. Runs on test-mode settings of its own, never the user's.
#include "WindowLayout.h"
#include "MainWindow.h"

#include <QDockWidget>
#include <QMap>
#include <QRect>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>

using namespace beamscope;

namespace {

QDockWidget *dock(QMainWindow &window, const char *name) {
    return window.findChild<QDockWidget *>(QString::fromLatin1(name));
}

/// A window shown at a fixed size, as a user would see it.
std::unique_ptr<MainWindow> openWindow() {
    auto window = std::make_unique<MainWindow>();
    window->resize(1400, 900);
    return window;
}

/// Where each visible dock is, by name.
QMap<QString, QRect> dockGeometries(const MainWindow &window) {
    QMap<QString, QRect> geometries;
    for (const QDockWidget *d : window.findChildren<QDockWidget *>()) {
        if (d->isVisible()) geometries.insert(d->objectName(), d->geometry());
    }
    return geometries;
}

/// Moves the export dock to the left and closes the cost dock: an arrangement unlike the default.
void rearrange(MainWindow &window) {
    window.addDockWidget(Qt::LeftDockWidgetArea, dock(window, "exportDock"));
    dock(window, "costDock")->hide();
}

} // namespace

class WindowLayoutTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("BeamscopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("window-layout-test"));
        const QString testConfig =
            QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation);
        QVERIFY2(QSettings().fileName().startsWith(testConfig), qPrintable(QSettings().fileName()));
        QVERIFY(testConfig.contains(QStringLiteral("qttest")));
    }

    void init() { QSettings().clear(); }

    void aSavedArrangementComesBack() {
        {
            auto window = openWindow();
            window->show();
            QVERIFY(QTest::qWaitForWindowExposed(window.get()));
            QVERIFY(!window->windowLayout()->restoreAndKeep()); // nothing saved yet
            rearrange(*window);
            window->close(); // saves
        }
        QVERIFY(QSettings().contains(QStringLiteral("layout/state")));
        auto window = openWindow();
        QCOMPARE(window->dockWidgetArea(dock(*window, "exportDock")), Qt::RightDockWidgetArea);
        QVERIFY(window->windowLayout()->restoreAndKeep());
        window->show();
        QCOMPARE(window->dockWidgetArea(dock(*window, "exportDock")), Qt::LeftDockWidgetArea);
        QVERIFY(dock(*window, "costDock")->isHidden());
        QVERIFY(!dock(*window, "loopNestDock")->isHidden());
    }

    void anArrangementOfAnotherVersionOrDockSetIsIgnored() {
        {
            auto window = openWindow();
            window->show();
            window->windowLayout()->restoreAndKeep();
            rearrange(*window);
            window->close();
        }
        QSettings settings;
        settings.setValue(QStringLiteral("layout/version"), WindowLayout::kVersion + 1);
        QVERIFY(!openWindow()->windowLayout()->restore());

        settings.setValue(QStringLiteral("layout/version"), WindowLayout::kVersion);
        QStringList docks = settings.value(QStringLiteral("layout/docks")).toStringList();
        QVERIFY(docks.removeOne(QStringLiteral("exportDock")));
        settings.setValue(QStringLiteral("layout/docks"), docks);
        auto window = openWindow();
        QVERIFY(!window->windowLayout()->restore());
        QCOMPARE(window->dockWidgetArea(dock(*window, "exportDock")), Qt::RightDockWidgetArea);
        QVERIFY(!dock(*window, "costDock")->isHidden());
    }

    void resetPutsTheDocksBack() {
        auto window = openWindow();
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        QCoreApplication::processEvents(); // the shown window settles at its default sizes
        const QMap<QString, QRect> original = dockGeometries(*window);
        QDockWidget *cost = dock(*window, "costDock");
        QDockWidget *exported = dock(*window, "exportDock");
        QVERIFY(window->tabifiedDockWidgets(cost).contains(exported));
        rearrange(*window);
        dock(*window, "beamDock")->setFloating(true);
        QVERIFY(!window->tabifiedDockWidgets(cost).contains(exported));

        window->windowLayout()->reset();
        QCoreApplication::processEvents();
        QCOMPARE(window->dockWidgetArea(exported), Qt::RightDockWidgetArea);
        QVERIFY(window->tabifiedDockWidgets(cost).contains(exported));
        QVERIFY(!cost->isHidden());
        QVERIFY(!dock(*window, "beamDock")->isFloating());
        QCOMPARE(window->dockWidgetArea(dock(*window, "beamDock")), Qt::BottomDockWidgetArea);
        // Every dock back at its place and size (the saved bytes also hold where a dock last
        // floated, which a round trip through floating changes without moving anything).
        QCOMPARE(dockGeometries(*window), original);
    }

    void aWindowNotAskedToKeepItsLayoutWritesNothing() {
        auto window = openWindow();
        window->show();
        rearrange(*window);
        window->close();
        QVERIFY(QSettings().allKeys().isEmpty());
    }
};

QTEST_MAIN(WindowLayoutTest)
#include "WindowLayoutTest.moc"
