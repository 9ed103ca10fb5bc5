// queuedCall: QMetaObject::invokeMethod(target, fn, Qt::QueuedConnection), in a form
// ThreadSanitizer can follow. Qt's event queue orders a post before its call with a lock inside
// libQt6Core, and a distribution's Qt has no TSan instrumentation: TSan would report every
// hand-off (what the poster wrote into the captures, read on the target's thread) as a race.
// Under -fsanitize=thread the poster holds an instrumented mutex while it posts and the call
// takes it before touching its captures, which gives TSan the same ordering Qt gives; races
// that do not go through a hand-off are still reported. Other builds post directly.
#pragma once

#include <QMetaObject>
#include <QObject>

#include <utility>

#if defined(__SANITIZE_THREAD__)
#include <mutex>
#endif

namespace beamscope {

#if defined(__SANITIZE_THREAD__)
inline std::mutex &queuedCallMutex() {
    static std::mutex m;
    return m;
}
#endif

template <typename Fn> void queuedCall(QObject *target, Fn fn) {
#if defined(__SANITIZE_THREAD__)
    std::lock_guard<std::mutex> posting(queuedCallMutex());
    QMetaObject::invokeMethod(
        target,
        [fn = std::move(fn)]() mutable {
            // Waits for the poster to leave invokeMethod; reads no capture before.
            { std::lock_guard<std::mutex> posted(queuedCallMutex()); }
            fn();
        },
        Qt::QueuedConnection);
#else
    QMetaObject::invokeMethod(target, std::move(fn), Qt::QueuedConnection);
#endif
}

} // namespace beamscope
