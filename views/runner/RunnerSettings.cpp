// RunnerSettings: conversion to SlurmOptions (through slurmOptionsFrom, as the CLI), a summary
// line, and QSettings persistence.
#include "views/runner/RunnerSettings.h"

#include <QObject>
#include <QSettings>

#include <algorithm>

#include <string>
#include <utility>
#include <vector>

namespace beamscope {

SlurmOptions RunnerSettings::slurm() const {
    std::vector<std::pair<std::string, std::string>> settings = {
        {"dir", dir.toStdString()},         {"partition", partition.toStdString()},
        {"account", account.toStdString()}, {"gres", gres.toStdString()},
        {"time", time.toStdString()},       {"compile", compile.toStdString()},
        {"worker", worker.toStdString()}};
    for (const QString &o : options)
        settings.emplace_back("option", o.trimmed().toStdString());
    if (maxParallel > 0) settings.emplace_back("max_parallel", std::to_string(maxParallel));
    if (pollS > 0) settings.emplace_back("poll", std::to_string(pollS));
    return slurmOptionsFrom(config.trimmed().toStdString(), settings);
}

QString RunnerSettings::describe() const {
    if (kind == RunnerKind::Local) return QObject::tr("local: every device of this machine");
    QStringList parts;
    if (!config.isEmpty()) parts << QObject::tr("config %1").arg(config);
    if (!dir.isEmpty()) parts << dir;
    if (!partition.isEmpty()) parts << QObject::tr("partition %1").arg(partition);
    if (!account.isEmpty()) parts << QObject::tr("account %1").arg(account);
    if (!gres.isEmpty()) parts << QObject::tr("gres %1").arg(gres);
    if (!time.isEmpty()) parts << QObject::tr("time %1").arg(time);
    if (!compile.isEmpty()) parts << QObject::tr("compile %1").arg(compile);
    return QObject::tr("Slurm: %1")
        .arg(parts.isEmpty() ? QObject::tr("(no directory set)")
                             : parts.join(QStringLiteral(", ")));
}

RunnerSettings RunnerSettings::load(const QString &group) {
    QSettings s;
    s.beginGroup(group + QStringLiteral("/runner"));
    RunnerSettings r;
    r.kind = s.value(QStringLiteral("kind")).toString() == QStringLiteral("slurm")
                 ? RunnerKind::Slurm
                 : RunnerKind::Local;
    r.config = s.value(QStringLiteral("config")).toString();
    r.dir = s.value(QStringLiteral("dir")).toString();
    r.partition = s.value(QStringLiteral("partition")).toString();
    r.account = s.value(QStringLiteral("account")).toString();
    r.gres = s.value(QStringLiteral("gres")).toString();
    r.time = s.value(QStringLiteral("time")).toString();
    r.compile = s.value(QStringLiteral("compile")).toString();
    r.worker = s.value(QStringLiteral("worker")).toString();
    r.maxParallel = std::max(0, s.value(QStringLiteral("max_parallel"), 0).toInt());
    r.pollS = std::max(0.0, s.value(QStringLiteral("poll"), 0.0).toDouble());
    r.options = s.value(QStringLiteral("options")).toStringList();
    return r;
}

void RunnerSettings::save(const QString &group) const {
    QSettings s;
    s.beginGroup(group + QStringLiteral("/runner"));
    s.setValue(QStringLiteral("kind"), QString::fromLatin1(runnerKindName(kind)));
    s.setValue(QStringLiteral("config"), config);
    s.setValue(QStringLiteral("dir"), dir);
    s.setValue(QStringLiteral("partition"), partition);
    s.setValue(QStringLiteral("account"), account);
    s.setValue(QStringLiteral("gres"), gres);
    s.setValue(QStringLiteral("time"), time);
    s.setValue(QStringLiteral("compile"), compile);
    s.setValue(QStringLiteral("worker"), worker);
    s.setValue(QStringLiteral("max_parallel"), maxParallel);
    s.setValue(QStringLiteral("poll"), pollS);
    s.setValue(QStringLiteral("options"), options);
}

} // namespace beamscope
