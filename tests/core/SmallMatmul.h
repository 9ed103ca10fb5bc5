// What the tests of matmul's accumulators share (ThreadLevelUpdateTest, BlockLevelUpdateTest):
// matmul at 64^3, and the statement Halide lowers a schedule of it to for CUDA.
#pragma once

#include "ConceptualStmt.h"

namespace beamscope::testing {

inline const AppParams kSmallMatmul = {{"m", 64}, {"n", 64}, {"k", 64}};

inline std::shared_ptr<const FunctionDAG> matmulDag() {
    return std::make_shared<const FunctionDAG>(buildApp("matmul", kSmallMatmul));
}

/// `schedule` applied to a fresh matmul at 64^3, lowered for CUDA (ConceptualStmt.h).
inline std::string matmulStmt(const ScheduleState &schedule) {
    return conceptualCudaStmt(schedule, "matmul", kSmallMatmul);
}

} // namespace beamscope::testing
