// RecentFiles: the recently opened session files, kept in QSettings (read and written on the
// GUI thread only) and shown as a menu.
#pragma once

#include <QObject>
#include <QStringList>

class QMenu;

namespace beamscope {

class RecentFiles : public QObject {
    Q_OBJECT
public:
    /// Reads the list from QSettings key `key`; fills `menu`.
    RecentFiles(const QString &key, QMenu *menu, QObject *parent = nullptr);

    const QStringList &files() const { return m_files; }
    /// Puts `path` first (at most 10 kept) and saves the list.
    void add(const QString &path);

Q_SIGNALS:
    void fileChosen(const QString &path);

private:
    void rebuildMenu();

    QString m_key;
    QMenu *m_menu;
    QStringList m_files;
};

} // namespace beamscope
