// DagLayouter: one-thread pool, generation ids, queued delivery.
#include "views/dag/DagLayouter.h"

#include "views/dag/GraphvizLayout.h"

#include <QMetaObject>

#include <exception>

namespace beamscope {

DagLayouter::DagLayouter(QObject *parent) : QObject(parent) {
    m_pool.setMaxThreadCount(1);
    m_pool.setObjectName(QStringLiteral("beamscope-layout"));
}

DagLayouter::~DagLayouter() {
    ++m_generation;
    m_pool.waitForDone();
}

void DagLayouter::layout(DagLayoutRequest request, std::shared_ptr<const void> keepAlive) {
    const quint64 generation = ++m_generation;
    ++m_pending;
    m_pool.start(
        [this, generation, request = std::move(request), keepAlive = std::move(keepAlive)] {
            std::shared_ptr<const DagLayout> result;
            QString message;
            try {
                result = std::make_shared<const DagLayout>(computeDagLayout(request));
            } catch (const std::exception &e) {
                message = QString::fromUtf8(e.what());
            }
            QMetaObject::invokeMethod(
                this,
                [this, generation, result, message] {
                    --m_pending;
                    if (generation != m_generation) return;
                    if (result)
                        Q_EMIT layoutReady(result);
                    else
                        Q_EMIT layoutFailed(message);
                },
                Qt::QueuedConnection);
        });
}

} // namespace beamscope
