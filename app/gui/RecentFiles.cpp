// RecentFiles: QSettings-backed list and its menu.
#include "RecentFiles.h"

#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace beamscope {

namespace {
constexpr int kMaxFiles = 10;
} // namespace

RecentFiles::RecentFiles(const QString &key, QMenu *menu, QObject *parent)
    : QObject(parent), m_key(key), m_menu(menu) {
    m_files = QSettings().value(m_key).toStringList();
    rebuildMenu();
}

void RecentFiles::add(const QString &path) {
    const QString absolute = QFileInfo(path).absoluteFilePath();
    m_files.removeAll(absolute);
    m_files.prepend(absolute);
    while (m_files.size() > kMaxFiles)
        m_files.removeLast();
    QSettings().setValue(m_key, m_files);
    rebuildMenu();
}

void RecentFiles::rebuildMenu() {
    m_menu->clear();
    for (const QString &file : m_files) {
        QAction *action = m_menu->addAction(QFileInfo(file).fileName());
        action->setToolTip(file);
        connect(action, &QAction::triggered, this, [this, file] { Q_EMIT fileChosen(file); });
    }
    m_menu->setEnabled(!m_files.isEmpty());
}

} // namespace beamscope
