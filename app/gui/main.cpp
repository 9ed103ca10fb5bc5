// beamscope: the interactive explorer. Parses the command line (one line on stderr and exit 2
// for bad input), opens the main window, loads the pipeline or session given, and in
// --screenshot mode saves the settled window as PNG and exits.
#include "CommandLine.h"
#include "DatabaseSetting.h"
#include "GpuChoice.h"
#include "MainWindow.h"
#include "ScreenshotRunner.h"
#include "cost/PretrainedModel.h"

#include "measure/WorkerRunner.h"
#include "pipeline/UserCodeIsolation.h"
#include "util/Error.h"
#include "util/Version.h"

#include <QApplication>
#include <QScreen>

#include <cstdio>

namespace {
/// --screenshot runs unattended: Qt's platform warnings (offscreen plugin, XDG paths) would
/// bury the one line a failure prints, so only critical messages pass.
void quietMessageHandler(QtMsgType type, const QMessageLogContext &, const QString &message) {
    if (type == QtCriticalMsg || type == QtFatalMsg)
        std::fprintf(stderr, "%s\n", qPrintable(message));
}

void setApplicationNames() {
    QCoreApplication::setOrganizationName(QStringLiteral("Beamscope"));
    QCoreApplication::setApplicationName(QStringLiteral("beamscope"));
    QCoreApplication::setApplicationVersion(QString::fromStdString(beamscope::versionLine()));
}
} // namespace

int main(int argc, char **argv) {
    using namespace beamscope;
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    if (asksForHelp(arguments)) {
        // No window system needed to print help or the version (help2man runs this headless).
        QCoreApplication app(argc, argv);
        setApplicationNames();
        parseGuiArguments(arguments); // prints and exits
        return 0;
    }
    // Bad input is reported before Qt starts, so stderr holds exactly one line.
    GuiArguments args;
    SearchOptions options;
    try {
        args = parseGuiArguments(arguments);
        if (!args.gpu.isEmpty()) options.gpu = GpuSpec::load(args.gpu.toStdString());
    } catch (const std::exception &e) {
        std::fprintf(stderr, "beamscope: %s\n", e.what());
        return 2;
    }
    if (!args.screenshot.isEmpty()) qInstallMessageHandler(quietMessageHandler);
    QApplication app(argc, argv);
    setApplicationNames();
    if (args.beam) options.beamSize = *args.beam;
    if (args.passes) options.passes = *args.passes;
    if (args.freezeMinFuncs) options.freezeMinFuncs = *args.freezeMinFuncs;
    if (args.seed) options.seed = *args.seed;
    if (!args.costModel.isEmpty()) options.costModel = args.costModel.toStdString();
    if (!args.database.isEmpty()) DatabaseSetting::overrideForThisRun(args.database);

    // The GPU model: --gpu, else the user's last choice (not for screenshots), else the
    // detected device's preset. Detection takes a moment (it asks the drivers); only then.
    const StartupGpu gpu =
        GpuChoice::atStartup(args.gpu, args.screenshot.isEmpty(), [] { return detectDevice(); });
    try {
        options.gpu = GpuSpec::load(gpu.name.toStdString());
    } catch (const std::exception &e) {
        std::fprintf(stderr, "beamscope: %s\n", e.what());
        return 1;
    }
    // The default model: the pretrained one where it fits the GPU model, else analytic.
    if (args.costModel.isEmpty()) options.costModel = defaultCostModelSpec(options.gpu);
    // A user's generator is built in a process of its own first: its crash or hang is an error
    // in the window, never the end of the window (and of the user's unsaved session).
    setUserCodeIsolation({true, defaultWorkerPath(), UserCodeIsolationOptions{}.timeoutS});
    MainWindow window;
    window.setInitialOptions(options, gpu.name);
    window.announceGpu(gpu);
    // The default size, within the screen (a laptop's 1280x720 gets all of it); a screenshot
    // shows the documented default unless -qwindowgeometry asks for another.
    QSize size(1680, 1020);
    if (args.screenshot.isEmpty())
        size = size.boundedTo(QGuiApplication::primaryScreen()->availableGeometry().size());
    // Qt applies -qwindowgeometry at the first show only where nothing sized the window before:
    // the size it asks for ("1280x720", "1280x720+0+0") is the window's own.
    const qsizetype geometry = arguments.indexOf(QStringLiteral("-qwindowgeometry"));
    if (geometry >= 0 && geometry + 1 < arguments.size()) {
        const QStringList wh =
            arguments[geometry + 1].section(QLatin1Char('+'), 0, 0).split(QLatin1Char('x'));
        if (wh.size() == 2 && wh[0].toInt() > 0 && wh[1].toInt() > 0)
            size = QSize(wh[0].toInt(), wh[1].toInt());
    }
    window.resize(size);
    // A screenshot shows the default layout and leaves the user's saved one alone.
    if (args.screenshot.isEmpty()) window.keepLayoutAcrossRuns();
    if (!args.screenshot.isEmpty()) {
        auto *runner = new ScreenshotRunner(&window, args.screenshot);
        if (args.benchCount > 0) {
            BenchSettings bench;
            bench.count = args.benchCount;
            bench.baselines = args.benchBaselines;
            runner->benchmarkFirst(bench);
        }
        if (args.tuneRounds > 0) {
            TuneSettings tune;
            tune.rounds = args.tuneRounds;
            tune.batch = args.tuneBatch;
            runner->tuneFirst(tune);
        }
        if (args.showStep > 0) runner->showStepFirst(args.showStep - 1);
        if (args.compareA > 0) runner->compareFirst(args.compareA - 1, args.compareB - 1);
        if (!args.compareWith.isEmpty()) runner->importFirst(args.compareWith);
    }
    window.show();
    // Raised once shown: raising a dock before creates the window, and the size asked for with
    // -qwindowgeometry, applied at the first show, would be lost.
    if (!args.dock.isEmpty() && !window.raiseDock(args.dock)) {
        std::fprintf(stderr, "beamscope: no dock '%s' (docks: %s)\n", qPrintable(args.dock),
                     qPrintable(window.dockTitles().join(QStringLiteral(", "))));
        return 2;
    }
    if (!args.session.isEmpty())
        window.openSession(args.session);
    else if (args.source)
        window.loadPipeline(*args.source, args.steps, args.pins);
    return QApplication::exec();
}
