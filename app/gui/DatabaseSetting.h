// DatabaseSetting: which measurement database (SQLite file) the GUI's Benchmark and Tune docks
// record into. Kept in QSettings ("measurementDatabase"), read on the GUI thread; by default the
// per-user file of MeasurementStore::defaultPath(). --db PATH overrides it for one run without
// saving. File ▸ Measurement database… lets the user pick another file.
#pragma once

#include <QString>

class QWidget;

namespace beamscope {

class DatabaseSetting {
public:
    /// The per-user default ($XDG_DATA_HOME/beamscope/measurements.sqlite); "" when neither
    /// XDG_DATA_HOME nor HOME is set (then nothing is recorded).
    static QString defaultPath();
    /// The file in use: this run's override, else the saved setting, else defaultPath().
    static QString path();
    /// Saves `path` as the setting ("" : back to the default).
    static void setPath(const QString &path);
    /// For this run only (--db): not saved.
    static void overrideForThisRun(const QString &path);
    /// Asks for a database file (existing or new); true when one was chosen and saved.
    static bool choose(QWidget *parent);
};

} // namespace beamscope
