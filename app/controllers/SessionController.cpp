// SessionController: atomic save, read and replay of session files.
#include "controllers/SessionController.h"

#include "controllers/SearchController.h"
#include "util/Error.h"

#include <QFile>
#include <QSaveFile>

namespace beamscope {

SessionController::SessionController(SearchController *search, QObject *parent)
    : QObject(parent), m_search(search) {}

Session SessionController::currentSession() const {
    Session s;
    s.source = m_search->source();
    s.options = m_search->options();
    s.gpuName = m_gpuName.toStdString();
    s.steps = m_search->stepsDone();
    if (m_benchmark) s.benchmark = *m_benchmark;
    return s;
}

bool SessionController::writeSession(const QString &path, const Session &session, QString *error) {
    const QByteArray text = QByteArray::fromStdString(sessionToJson(session).dump(2) + "\n");
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size() || !file.commit()) {
        if (error)
            *error = QStringLiteral("cannot write session '%1': %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

std::optional<Session> SessionController::readSession(const QString &path, QString *error) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("cannot read session '%1': %2").arg(path, file.errorString());
        return std::nullopt;
    }
    try {
        const nlohmann::json j = nlohmann::json::parse(file.readAll().toStdString());
        return sessionFromJson(j);
    } catch (const nlohmann::json::exception &) {
        if (error) *error = QStringLiteral("session '%1' is not valid JSON").arg(path);
    } catch (const std::exception &e) {
        if (error)
            *error = QStringLiteral("session '%1': %2").arg(path, QString::fromStdString(e.what()));
    }
    return std::nullopt;
}

bool SessionController::save(const QString &path) {
    QString message;
    if (!writeSession(path, currentSession(), &message)) {
        Q_EMIT error(message);
        return false;
    }
    m_path = path;
    Q_EMIT saved(path);
    return true;
}

bool SessionController::open(const QString &path) {
    QString message;
    std::optional<Session> session = readSession(path, &message);
    if (!session) {
        Q_EMIT error(message);
        return false;
    }
    m_path = path;
    m_gpuName = QString::fromStdString(session->gpuName);
    m_search->load(session->source, session->options);
    if (session->steps > 0) m_search->stepTo(session->steps);
    m_benchmark =
        session->benchmark ? std::make_shared<const BenchReport>(*session->benchmark) : nullptr;
    Q_EMIT opened(path, m_gpuName);
    Q_EMIT benchmarkOpened(m_benchmark);
    return true;
}

} // namespace beamscope
