// The pipeline panel opens generator libraries off the GUI thread: the call returns at once with
// "Loading…" shown, the generators are listed when the library is open, a session's generator
// source is shown once its library is, and a library that is not a generator library (or no
// file at all) is reported in one line without blocking.
#include "PipelinePanel.h"

#include <QComboBox>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTest>

using namespace beamscope;

class PipelinePanelTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void opensAGeneratorLibraryInTheBackground() {
        PipelinePanel panel;
        QSignalSpy opened(&panel, &PipelinePanel::generatorLibraryOpened);
        QSignalSpy failed(&panel, &PipelinePanel::generatorLibraryFailed);
        auto *combo = panel.findChild<QComboBox *>();
        const int catalogApps = combo->count();

        panel.openGeneratorLibrary(QStringLiteral(BEAMSCOPE_TEST_GENERATOR_LIB), true);
        // Returned before the library was opened: the result comes through the event loop.
        QCOMPARE(opened.count(), 0);
        QVERIFY(panel.isLoadingLibrary());
        QVERIFY(panel.libraryStatus().startsWith(QStringLiteral("Loading libbeamscope_test_gen")));

        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 30000);
        QCOMPARE(failed.count(), 0);
        QVERIFY(!panel.isLoadingLibrary());
        QVERIFY(panel.libraryStatus().isEmpty());
        QCOMPARE(combo->count(), catalogApps + 3); // test_blur, test_no_estimates, test_throws
        const PipelineSource source = panel.source();
        QCOMPARE(source.name, std::string("test_blur")); // the first one is selected
        QCOMPARE(QFileInfo(QString::fromStdString(source.generatorLibrary)).canonicalFilePath(),
                 QFileInfo(QStringLiteral(BEAMSCOPE_TEST_GENERATOR_LIB)).canonicalFilePath());

        // Opening it again lists nothing twice.
        panel.openGeneratorLibrary(QStringLiteral(BEAMSCOPE_TEST_GENERATOR_LIB));
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 2, 30000);
        QCOMPARE(combo->count(), catalogApps + 3);
    }

    void showsAGeneratorSourceOnceItsLibraryIsOpen() {
        PipelinePanel panel;
        QSignalSpy opened(&panel, &PipelinePanel::generatorLibraryOpened);
        PipelineSource source;
        source.name = "test_no_estimates";
        source.generatorLibrary = BEAMSCOPE_TEST_GENERATOR_LIB;
        source.params = {"radius=3"};
        source.inputs = {"gain=1.5", "invert=true"};
        panel.setSource(source);
        QVERIFY(panel.isLoadingLibrary());
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 30000);
        const PipelineSource shown = panel.source();
        QCOMPARE(shown.name, source.name);
        QCOMPARE(shown.params, source.params);
        QCOMPARE(shown.inputs, source.inputs); // the scalar inputs field
    }

    void reportsALibraryWithoutGeneratorsInOneLine() {
        PipelinePanel panel;
        QSignalSpy opened(&panel, &PipelinePanel::generatorLibraryOpened);
        QSignalSpy failed(&panel, &PipelinePanel::generatorLibraryFailed);
        QSignalSpy messages(&panel, &PipelinePanel::message);
        const QString path = QStringLiteral(BEAMSCOPE_TEST_NOT_GENERATOR_LIB);
        const std::string selected = panel.source().name;
        panel.openGeneratorLibrary(path, true);
        QCOMPARE(failed.count(), 0);
        QVERIFY(panel.isLoadingLibrary());
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
        QCOMPARE(opened.count(), 0);
        const QString error = failed.front().at(1).toString();
        QVERIFY2(error.contains(path), qPrintable(error));
        QVERIFY(!error.contains(QLatin1Char('\n')));
        QCOMPARE(panel.libraryStatus(), error);
        QCOMPARE(messages.count(), 1);
        QCOMPARE(panel.source().name, selected); // the selection is unchanged
        QVERIFY(panel.source().generatorLibrary.empty());
    }

    void reportsAMissingFile() {
        PipelinePanel panel;
        QSignalSpy failed(&panel, &PipelinePanel::generatorLibraryFailed);
        panel.openGeneratorLibrary(QStringLiteral("/nonexistent/libnothing.so"));
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
        QVERIFY(panel.libraryStatus().contains(QStringLiteral("/nonexistent/libnothing.so")));
    }
};

QTEST_MAIN(PipelinePanelTest)
#include "PipelinePanelTest.moc"
