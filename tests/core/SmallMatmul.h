// What the tests of matmul's accumulators share (ThreadLevelUpdateTest, BlockLevelUpdateTest):
// matmul at 64^3, and the statement Halide lowers a schedule of it to for CUDA.
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

inline const AppParams kSmallMatmul = {{"m", 64}, {"n", 64}, {"k", 64}};

inline std::shared_ptr<const FunctionDAG> matmulDag() {
    return std::make_shared<const FunctionDAG>(buildApp("matmul", kSmallMatmul));
}

/// `schedule` applied to a fresh matmul at 64^3, lowered for CUDA to a conceptual statement,
/// Halide's "$n" suffixes removed.
inline std::string matmulStmt(const ScheduleState &schedule) {
    PipelineInstance fresh = buildApp("matmul", kSmallMatmul);
    const Halide::Target cuda("host-cuda-cuda_capability_70");
    applySchedule(schedule, fresh, cuda);
    const std::filesystem::path file =
        std::filesystem::temp_directory_path() /
        ("beamscope-matmul-" + std::to_string(::getpid()) + ".stmt");
    fresh.pipeline.compile_to_conceptual_stmt(file.string(), fresh.pipeline.infer_arguments(),
                                              Halide::StmtOutputFormat::Text, cuda);
    std::stringstream text;
    text << std::ifstream(file).rdbuf();
    std::filesystem::remove(file);
    return std::regex_replace(text.str(), std::regex("\\$[0-9]+"), "");
}

} // namespace beamscope::testing
