// GeneratorLibraryLoader: one-thread pool, generation ids, queued delivery (as DagLayouter).
#include "GeneratorLibraryLoader.h"

#include "pipeline/GeneratorLibrary.h"

#include <QMetaObject>

#include <exception>

namespace beamscope {

GeneratorLibraryLoader::GeneratorLibraryLoader(QObject *parent) : QObject(parent) {
    m_pool.setMaxThreadCount(1);
    m_pool.setObjectName(QStringLiteral("beamscope-generator-library"));
}

GeneratorLibraryLoader::~GeneratorLibraryLoader() {
    ++m_generation;
    m_pool.waitForDone();
}

void GeneratorLibraryLoader::load(const QString &path) {
    const quint64 generation = ++m_generation;
    ++m_pending;
    m_pool.start([this, generation, path] {
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
        QMetaObject::invokeMethod(
            this,
            [this, generation, ok, path, openedPath, generators, message] {
                --m_pending;
                if (generation != m_generation) return;
                if (ok)
                    Q_EMIT loaded(path, openedPath, generators);
                else
                    Q_EMIT failed(path, message);
            },
            Qt::QueuedConnection);
    });
}

} // namespace beamscope
