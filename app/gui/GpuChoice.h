// GpuChoice: the GPU model the GUI starts on, and why. An explicit --gpu wins; else the user's
// last choice in the toolbar's GPU box (QSettings "gpuModel", not consulted by --screenshot
// runs, which must not depend on a user's settings); else the preset that fits the detected
// device, picked by gpuSpecForDevice as `beamscope-cli bench` picks it; else v100. Read and
// written on the GUI thread.
#pragma once

#include "measure/DeviceDetect.h"

#include <QString>

#include <functional>

namespace beamscope {

/// The start-up GPU model and where it came from, for the status bar.
struct StartupGpu {
    enum class Source { Explicit, Saved, Detected, Fallback };
    QString name; ///< preset name or JSON file, as the toolbar's GPU box shows it
    Source source = Source::Fallback;
    QString note;    ///< one short line: "GPU model pocl-cpu (fits the detected OpenCL CPU)"
    QString details; ///< longer, for a tooltip: the detected device, or why a saved one was dropped
};

class GpuChoice {
public:
    using Detector = std::function<DeviceInfo()>;

    /// The model to start on: `explicitGpu` (--gpu) if given, else the saved choice (when
    /// `useSaved` and it still loads), else the preset fitting `detect()`'s device.
    static StartupGpu atStartup(const QString &explicitGpu, bool useSaved, const Detector &detect);
    /// The preset name gpuSpecForDevice picks for `device` ("v100" when it adapts the V100
    /// model to an unknown CUDA device, or when there is no device).
    static QString presetFor(const DeviceInfo &device);
    /// The user's last explicit choice ("" when none).
    static QString saved();
    /// Saves `name` as the user's choice (the toolbar's GPU box calls this on a user's pick).
    static void remember(const QString &name);
    /// The note for a model the user just picked.
    static QString chosenNote(const QString &name);
};

} // namespace beamscope
