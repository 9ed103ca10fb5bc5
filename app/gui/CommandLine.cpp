// CommandLine: QCommandLineParser set-up and validation of the catalog app and its parameters.
#include "CommandLine.h"

#include "SharedOptions.h"

#include "measure/Baselines.h"
#include "pipeline/AppCatalog.h"
#include "pipeline/random/RandomPipeline.h"
#include "schedule/GpuSpec.h"
#include "util/Error.h"

#include <QCommandLineParser>
#include <QFileInfo>

namespace beamscope {

namespace {

/// The option `definition` (shared with beamscope-cli), its help line followed by `helpSuffix`.
QCommandLineOption sharedOption(const options::Definition &definition,
                                const QString &helpSuffix = {}) {
    QStringList names;
    if (*definition.shortName) names << QString::fromLatin1(definition.shortName);
    names << QString::fromLatin1(definition.name);
    return QCommandLineOption(names, QString::fromUtf8(definition.help) + helpSuffix,
                              QString::fromLatin1(definition.valueName));
}

int integerIn(const QString &text, const char *what, int min, int max) {
    bool ok = false;
    const int v = text.toInt(&ok);
    if (!ok || v < min || v > max) {
        throw UsageError(std::string("--") + what + " needs an integer in " + std::to_string(min) +
                         ".." + std::to_string(max) + ", not '" + text.toStdString() + "'");
    }
    return v;
}

int positiveInt(const QString &text, const char *what, int max) {
    return integerIn(text, what, 1, max);
}

/// Catalog apps are checked here (name, parameter names and ranges) so that a typo fails
/// before the window opens; generator parameters are checked when the generator is built.
void checkCatalogApp(const PipelineSource &source) {
    if (isRandomSpec(source.name)) { // random:SEED[:STAGES], with size=N at most
        parseRandomSpec(source.name);
        checkRandomParams(parseAppParams(source.params));
        return;
    }
    const AppDefinition *app = findApp(source.name);
    if (!app) throw UsageError("unknown app '" + source.name + "' (beamscope-cli apps lists them)");
    for (const auto &[key, value] : parseAppParams(source.params)) {
        const AppParameter *param = nullptr;
        for (const AppParameter &p : app->parameters) {
            if (p.name == key) param = &p;
        }
        if (!param) throw UsageError("app '" + source.name + "' has no parameter '" + key + "'");
        if (value < param->minValue || value > param->maxValue) {
            throw UsageError("parameter '" + key + "' of '" + source.name + "' must be in " +
                             std::to_string(param->minValue) + ".." +
                             std::to_string(param->maxValue));
        }
    }
}

/// A value naming a file rather than a preset: a directory part or an extension.
bool looksLikePath(const QString &value) {
    return value.contains(QLatin1Char('/')) || value.contains(QLatin1Char('.'));
}

/// `arguments` without the options QApplication takes for itself (-platform offscreen, ...),
/// which are parsed here before QApplication exists.
QStringList withoutQtOptions(const QStringList &arguments) {
    static const QStringList withValue = {"-platform",
                                          "-platformpluginpath",
                                          "-platformtheme",
                                          "-plugin",
                                          "-qwindowgeometry",
                                          "-qwindowtitle",
                                          "-qwindowicon",
                                          "-style",
                                          "-stylesheet",
                                          "-session",
                                          "-display",
                                          "-geometry",
                                          "-title",
                                          "-name",
                                          "-visual",
                                          "-fn",
                                          "-font",
                                          "-bg",
                                          "-background",
                                          "-fg",
                                          "-foreground",
                                          "-btn",
                                          "-button",
                                          "-im",
                                          "-inputstyle"};
    static const QStringList flags = {"-reverse", "-widgetcount", "-nograb",
                                      "-dograb",  "-sync",        "-qwindowcontainer"};
    QStringList out;
    for (int i = 0; i < arguments.size(); ++i) {
        QString a = arguments[i];
        if (a.startsWith(QLatin1String("--")) && withValue.contains(a.mid(1))) a = a.mid(1);
        if (i > 0 && withValue.contains(a)) {
            ++i;
            continue;
        }
        if (i > 0 && flags.contains(a)) continue;
        out << arguments[i];
    }
    return out;
}

/// The value of integer option `definition`, checked against its range.
int integerOption(const QString &text, const options::Definition &definition) {
    return integerIn(text, definition.name, definition.min, definition.max);
}

} // namespace

bool asksForHelp(const QStringList &arguments) {
    for (const QString &a : arguments.mid(1)) {
        if (a == QLatin1String("-h") || a == QLatin1String("--help") ||
            a == QLatin1String("--help-all") || a == QLatin1String("-v") ||
            a == QLatin1String("--version")) {
            return true;
        }
    }
    return false;
}

GuiArguments parseGuiArguments(const QStringList &arguments) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Beamscope: watch and steer the GPU autoscheduling beam search of Halide pipelines"));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption app(
        QStringLiteral("app"),
        QStringLiteral("catalog app, or generator name with --generator-lib or --generator-py"),
        QStringLiteral("APP"));
    // The pipeline and search options beamscope-cli takes too (app/common/SharedOptions.h).
    const QCommandLineOption param = sharedOption(options::param);
    const QCommandLineOption lib = sharedOption(options::generatorLib);
    const QCommandLineOption python = sharedOption(options::generatorPy);
    const QCommandLineOption hlpipe = sharedOption(options::pipelineFile);
    const QCommandLineOption estimate = sharedOption(options::estimate);
    const QCommandLineOption input = sharedOption(options::input);
    const QCommandLineOption beam = sharedOption(options::beam);
    const QCommandLineOption passes = sharedOption(options::passes);
    const QCommandLineOption seed = sharedOption(options::seed);
    const QCommandLineOption gpu = sharedOption(options::gpu);
    const QCommandLineOption pins =
        sharedOption(options::pins, QStringLiteral(" (as for beamscope-cli search --pins)"));
    const QCommandLineOption costModel = sharedOption(options::costModel);
    const QCommandLineOption freezeMinFuncs = sharedOption(options::freezeMinFuncs);
    const QCommandLineOption db =
        sharedOption(options::database, QStringLiteral(" (default: the saved setting)"));
    const QCommandLineOption steps(
        QStringLiteral("steps"), QStringLiteral("steps to take once loaded"), QStringLiteral("N"));
    const QCommandLineOption shot(
        QStringLiteral("screenshot"),
        QStringLiteral("save the window as PNG after the steps, then exit"),
        QStringLiteral("FILE.png"));
    const QCommandLineOption dock(
        QStringLiteral("dock"),
        QStringLiteral(
            "show this dock on top of its tab group (title or object name, e.g. Export)"),
        QStringLiteral("NAME"));
    const QCommandLineOption bench(
        QStringLiteral("bench"),
        QStringLiteral("with --screenshot: once the search settles, benchmark the top K schedules "
                       "of the beam and these baselines (") +
            QString::fromStdString(baselineNames()) + QStringLiteral(") on the local device first"),
        QStringLiteral("K[,BASELINE...]"));
    const QCommandLineOption tune(
        QStringLiteral("tune"),
        QStringLiteral("with --screenshot: once the pipeline is loaded, tune it in the Tune dock "
                       "(ROUNDS rounds of BATCH measurements on the local device) first"),
        QStringLiteral("ROUNDS,BATCH"));
    const QCommandLineOption showStep(
        QStringLiteral("show-step"),
        QStringLiteral("with --screenshot: once the search settles, go back to step K (1-based) "
                       "in the Timeline, its candidates replayed"),
        QStringLiteral("K"));
    const QCommandLineOption compare(
        QStringLiteral("compare"),
        QStringLiteral("with --screenshot: once the search settles, compare beam states A and B "
                       "(1-based ranks) in the Compare dock"),
        QStringLiteral("A,B"));
    const QCommandLineOption compareWith(
        QStringLiteral("compare-with"),
        QStringLiteral("with --screenshot: once the search settles, import side B of the Compare "
                       "dock from a Halide autoscheduler (anderson2021, anderson2021-paper, "
                       "li2018, mullapudi2016, naive) or a JSON schedule file"),
        QStringLiteral("WITH"));
    parser.addOptions({app, param, lib, estimate, input, beam, passes, seed, gpu, pins, steps, shot,
                       dock, bench, tune, db, costModel});
    parser.addOptions({showStep, compare, compareWith, python, hlpipe, freezeMinFuncs});
    parser.addPositionalArgument(QStringLiteral("session"),
                                 QStringLiteral("a session file to open"),
                                 QStringLiteral("[SESSION.json]"));
    if (!parser.parse(withoutQtOptions(arguments)))
        throw UsageError(parser.errorText().toStdString());
    if (parser.isSet(QStringLiteral("help"))) parser.showHelp(0);
    if (parser.isSet(QStringLiteral("version"))) parser.showVersion();

    GuiArguments out;
    if (parser.positionalArguments().size() > 1) throw UsageError("at most one session file");
    if (!parser.positionalArguments().isEmpty()) out.session = parser.positionalArguments().front();
    if (!out.session.isEmpty() && !QFileInfo::exists(out.session))
        throw UsageError("no such session file '" + out.session.toStdString() + "'");
    if (parser.isSet(app)) {
        PipelineSource source;
        source.name = parser.value(app).toStdString();
        source.generatorLibrary = parser.value(lib).toStdString();
        source.generatorPython = parser.value(python).toStdString();
        source.pipelineFile = parser.value(hlpipe).toStdString();
        checkPipelineSource(source);
        for (const QString &p : parser.values(param))
            source.params.push_back(p.toStdString());
        for (const QString &e : parser.values(estimate))
            source.estimates.push_back(e.toStdString());
        for (const QString &i : parser.values(input))
            source.inputs.push_back(i.toStdString());
        if (userFile(source).empty())
            checkCatalogApp(source);
        else if (!QFileInfo::exists(QString::fromStdString(userFile(source))))
            throw UsageError("no such file '" + userFile(source) + "'");
        out.source = source;
    } else if (parser.isSet(param) || parser.isSet(lib) || parser.isSet(estimate) ||
               parser.isSet(input) || parser.isSet(python) || parser.isSet(hlpipe)) {
        throw UsageError("-p, --estimate, --input, --generator-lib, --generator-py and "
                         "--pipeline-file need --app");
    }
    if (out.source && !out.session.isEmpty())
        throw UsageError("give either --app or a session file, not both");
    if (parser.isSet(beam)) out.beam = integerOption(parser.value(beam), options::beam);
    if (parser.isSet(passes)) out.passes = integerOption(parser.value(passes), options::passes);
    if (parser.isSet(freezeMinFuncs))
        out.freezeMinFuncs = integerOption(parser.value(freezeMinFuncs), options::freezeMinFuncs);
    if (parser.isSet(seed)) {
        bool ok = false;
        out.seed = parser.value(seed).toULongLong(&ok);
        if (!ok) throw UsageError("--seed needs a non-negative integer");
    }
    if (parser.isSet(gpu)) {
        out.gpu = parser.value(gpu);
        if (looksLikePath(out.gpu) && !QFileInfo::exists(out.gpu))
            throw UsageError("--gpu: no such file '" + out.gpu.toStdString() + "'");
        GpuSpec::load(out.gpu.toStdString()); // throws for an unknown preset or a bad file
    }
    if (parser.isSet(pins))
        out.pins = loadPinFile(parser.value(pins).toStdString()); // throws Error
    if (parser.isSet(steps)) {
        bool ok = false;
        out.steps = parser.value(steps).toInt(&ok);
        if (!ok || out.steps < 0) throw UsageError("--steps needs a non-negative integer");
    }
    out.screenshot = parser.value(shot);
    out.dock = parser.value(dock);
    if (parser.isSet(bench)) {
        QStringList parts = parser.value(bench).split(QLatin1Char(','), Qt::SkipEmptyParts);
        out.benchCount = positiveInt(parts.isEmpty() ? QString() : parts.takeFirst(), "bench", 64);
        for (const QString &name : parts) {
            try {
                out.benchBaselines
                    << QString::fromLatin1(baselineName(parseBaseline(name.toStdString())));
            } catch (const UsageError &) {
                throw UsageError("--bench: unknown baseline '" + name.toStdString() + "'");
            }
        }
        if (out.screenshot.isEmpty()) throw UsageError("--bench needs --screenshot");
    }
    if (parser.isSet(tune)) {
        const QStringList parts = parser.value(tune).split(QLatin1Char(','));
        if (parts.size() != 2) throw UsageError("--tune needs ROUNDS,BATCH (e.g. 2,4)");
        out.tuneRounds = positiveInt(parts[0], "tune", 100);
        out.tuneBatch = positiveInt(parts[1], "tune", 256);
        if (out.screenshot.isEmpty()) throw UsageError("--tune needs --screenshot");
        if (out.benchCount > 0) throw UsageError("give either --bench or --tune, not both");
    }
    if (parser.isSet(showStep)) {
        out.showStep = positiveInt(parser.value(showStep), "show-step", 1000000);
        if (out.screenshot.isEmpty()) throw UsageError("--show-step needs --screenshot");
    }
    if (parser.isSet(compare)) {
        const QStringList parts = parser.value(compare).split(QLatin1Char(','));
        if (parts.size() != 2) throw UsageError("--compare needs two beam ranks A,B (e.g. 1,2)");
        out.compareA = positiveInt(parts[0], "compare", 4096);
        out.compareB = positiveInt(parts[1], "compare", 4096);
        if (out.screenshot.isEmpty()) throw UsageError("--compare needs --screenshot");
    }
    if (parser.isSet(compareWith)) {
        out.compareWith = parser.value(compareWith);
        if (!looksLikePath(out.compareWith)) {
            try {
                out.compareWith =
                    QString::fromLatin1(baselineName(parseBaseline(out.compareWith.toStdString())));
            } catch (const UsageError &) {
                throw UsageError("--compare-with: '" + out.compareWith.toStdString() +
                                 "' is neither a baseline (" + baselineNames() +
                                 ") nor a schedule file");
            }
        } else if (!QFileInfo::exists(out.compareWith)) {
            throw UsageError("--compare-with: no such file '" + out.compareWith.toStdString() +
                             "'");
        }
        if (out.screenshot.isEmpty()) throw UsageError("--compare-with needs --screenshot");
        if (out.compareA > 0) throw UsageError("give either --compare or --compare-with, not both");
    }
    out.database = parser.value(db);
    if (parser.isSet(costModel)) {
        out.costModel = parser.value(costModel);
        const std::string spec = out.costModel.toStdString();
        if (looksLikePath(out.costModel) && !QFileInfo::exists(out.costModel))
            throw UsageError("--cost-model: no such file '" + spec + "'");
        if (spec != "analytic" && spec != "polymage" && spec != "pretrained" &&
            !QFileInfo::exists(out.costModel))
            throw UsageError("--cost-model: '" + spec +
                             "' is neither analytic, polymage, pretrained nor a model file");
    }
    if (!out.screenshot.isEmpty() && !out.source && out.session.isEmpty()) {
        throw UsageError("--screenshot needs --app or a session file");
    }
    return out;
}

} // namespace beamscope
