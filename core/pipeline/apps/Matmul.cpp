// matmul: single-precision dense matrix multiply (SGEMM), C = A * B, as one reduction.
#include "pipeline/apps/Apps.h"

namespace beamscope::apps {

namespace {

PipelineInstance buildMatmul(const AppParams &params) {
    using namespace Halide;
    const int64_t m = params.at("m");
    const int64_t n = params.at("n");
    const int64_t k = params.at("k");

    // Row-major storage, x (the column) innermost: A is m x k, B is k x n, C is m x n.
    ImageParam a = estimatedInput(Float(32), "A", {k, m});
    ImageParam b = estimatedInput(Float(32), "B", {n, k});
    Var x("x"), y("y");

    Func prod("prod");
    RDom r(0, static_cast<int>(k), "r");
    prod(x, y) = 0.0f;
    prod(x, y) += a(r, y) * b(x, r);

    Func output("output");
    output(x, y) = prod(x, y);
    setOutputEstimates(output, {n, m});
    return makeInstance("matmul", {output}, {a, b}, params);
}

} // namespace

AppDefinition matmul() {
    return {"matmul",
            "Dense float32 matrix multiply C(m x n) = A(m x k) * B(k x n)",
            {{"m", 2048, 1, 1 << 16, "rows of A and C"},
             {"n", 2048, 1, 1 << 16, "columns of B and C"},
             {"k", 2048, 1, 1 << 16, "columns of A, rows of B (the reduction)"}},
            buildMatmul};
}

} // namespace beamscope::apps
