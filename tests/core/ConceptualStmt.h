// The statement Halide lowers a schedule to for CUDA (the conceptual one: loops, allocations
// and barriers, no device code), for tests that check Halide's own reading of a schedule.
#pragma once

#include "ScheduleTestUtil.h"

#include "codegen/ScheduleApplier.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

namespace beamscope::testing {

/// The conceptual statement of a scheduled pipeline for `target`, Halide's "$n" suffixes
/// removed.
inline std::string conceptualStmtText(Halide::Pipeline p, const Halide::Target &target) {
    const std::filesystem::path file =
        std::filesystem::temp_directory_path() /
        ("beamscope-" + std::to_string(::getpid()) + "-conceptual.stmt");
    p.compile_to_conceptual_stmt(file.string(), p.infer_arguments(), Halide::StmtOutputFormat::Text,
                                 target);
    std::stringstream text;
    text << std::ifstream(file).rdbuf();
    std::filesystem::remove(file);
    return std::regex_replace(text.str(), std::regex("\\$[0-9]+"), "");
}

/// `schedule` applied to a fresh `app` with `params`, lowered for CUDA, Halide's "$n" suffixes
/// removed.
inline std::string conceptualCudaStmt(const ScheduleState &schedule, const std::string &app,
                                      const AppParams &params) {
    PipelineInstance fresh = buildApp(app, params);
    const Halide::Target cuda("host-cuda-cuda_capability_70");
    applySchedule(schedule, fresh, cuda);
    return conceptualStmtText(fresh.pipeline, cuda);
}

} // namespace beamscope::testing
