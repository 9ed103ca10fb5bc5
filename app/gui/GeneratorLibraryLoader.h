// GeneratorLibraryLoader: opens a generator library (dlopen, then Halide's generator registry;
// with isolation on, first in a process of its own), lists a Python file's generators (in Python)
// or names a .hlpipe file's pipeline
// on a worker thread, since a library's static initializers may take any time, and delivers its
// generator names or a one-line error on the GUI thread (through the JobTracker). A newer
// request drops an older one's result. The library must be built against the libHalide Beamscope
// runs on (GeneratorLibrary refuses one that is not).
#pragma once

#include "controllers/JobTracker.h"

#include <QObject>
#include <QStringList>

namespace beamscope {

class GeneratorLibraryLoader : public QObject {
    Q_OBJECT
public:
    explicit GeneratorLibraryLoader(QObject *parent = nullptr);
    /// Waits for a running load (its result is dropped).
    ~GeneratorLibraryLoader() override;

    /// Starts opening the library at `path`.
    void load(const QString &path);
    /// True while a load is running or queued.
    bool isLoading() const { return m_jobs.isBusy(); }

Q_SIGNALS:
    /// `path` as requested, `openedPath` as GeneratorLibrary records it, the generators' names.
    void loaded(const QString &path, const QString &openedPath, const QStringList &generators);
    /// `path` could not be opened; `message` is one line.
    void failed(const QString &path, const QString &message);

private:
    JobTracker m_jobs;
};

} // namespace beamscope
