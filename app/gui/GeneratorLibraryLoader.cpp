// GeneratorLibraryLoader: a library opened on the JobTracker's worker, its names delivered
// unless a newer request came.
#include "GeneratorLibraryLoader.h"

#include "pipeline/GeneratorLibrary.h"

#include <exception>

namespace beamscope {

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
            const GeneratorLibrary library = GeneratorLibrary::open(path.toStdString());
            openedPath = QString::fromStdString(library.path());
            for (const std::string &name : library.generators())
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
