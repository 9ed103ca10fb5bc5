// DagLayouter: lays a DAG out on a worker thread (GraphvizLayout, under the Graphviz mutex) and
// delivers the result on the GUI thread, through the JobTracker. A newer request makes an older
// one's result be dropped.
#pragma once

#include "controllers/JobTracker.h"
#include "views/dag/DagLayout.h"

#include <QObject>

#include <memory>

namespace beamscope {

class DagLayouter : public QObject {
    Q_OBJECT
public:
    explicit DagLayouter(QObject *parent = nullptr);
    /// Waits for a running layout (its result is dropped).
    ~DagLayouter() override;

    /// Starts laying out `request` (its DAG must outlive the layout: pass the owner in
    /// `keepAlive`).
    void layout(DagLayoutRequest request, std::shared_ptr<const void> keepAlive);
    /// True while a layout is running or queued.
    bool isBusy() const { return m_jobs.isBusy(); }

Q_SIGNALS:
    void layoutReady(std::shared_ptr<const beamscope::DagLayout> layout);
    void layoutFailed(const QString &message);

private:
    JobTracker m_jobs;
};

} // namespace beamscope
