// BenchmarkController: the benchmark posted to the worker thread, its callbacks turned into queued
// signals on the GUI thread, stale generations dropped.
#include "controllers/BenchmarkController.h"

#include "util/Error.h"

#include <QMetaObject>

#include <optional>
#include <utility>

namespace beamscope {

BenchmarkController::BenchmarkController(QObject *parent)
    : QObject(parent), m_cancel(std::make_shared<std::atomic<bool>>(false)) {
    qRegisterMetaType<Measurement>();
    qRegisterMetaType<BenchReportPtr>();
    m_thread.setObjectName(QStringLiteral("beamscope-bench"));
    m_context = new QObject;
    m_context->moveToThread(&m_thread);
    m_thread.start();
}

BenchmarkController::~BenchmarkController() {
    m_cancel->store(true);
    m_thread.quit();
    m_thread.wait();
    delete m_context;
}

template <typename Result> void BenchmarkController::deliver(quint64 generation, Result &&result) {
    QMetaObject::invokeMethod(
        this,
        [this, generation, result = std::forward<Result>(result)]() mutable {
            if (generation == m_generation) result();
        },
        Qt::QueuedConnection);
}

void BenchmarkController::setBusy(bool busy) {
    if (busy == m_busy) return;
    m_busy = busy;
    Q_EMIT busyChanged(busy);
}

void BenchmarkController::cancel() {
    m_cancel->store(true);
}

void BenchmarkController::start(BenchOptions options) {
    cancel(); // a run still going ends at once; its results are dropped below
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    const quint64 generation = ++m_generation;
    setBusy(true);
    auto token = m_cancel;
    options.cancel = token.get();
    options.progress = nullptr;
    options.onProgress = [this, generation](const BenchProgress &p) {
        const QString label = QString::fromStdString(p.label);
        deliver(generation, [this, p, label] { Q_EMIT progress(p.done, p.total, label); });
    };
    options.onMeasured = [this, generation](const Measurement &m, bool baseline) {
        deliver(generation, [this, m, baseline] { Q_EMIT measured(m, baseline); });
    };
    QMetaObject::invokeMethod(
        m_context,
        [this, generation, token, options = std::move(options)] {
            std::optional<QString> failure;
            BenchReportPtr report;
            try {
                report = std::make_shared<const BenchReport>(runBenchmark(options));
            } catch (const std::exception &e) {
                failure = QString::fromStdString(detail::firstLine(e.what()));
            } catch (...) {
                failure = QStringLiteral("unexpected error in the benchmark worker");
            }
            deliver(generation, [this, report, failure] {
                setBusy(false);
                if (failure) {
                    Q_EMIT error(*failure);
                } else {
                    m_lastReport = report;
                    Q_EMIT finished(report);
                }
            });
        },
        Qt::QueuedConnection);
}

} // namespace beamscope
