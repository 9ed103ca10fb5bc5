// GpuChoice: --gpu, the saved choice, the detected device's preset, v100 — in that order.
#include "GpuChoice.h"

#include "bench/BenchRun.h"
#include "schedule/GpuSpec.h"

#include <QSettings>

namespace beamscope {

namespace {

const QString kSettingKey = QStringLiteral("gpuModel");

/// "OpenCL CPU" / "NVIDIA A100-SXM4-40GB": the device in a few words.
QString shortDevice(const DeviceInfo &device) {
    if (device.kind == DeviceKind::Cuda) return QString::fromStdString(device.name);
    if (device.kind == DeviceKind::OpenCL)
        return QStringLiteral("OpenCL %1").arg(QString::fromStdString(device.openclType));
    return QStringLiteral("no device");
}

bool loads(const QString &name, QString *why) {
    try {
        GpuSpec::load(name.toStdString());
        return true;
    } catch (const std::exception &e) {
        *why = QString::fromStdString(e.what());
        return false;
    }
}

} // namespace

QString GpuChoice::presetFor(const DeviceInfo &device) {
    const std::string specName = gpuSpecForDevice(device).name;
    for (const std::string &preset : GpuSpec::presetNames()) {
        if (GpuSpec::load(preset).name == specName) return QString::fromStdString(preset);
    }
    return QStringLiteral("v100"); // gpuSpecForDevice's V100 model adapted to an unknown GPU
}

StartupGpu GpuChoice::atStartup(const QString &explicitGpu, bool useSaved, const Detector &detect) {
    StartupGpu out;
    if (!explicitGpu.isEmpty()) {
        out.name = explicitGpu;
        out.source = StartupGpu::Source::Explicit;
        out.note = QStringLiteral("GPU model %1 (--gpu)").arg(explicitGpu);
        return out;
    }
    QString dropped;
    const QString last = useSaved ? saved() : QString();
    if (!last.isEmpty()) {
        QString why;
        if (loads(last, &why)) {
            out.name = last;
            out.source = StartupGpu::Source::Saved;
            out.note = QStringLiteral("GPU model %1 (your last choice)").arg(last);
            return out;
        }
        dropped = QStringLiteral("Your last choice '%1' no longer loads (%2). ").arg(last, why);
    }
    const DeviceInfo device = detect ? detect() : DeviceInfo{};
    out.name = presetFor(device);
    out.details =
        dropped + QStringLiteral("Detected: %1").arg(QString::fromStdString(device.describe()));
    if (device.kind == DeviceKind::None) {
        out.source = StartupGpu::Source::Fallback;
        out.note = QStringLiteral("GPU model %1 (no CUDA or OpenCL device found)").arg(out.name);
    } else {
        out.source = StartupGpu::Source::Detected;
        const bool fits =
            gpuSpecForDevice(device).name == GpuSpec::load(out.name.toStdString()).name;
        out.note = (fits ? QStringLiteral("GPU model %1 (fits the detected %2)")
                         : QStringLiteral("GPU model %1 (closest preset to the detected %2)"))
                       .arg(out.name, shortDevice(device));
    }
    return out;
}

QString GpuChoice::saved() {
    return QSettings().value(kSettingKey).toString();
}

void GpuChoice::remember(const QString &name) {
    QSettings().setValue(kSettingKey, name);
}

QString GpuChoice::chosenNote(const QString &name) {
    return QStringLiteral("GPU model %1 (your choice)").arg(name);
}

} // namespace beamscope
