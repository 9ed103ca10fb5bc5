// ForeignScheduleJson: an imported schedule (BaselineImport's ForeignSchedule) as JSON, and the
// import run in a child process (the worker's --import mode). An autoscheduler plugin can search
// for minutes (Anderson2021 on lens_blur: over 300 s) and cannot be interrupted in process; in a
// child it is killed when the caller cancels (the GUI's Compare dock: a newer import, the window
// closing), and a plugin that crashes takes only the child down.
#pragma once

#include "bench/BaselineImport.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <memory>
#include <string>

namespace beamscope {

class FunctionDAG;

/// {"what", "autoscheduler_ms", "funcs": [{"name", "representable", "constructs", "differences",
/// "theirs", "loops", "tails", "staged_into"}...], "schedule": scheduleToJson(state) or null}.
nlohmann::json foreignScheduleToJson(const ForeignSchedule &schedule);

/// Reads what foreignScheduleToJson writes, over `dag` (a DAG of the same pipeline): Funcs are
/// matched by name, the state replayed with scheduleFromJson, each representable Func's placement
/// taken from it. Throws Error for JSON of another shape or a Func `dag` does not have.
ForeignSchedule foreignScheduleFromJson(const nlohmann::json &json,
                                        const std::shared_ptr<const FunctionDAG> &dag);

/// How to run the import in a child process.
struct ChildImportOptions {
    std::string workerPath;                    ///< beamscope-worker (required)
    const std::atomic<bool> *cancel = nullptr; ///< set: the child is killed, ImportCancelled thrown
    double timeoutS = 0;                       ///< 0: no limit
};

/// Thrown by importForeignInChild when its cancel flag was raised.
struct ImportCancelled : std::runtime_error {
    ImportCancelled() : std::runtime_error("the import was cancelled") {}
};

/// importForeign(with, source, gpu) in `beamscope-worker --import`, read back over `dag`. Throws
/// ImportCancelled, or Error with one line (the plugin's error, a crash with its signal, the time
/// limit).
ForeignSchedule importForeignInChild(const std::string &with, const PipelineSource &source,
                                     const GpuSpec &gpu,
                                     const std::shared_ptr<const FunctionDAG> &dag,
                                     const ChildImportOptions &options);

} // namespace beamscope
