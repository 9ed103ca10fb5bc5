// WindowLayout: QSettings keys under "layout/", the dock-set check, save on close, reset.
#include "WindowLayout.h"

#include <QDockWidget>
#include <QEvent>
#include <QMainWindow>
#include <QSettings>

namespace beamscope {

namespace {
const char *const kVersionKey = "layout/version";
const char *const kDocksKey = "layout/docks";
const char *const kGeometryKey = "layout/geometry";
const char *const kStateKey = "layout/state";
} // namespace

WindowLayout::WindowLayout(QMainWindow *window, std::function<void()> defaultSizes)
    : QObject(window), m_window(window), m_defaultState(window->saveState(kVersion)),
      m_defaultSizes(std::move(defaultSizes)) {
    window->installEventFilter(this);
}

QStringList WindowLayout::dockNames() const {
    QStringList names;
    for (const QDockWidget *dock : m_window->findChildren<QDockWidget *>())
        names << dock->objectName();
    names.sort();
    return names;
}

bool WindowLayout::restoreAndKeep() {
    m_saveOnClose = true;
    return restore();
}

bool WindowLayout::restore() {
    const QSettings settings;
    if (settings.value(kVersionKey).toInt() != kVersion ||
        settings.value(kDocksKey).toStringList() != dockNames()) {
        return false;
    }
    const QByteArray geometry = settings.value(kGeometryKey).toByteArray();
    if (!geometry.isEmpty()) m_window->restoreGeometry(geometry);
    m_restored = m_window->restoreState(settings.value(kStateKey).toByteArray(), kVersion);
    return m_restored;
}

void WindowLayout::save() const {
    QSettings settings;
    settings.setValue(kVersionKey, kVersion);
    settings.setValue(kDocksKey, dockNames());
    settings.setValue(kGeometryKey, m_window->saveGeometry());
    settings.setValue(kStateKey, m_window->saveState(kVersion));
}

void WindowLayout::reset() {
    m_window->restoreState(m_defaultState, kVersion);
    if (m_defaultSizes) m_defaultSizes();
}

bool WindowLayout::eventFilter(QObject *watched, QEvent *event) {
    if (watched == m_window && event->type() == QEvent::Close && m_saveOnClose) save();
    return QObject::eventFilter(watched, event);
}

} // namespace beamscope
