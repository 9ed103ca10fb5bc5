// RunnerSettings: where the Benchmark and Tune docks measure — on this machine (the local runner)
// or on a Slurm cluster — with the Slurm settings a user gives in the dock: a config file and the
// fields that override it (shared directory, partition, account, GRES, time limit, where
// candidates compile, the worker as the nodes see it, array throttle, poll interval, extra sbatch
// options), the same keys as the CLI's --slurm-* flags (docs/cluster.md). Each dock keeps its
// own copy in QSettings under its group ("bench/runner/...", "tune/runner/...").
#pragma once

#include "measure/MeasurementRunner.h"

#include <QString>
#include <QStringList>

namespace beamscope {

struct RunnerSettings {
    RunnerKind kind = RunnerKind::Local;
    QString config;      ///< Slurm config file ("" : none)
    QString dir;         ///< shared job directory (required for Slurm, here or in the file)
    QString partition;   ///< "" : the file's or the cluster's default
    QString account;     ///< "" : the file's or the user's default
    QString gres;        ///< "" : the file's or gpu:1; "none": no GRES
    QString time;        ///< "" : twice the worker's time limit
    QString compile;     ///< "", "local" or "job"
    QString worker;      ///< "" : this machine's worker path
    int maxParallel = 0; ///< 0 : the file's, or no limit
    double pollS = 0;    ///< 0 : the file's, or 2 s
    QStringList options; ///< extra sbatch options

    /// The Slurm options these settings give (the config file, then the fields set); throws
    /// UsageError with a one-line message (unreadable file, bad value, no directory).
    SlurmOptions slurm() const;
    /// "local" or "Slurm: /shared/jobs, partition gpu, gres gpu:1" for tool tips and hints.
    QString describe() const;

    /// The settings saved under `group` (defaults where none are).
    static RunnerSettings load(const QString &group);
    void save(const QString &group) const;

    bool operator==(const RunnerSettings &) const = default;
};

} // namespace beamscope
