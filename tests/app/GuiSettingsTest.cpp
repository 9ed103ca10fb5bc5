// The GUI's issue-10 settings: the toolbar's cost-model selector sets SearchOptions::costModel
// (analytic, polymage, a model file listed by name) and a model file the Tune dock wrote is
// listed without changing the selection; the measurement database setting (QSettings, default
// MeasurementStore::defaultPath(), --db overrides for one run); the command line's --tune, --db
// and --cost-model, with one-line errors; the main window has a Tune dock tabbed with Benchmark.
#include "CommandLine.h"
#include "DatabaseSetting.h"
#include "MainWindow.h"
#include "SearchToolBar.h"

#include "store/MeasurementStore.h"
#include "util/Error.h"

#include <QComboBox>
#include <QDockWidget>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace beamscope;

class GuiSettingsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("BeamscopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("gui-settings-test"));
        QSettings().clear();
    }

    void costModelSelectorSetsTheSearchOption() {
        SearchToolBar bar;
        QSignalSpy edited(&bar, &SearchToolBar::optionsEdited);
        QCOMPARE(bar.options({}).costModel, std::string("analytic"));
        auto *box = bar.findChild<QComboBox *>(QStringLiteral("costModelBox"));
        QVERIFY(box);
        box->setCurrentIndex(box->findData(QStringLiteral("polymage")));
        QCOMPARE(edited.count(), 1);
        QCOMPARE(bar.options({}).costModel, std::string("polymage"));

        SearchOptions withFile;
        withFile.costModel = "/tmp/models/m.model";
        bar.setOptions(withFile, QStringLiteral("v100"));
        QCOMPARE(edited.count(), 1); // setOptions does not count as an edit
        QCOMPARE(bar.costModel(), QStringLiteral("/tmp/models/m.model"));
        QCOMPARE(box->currentText(), QStringLiteral("m.model"));
        QCOMPARE(bar.options({}).costModel, std::string("/tmp/models/m.model"));

        bar.addCostModelFile(QStringLiteral("/tmp/models/other.model"));
        QCOMPARE(bar.costModel(), QStringLiteral("/tmp/models/m.model")); // still selected
        QVERIFY(box->findData(QStringLiteral("/tmp/models/other.model")) >= 0);
        QCOMPARE(box->itemText(box->count() - 1), QStringLiteral("Load model file…"));
        QCOMPARE(edited.count(), 1);
    }

    void databaseSettingDefaultsSavesAndOverrides() {
        QTemporaryDir dir;
        QCOMPARE(DatabaseSetting::defaultPath(),
                 QString::fromStdString(MeasurementStore::defaultPath()));
        QCOMPARE(DatabaseSetting::path(), DatabaseSetting::defaultPath());
        const QString chosen = dir.filePath(QStringLiteral("mine.sqlite"));
        DatabaseSetting::setPath(chosen);
        QCOMPARE(DatabaseSetting::path(), chosen);
        QCOMPARE(QSettings().value(QStringLiteral("measurementDatabase")).toString(), chosen);
        DatabaseSetting::overrideForThisRun(dir.filePath(QStringLiteral("run.sqlite")));
        QCOMPARE(DatabaseSetting::path(), dir.filePath(QStringLiteral("run.sqlite")));
        QCOMPARE(QSettings().value(QStringLiteral("measurementDatabase")).toString(), chosen);
        DatabaseSetting::overrideForThisRun(QString());
        DatabaseSetting::setPath(QString()); // back to the default
        QCOMPARE(DatabaseSetting::path(), DatabaseSetting::defaultPath());
    }

    void commandLineTuneDbAndCostModel() {
        const QString exe = QStringLiteral("beamscope");
        const GuiArguments a = parseGuiArguments({exe, "--app", "unsharp_mask", "--tune", "2,4",
                                                  "--db", "/tmp/x.sqlite", "--cost-model",
                                                  "polymage", "--screenshot", "/tmp/s.png"});
        QCOMPARE(a.tuneRounds, 2);
        QCOMPARE(a.tuneBatch, 4);
        QCOMPARE(a.database, QStringLiteral("/tmp/x.sqlite"));
        QCOMPARE(a.costModel, QStringLiteral("polymage"));
        auto fails = [&](const QStringList &args, const char *expected) {
            try {
                parseGuiArguments(QStringList{exe} + args);
            } catch (const UsageError &e) {
                const QString message = QString::fromUtf8(e.what());
                if (!message.contains(QLatin1String(expected)) || message.contains('\n')) {
                    qWarning("message: %s", e.what());
                    return false;
                }
                return true;
            }
            return false;
        };
        QVERIFY(fails({"--app", "unsharp_mask", "--tune", "2", "--screenshot", "/tmp/s.png"},
                      "ROUNDS,BATCH"));
        QVERIFY(fails({"--app", "unsharp_mask", "--tune", "0,4", "--screenshot", "/tmp/s.png"},
                      "--tune"));
        QVERIFY(fails({"--app", "unsharp_mask", "--tune", "2,4"}, "--tune needs --screenshot"));
        QVERIFY(fails({"--app", "unsharp_mask", "--cost-model", "nosuch"}, "--cost-model"));
        // The freezing threshold, as beamscope-cli takes it.
        QVERIFY(!a.freezeMinFuncs);
        QCOMPARE(parseGuiArguments({exe, "--app", "matmul", "--freeze-min-funcs", "0"})
                     .freezeMinFuncs.value_or(-1),
                 0);
        QVERIFY(fails({"--app", "matmul", "--freeze-min-funcs", "-1"}, "--freeze-min-funcs"));
        QVERIFY(fails({"--app", "matmul", "--freeze-min-funcs", "ten"}, "--freeze-min-funcs"));
    }

    void mainWindowHasATuneDockBesideTheBenchmark() {
        MainWindow window;
        auto *tune = window.findChild<QDockWidget *>(QStringLiteral("tuneDock"));
        auto *bench = window.findChild<QDockWidget *>(QStringLiteral("benchDock"));
        QVERIFY(tune && bench);
        QVERIFY(window.tabifiedDockWidgets(bench).contains(tune));
        QVERIFY(window.raiseDock(QStringLiteral("Tune")));
    }
};

QTEST_MAIN(GuiSettingsTest)
#include "GuiSettingsTest.moc"
