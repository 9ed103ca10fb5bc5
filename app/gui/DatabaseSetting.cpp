// DatabaseSetting: QSettings key, the default from MeasurementStore, the file dialog.
#include "DatabaseSetting.h"

#include "store/MeasurementStore.h"

#include <QFileDialog>
#include <QSettings>

namespace beamscope {

namespace {

const char *const kKey = "measurementDatabase";

QString &runOverride() {
    static QString path;
    return path;
}

} // namespace

QString DatabaseSetting::defaultPath() {
    try {
        return QString::fromStdString(MeasurementStore::defaultPath());
    } catch (const std::exception &) {
        return QString(); // no home directory: nothing to record into
    }
}

QString DatabaseSetting::path() {
    if (!runOverride().isEmpty()) return runOverride();
    const QString saved = QSettings().value(QLatin1String(kKey)).toString();
    return saved.isEmpty() ? defaultPath() : saved;
}

void DatabaseSetting::setPath(const QString &path) {
    QSettings settings;
    if (path.isEmpty() || path == defaultPath())
        settings.remove(QLatin1String(kKey));
    else
        settings.setValue(QLatin1String(kKey), path);
}

void DatabaseSetting::overrideForThisRun(const QString &path) {
    runOverride() = path;
}

bool DatabaseSetting::choose(QWidget *parent) {
    const QString chosen = QFileDialog::getSaveFileName(
        parent, QObject::tr("Measurement database (new or existing file)"), path(),
        QObject::tr("SQLite databases (*.sqlite *.db);;All files (*)"), nullptr,
        QFileDialog::DontConfirmOverwrite);
    if (chosen.isEmpty()) return false;
    runOverride().clear();
    setPath(chosen);
    return true;
}

} // namespace beamscope
