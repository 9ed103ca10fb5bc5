// GeneratorLibraryLoader: a library opened on the JobTracker's worker, its names delivered
// unless a newer request came.
#include "GeneratorLibraryLoader.h"

#include "pipeline/GeneratorLibrary.h"
#include "pipeline/PythonGenerator.h"
#include "pipeline/UserCodeIsolation.h"
#include "util/Error.h"

#include <QFileInfo>

#include <exception>

namespace beamscope {

namespace {

/// The generators of the file at `path` (a library, a Python file, or a .hlpipe file: one
/// pipeline, named after the file); sets `openedPath` to the path the file is recorded as.
std::vector<std::string> generatorsIn(const QString &path, QString &openedPath) {
    openedPath = path;
    if (path.endsWith(QStringLiteral(".py"))) // run by Python in a process of its own
        return listPythonGenerators(path.toStdString(), userCodeIsolation().timeoutS);
    if (path.endsWith(QStringLiteral(".hlpipe"))) {
        if (!QFileInfo(path).isFile())
            throw Error("cannot open pipeline file '" + path.toStdString() + "': no such file");
        return {QFileInfo(path).completeBaseName().toStdString()};
    }
    const GeneratorLibrary library = GeneratorLibrary::open(path.toStdString());
    openedPath = QString::fromStdString(library.path());
    return library.generators();
}

} // namespace

GeneratorLibraryLoader::GeneratorLibraryLoader(QObject *parent)
    : QObject(parent), m_jobs(this, QStringLiteral("beamscope-generator-library")) {}

GeneratorLibraryLoader::~GeneratorLibraryLoader() = default;

void GeneratorLibraryLoader::load(const QString &path) {
    m_jobs.restart();
    m_jobs.post([this, path](const JobTracker::Job &job) {
        if (job.isCancelled()) return; // a newer request is queued behind this one
        QString openedPath, message;
        QStringList generators;
        bool ok = false;
        try {
            for (const std::string &name : generatorsIn(path, openedPath))
                generators << QString::fromStdString(name);
            ok = true;
        } catch (const std::exception &e) {
            message = QString::fromStdString(e.what()).section(QLatin1Char('\n'), 0, 0);
        }
        job.deliver([this, ok, path, openedPath, generators, message] {
            if (ok)
                Q_EMIT loaded(path, openedPath, generators);
            else
                Q_EMIT failed(path, message);
        });
    });
}

} // namespace beamscope
