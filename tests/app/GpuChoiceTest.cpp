// The GUI's start-up GPU model (GpuChoice): the preset that fits a device (the one beamscope-cli
// bench picks), --gpu over the saved choice over the detected device, screenshots ignoring the
// saved choice, a saved file that no longer loads falling back to detection; on this machine
// (PoCL) the real detection gives pocl-cpu; the main window says so in the status bar and
// remembers a GPU the user picks in the toolbar, not one set by the program.
#include "GpuChoice.h"
#include "MainWindow.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>

using namespace beamscope;

namespace {

DeviceInfo cuda(const std::string &name) {
    DeviceInfo d;
    d.kind = DeviceKind::Cuda;
    d.name = name;
    d.vendor = "NVIDIA";
    d.computeCapability = 80;
    d.computeUnits = 58;
    return d;
}

DeviceInfo opencl(const std::string &type) {
    DeviceInfo d;
    d.kind = DeviceKind::OpenCL;
    d.name = "some device";
    d.openclType = type;
    return d;
}

} // namespace

class GpuChoiceTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true); // settings under ~/.qttest, not the user's
        QCoreApplication::setOrganizationName(QStringLiteral("BeamscopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("gpu-choice-test"));
        QSettings().clear();
    }
    void cleanup() { QSettings().clear(); }

    void presetForDevices() {
        QCOMPARE(GpuChoice::presetFor(opencl("CPU")), QStringLiteral("pocl-cpu"));
        QCOMPARE(GpuChoice::presetFor(cuda("NVIDIA H100 80GB HBM3")), QStringLiteral("h100"));
        QCOMPARE(GpuChoice::presetFor(cuda("NVIDIA H200")), QStringLiteral("h200"));
        QCOMPARE(GpuChoice::presetFor(cuda("NVIDIA A100-SXM4-40GB")), QStringLiteral("a100"));
        QCOMPARE(GpuChoice::presetFor(cuda("Tesla V100-SXM2-32GB")), QStringLiteral("v100"));
        QCOMPARE(GpuChoice::presetFor(cuda("NVIDIA GeForce RTX 4090")), QStringLiteral("rtx4090"));
        QCOMPARE(GpuChoice::presetFor(cuda("NVIDIA L4")), QStringLiteral("v100")); // adapted
        QCOMPARE(GpuChoice::presetFor(opencl("GPU")), QStringLiteral("v100"));
        QCOMPARE(GpuChoice::presetFor(DeviceInfo{}), QStringLiteral("v100"));
    }

    void explicitGpuWinsWithoutDetecting() {
        GpuChoice::remember(QStringLiteral("a100"));
        int detections = 0;
        const StartupGpu gpu = GpuChoice::atStartup(QStringLiteral("h100"), true, [&] {
            ++detections;
            return opencl("CPU");
        });
        QCOMPARE(gpu.name, QStringLiteral("h100"));
        QCOMPARE(gpu.source, StartupGpu::Source::Explicit);
        QCOMPARE(gpu.note, QStringLiteral("GPU model h100 (--gpu)"));
        QCOMPARE(detections, 0);
    }

    void savedChoiceBeatsDetection() {
        GpuChoice::remember(QStringLiteral("a100"));
        int detections = 0;
        const StartupGpu gpu = GpuChoice::atStartup({}, true, [&] {
            ++detections;
            return opencl("CPU");
        });
        QCOMPARE(gpu.name, QStringLiteral("a100"));
        QCOMPARE(gpu.source, StartupGpu::Source::Saved);
        QCOMPARE(gpu.note, QStringLiteral("GPU model a100 (your last choice)"));
        QCOMPARE(detections, 0);
    }

    void screenshotsIgnoreTheSavedChoice() {
        GpuChoice::remember(QStringLiteral("a100"));
        const StartupGpu gpu = GpuChoice::atStartup({}, false, [] { return opencl("CPU"); });
        QCOMPARE(gpu.name, QStringLiteral("pocl-cpu"));
        QCOMPARE(gpu.source, StartupGpu::Source::Detected);
        QCOMPARE(gpu.note, QStringLiteral("GPU model pocl-cpu (fits the detected OpenCL CPU)"));
    }

    void savedFileThatNoLongerLoadsFallsBackToDetection() {
        GpuChoice::remember(QStringLiteral("/nonexistent/my-gpu.json"));
        const StartupGpu gpu =
            GpuChoice::atStartup({}, true, [] { return cuda("NVIDIA H100 PCIe"); });
        QCOMPARE(gpu.name, QStringLiteral("h100"));
        QCOMPARE(gpu.source, StartupGpu::Source::Detected);
        QVERIFY2(gpu.details.startsWith(
                     QStringLiteral("Your last choice '/nonexistent/my-gpu.json' no longer loads")),
                 qPrintable(gpu.details));
    }

    void unknownAndMissingDevices() {
        const StartupGpu l4 = GpuChoice::atStartup({}, true, [] { return cuda("NVIDIA L4"); });
        QCOMPARE(l4.name, QStringLiteral("v100"));
        QCOMPARE(l4.note,
                 QStringLiteral("GPU model v100 (closest preset to the detected NVIDIA L4)"));
        const StartupGpu none = GpuChoice::atStartup({}, true, [] { return DeviceInfo{}; });
        QCOMPARE(none.name, QStringLiteral("v100"));
        QCOMPARE(none.source, StartupGpu::Source::Fallback);
        QCOMPARE(none.note, QStringLiteral("GPU model v100 (no CUDA or OpenCL device found)"));
    }

    /// The machine's real device: PoCL's OpenCL CPU device (part of the test machine's set-up).
    void realDetectionOnThisMachine() {
        QElapsedTimer timer;
        timer.start();
        const StartupGpu gpu = GpuChoice::atStartup({}, true, [] { return detectDevice(); });
        qInfo("detection took %lld ms: %s", timer.elapsed(), qPrintable(gpu.details));
        QCOMPARE(gpu.name, QStringLiteral("pocl-cpu"));
        QCOMPARE(gpu.source, StartupGpu::Source::Detected);
    }

    void windowAnnouncesAndRemembersUserPicks() {
        MainWindow window;
        SearchOptions options;
        options.gpu = GpuSpec::load("pocl-cpu");
        window.setInitialOptions(options, QStringLiteral("pocl-cpu"));
        const StartupGpu gpu = GpuChoice::atStartup({}, true, [] { return opencl("CPU"); });
        window.announceGpu(gpu);
        QCOMPARE(window.gpuNote(), gpu.note);
        auto *label = window.findChild<QLabel *>(QStringLiteral("gpuNote"));
        QVERIFY(label && label->text() == gpu.note);
        QVERIFY(GpuChoice::saved().isEmpty()); // set by the program: not the user's choice

        auto *box = window.findChild<QComboBox *>(QStringLiteral("gpuBox"));
        QVERIFY(box);
        box->setCurrentText(QStringLiteral("a100")); // as the user picks it
        QCOMPARE(GpuChoice::saved(), QStringLiteral("a100"));
        QCOMPARE(window.gpuNote(), QStringLiteral("GPU model a100 (your choice)"));
        // The next start begins where the user left off.
        QCOMPARE(GpuChoice::atStartup({}, true, [] { return opencl("CPU"); }).name,
                 QStringLiteral("a100"));
    }
};

QTEST_MAIN(GpuChoiceTest)
#include "GpuChoiceTest.moc"
