// The learned model's schedule-level feature vector (layout kScheduleFeatureSchema).
// Contents: the feature names; per-stage features normalised by the GPU; their cost-weighted
// means; the vector.
#include "cost/ScheduleFeatures.h"

#include "util/Error.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace beamscope {

namespace {
/// Terms and totals below this (ms) read as this, so that a zero term has a finite log.
constexpr double kLogFloorMs = 1e-9;

/// Non-finite values (never expected) read as 0 so the trees see no NaN or infinity.
double finite(double x) {
    return std::isfinite(x) ? x : 0.0;
}

float logOf(double ms) {
    return float(std::log(std::max(kLogFloorMs, finite(ms))));
}

double ratio(double a, double b) {
    return b > 0 ? finite(a / b) : 0.0;
}

/// log2 of a positive count or ratio, 0 for anything not above 0.
double log2Of(double x) {
    return x > 0 ? finite(std::log2(x)) : 0.0;
}

/// The stage-level shape features, each scale-free (a ratio, a fraction of a GPU limit, or the
/// log2 of one), so that the same value means the same thing in every pipeline and on every GPU
/// of a class. Their cost-weighted means over the stages form part of the vector.
#define BEAMSCOPE_SHAPE_FEATURES(X)                                                                \
    X(log2_waves)                   /* blocks over what all SMs hold at once */                    \
    X(log2_blocks_per_sm)           /* blocks over SMs */                                          \
    X(threads_per_block_fraction)   /* of the block limit */                                       \
    X(log2_points_per_thread)                                                                      \
    X(warp_lane_utilization)                                                                       \
    X(block_occupancy)                                                                             \
    X(max_warp_occupancy)                                                                          \
    X(max_block_occupancy)                                                                         \
    X(shared_mem_occupancy)                                                                        \
    X(shared_fraction_of_block_limit)                                                              \
    X(registers_fraction_of_budget) /* working set at thread over the register budget */           \
    X(global_load_efficiency)                                                                      \
    X(global_store_efficiency)                                                                     \
    X(shared_load_efficiency)                                                                      \
    X(log2_recompute)         /* points computed over the minimum */                               \
    X(log2_ops_per_point)                                                                          \
    X(log2_arithmetic_intensity) /* ops per global byte over the machine balance */                \
    X(log2_global_lines_per_block) /* per block, over the sector count of a 128-byte line */      \
    X(innermost_sector_fraction)   /* innermost global bytes at task over one sector */            \
    X(log2_unrolled)                                                                               \
    X(expr_branching)                                                                              \
    X(fused)                  /* 1 for a stage computed inside another's kernel */                 \
    X(inlined_calls_present)

enum class Shape : size_t {
#define BEAMSCOPE_SHAPE_ENUM(name) name,
    BEAMSCOPE_SHAPE_FEATURES(BEAMSCOPE_SHAPE_ENUM)
#undef BEAMSCOPE_SHAPE_ENUM
        Count
};
constexpr size_t kShapeCount = size_t(Shape::Count);

const char *const kShapeNames[] = {
#define BEAMSCOPE_SHAPE_NAME(name) #name,
    BEAMSCOPE_SHAPE_FEATURES(BEAMSCOPE_SHAPE_NAME)
#undef BEAMSCOPE_SHAPE_NAME
};

using ShapeVector = std::array<double, kShapeCount>;

ShapeVector shapeOf(const StageFeatures &f, bool fused, const GpuSpec &gpu) {
    using F = Feature;
    ShapeVector s{};
    auto set = [&](Shape k, double v) { s[size_t(k)] = finite(v); };
    const double sms = std::max(1, gpu.smCount);
    const double resident = sms * std::max(1.0, f[F::max_block_occupancy] * gpu.maxBlocksPerSm);
    set(Shape::log2_waves, log2Of(ratio(f[F::num_blocks], resident)));
    set(Shape::log2_blocks_per_sm, log2Of(f[F::num_blocks] / sms));
    set(Shape::threads_per_block_fraction,
        ratio(f[F::num_threads_per_block], std::max(1, gpu.maxThreadsPerBlock)));
    set(Shape::log2_points_per_thread, log2Of(f[F::points_computed_per_thread]));
    set(Shape::warp_lane_utilization, f[F::warp_lane_utilization]);
    set(Shape::block_occupancy, f[F::block_occupancy]);
    set(Shape::max_warp_occupancy, f[F::max_warp_occupancy]);
    set(Shape::max_block_occupancy, f[F::max_block_occupancy]);
    set(Shape::shared_mem_occupancy, f[F::shared_mem_occupancy]);
    set(Shape::shared_fraction_of_block_limit,
        ratio(f[F::shared_bytes_at_task], double(gpu.sharedMemoryPerBlockBytes)));
    set(Shape::registers_fraction_of_budget,
        ratio(f[F::working_set_at_thread], 4.0 * std::max(1, gpu.registersPerThreadMax)));
    set(Shape::global_load_efficiency, f[F::global_mem_load_efficiency]);
    set(Shape::global_store_efficiency, f[F::global_mem_store_efficiency]);
    set(Shape::shared_load_efficiency, f[F::shared_mem_load_efficiency]);
    set(Shape::log2_recompute,
        log2Of(ratio(f[F::points_computed_total], f[F::points_computed_minimum])));
    set(Shape::log2_ops_per_point, log2Of(f[F::ops_per_point]));
    const double globalBytes =
        f[F::num_realizations] * f[F::unique_global_bytes_read_per_realization];
    const double balance = gpu.globalMemoryBandwidthGBs > 0
                               ? gpu.peakGflops() / gpu.globalMemoryBandwidthGBs
                               : 1.0;
    set(Shape::log2_arithmetic_intensity,
        log2Of(ratio(f[F::points_computed_total] * f[F::ops_per_point], globalBytes) / balance));
    set(Shape::log2_global_lines_per_block,
        log2Of(ratio(f[F::num_global_mem_loads_per_block] * gpu.globalTransactionBytes, 128.0)));
    set(Shape::innermost_sector_fraction,
        std::min(4.0, ratio(f[F::global_innermost_bytes_at_task],
                            std::max(1, gpu.globalTransactionBytes))));
    set(Shape::log2_unrolled, log2Of(f[F::unrolled_loop_extent]));
    set(Shape::expr_branching, f[F::expr_branching]);
    set(Shape::fused, fused ? 1.0 : 0.0);
    set(Shape::inlined_calls_present, f[F::inlined_calls] > 0 ? 1.0 : 0.0);
    return s;
}

} // namespace

namespace {
std::vector<std::string> buildScheduleFeatureNames() {
    std::vector<std::string> names;
    for (size_t t = 0; t < kCostTerms; ++t)
        names.push_back(std::string("analytic_") + costTermName(CostTerm(t)));
    names.push_back("analytic_total");
    for (size_t t = 0; t < kCostTerms; ++t)
        names.push_back(std::string("share_") + costTermName(CostTerm(t)));
    names.push_back("kernels");
    names.push_back("stages");
    names.push_back("small_kernel_fraction");
    names.push_back("top_kernel_share");
    names.push_back("log2_total_recompute");
    for (size_t k = 0; k < kShapeCount; ++k)
        names.push_back(std::string("mean_") + kShapeNames[k]);
    for (size_t i = 0; i < kFeatureCount; ++i)
        names.push_back("sum_" + std::string(featureName(Feature(i))));
    return names;
}
} // namespace

const std::vector<std::string> &scheduleFeatureNames() {
    static const std::vector<std::string> names = buildScheduleFeatureNames();
    return names;
}

std::vector<float>
scheduleFeatureVector(const std::vector<std::shared_ptr<const KernelFeatures>> &kernels,
                      const StateCost &analytic, const GpuSpec &gpu) {
    size_t stageCount = 0;
    for (const auto &kernel : kernels)
        stageCount += kernel ? kernel->size() : 0;
    // Each stage's weight is its share of the analytic total (uniform when the costs do not
    // line up with the rows, or the total is zero).
    const bool costed = analytic.stages.size() == stageCount && analytic.total > 0;
    std::vector<double> sums(kFeatureCount, 0.0);
    ShapeVector means{};
    double weightSum = 0, pointsTotal = 0, pointsMinimum = 0, topKernel = 0;
    size_t smallKernels = 0, row = 0;
    for (const auto &kernel : kernels) {
        if (!kernel) continue;
        double kernelCost = 0;
        bool small = false;
        for (size_t r = 0; r < kernel->size(); ++r, ++row) {
            const StageFeatures &f = (*kernel)[r].features;
            for (size_t i = 0; i < kFeatureCount; ++i)
                sums[i] += f.values[i];
            const double w = costed ? finite(analytic.stages[row].total()) / analytic.total
                                    : 1.0 / double(std::max<size_t>(1, stageCount));
            kernelCost += w;
            // The kernel's root Func is visited last (features are collected children first);
            // every other Func's stages are fused into its kernel.
            const bool fused = (*kernel)[r].node != kernel->back().node;
            const ShapeVector shape = shapeOf(f, fused, gpu);
            for (size_t k = 0; k < kShapeCount; ++k)
                means[k] += w * shape[k];
            weightSum += w;
            pointsTotal += f[Feature::points_computed_total];
            pointsMinimum += f[Feature::points_computed_minimum];
            if (!fused) small = f[Feature::num_blocks] < gpu.smCount;
        }
        topKernel = std::max(topKernel, kernelCost);
        smallKernels += small ? 1 : 0;
    }
    std::vector<float> v;
    v.reserve(scheduleFeatureNames().size());
    for (size_t t = 0; t < kCostTerms; ++t)
        v.push_back(logOf(analytic.terms[t]));
    v.push_back(logOf(analytic.total));
    for (size_t t = 0; t < kCostTerms; ++t)
        v.push_back(float(ratio(analytic.terms[t], analytic.total)));
    // Kernels that launch: a kernel of undefined stages alone has no rows and no launch.
    const double launched = double(std::count_if(kernels.begin(), kernels.end(),
                                                 [](const auto &k) { return k && !k->empty(); }));
    v.push_back(float(std::log1p(launched)));
    v.push_back(float(std::log1p(double(stageCount))));
    v.push_back(float(ratio(double(smallKernels), launched)));
    v.push_back(float(topKernel));
    v.push_back(float(log2Of(ratio(pointsTotal, pointsMinimum))));
    for (size_t k = 0; k < kShapeCount; ++k)
        v.push_back(float(weightSum > 0 ? means[k] / weightSum : 0.0));
    for (double s : sums)
        v.push_back(float(std::log1p(std::max(0.0, finite(s)))));
    return v;
}

const std::vector<std::string> &kernelFeatureNames() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> n = scheduleFeatureNames();
        n.push_back("share_of_schedule");
        return n;
    }();
    return names;
}

float shareOfSchedule(double kernelMs, double scheduleMs) {
    return float(ratio(kernelMs, scheduleMs));
}

namespace {
/// Calls visit(kernel, first stage, stage count) for each kernel, its stages' range in
/// `analytic` (launch order); throws when the costs do not line up with the kernels' rows.
template <typename Visit>
void forEachKernel(const std::vector<std::shared_ptr<const KernelFeatures>> &kernels,
                   const StateCost &analytic, Visit visit) {
    size_t stage = 0;
    for (const auto &kernel : kernels) {
        const size_t count = kernel ? kernel->size() : 0;
        if (stage + count > analytic.stages.size())
            throw Error("the analytic costs do not line up with the schedule's kernels");
        visit(kernel, stage, count);
        stage += count;
    }
    if (stage != analytic.stages.size())
        throw Error("the analytic costs do not line up with the schedule's kernels");
}

/// The kernel as a schedule of one kernel: its stages' costs and their sums.
StateCost kernelCost(const StateCost &analytic, size_t first, size_t count) {
    StateCost own;
    own.stages.assign(analytic.stages.begin() + long(first),
                      analytic.stages.begin() + long(first + count));
    own.addUpStages();
    return own;
}

/// kernelCost(...).total without copying the stages: the same sums, so the same to the bit.
double kernelTotal(const StateCost &analytic, size_t first, size_t count) {
    return StateCost::totalOf(analytic.termsOfStages(first, count));
}

KernelFeatureRow kernelRow(const std::shared_ptr<const KernelFeatures> &kernel,
                           const StateCost &own, const GpuSpec &gpu) {
    KernelFeatureRow row;
    row.features = kernel ? scheduleFeatureVector({kernel}, own, gpu)
                          : std::vector<float>(scheduleFeatureNames().size(), 0.0f);
    row.analyticMs = own.total;
    return row;
}
} // namespace

std::vector<KernelFeatureRow>
kernelFeatureRows(const std::vector<std::shared_ptr<const KernelFeatures>> &kernels,
                  const StateCost &analytic, const GpuSpec &gpu) {
    std::vector<KernelFeatureRow> rows;
    forEachKernel(kernels, analytic, [&](const auto &kernel, size_t first, size_t count) {
        rows.push_back(kernelRow(kernel, kernelCost(analytic, first, count), gpu));
        rows.back().features.push_back(shareOfSchedule(rows.back().analyticMs, analytic.total));
    });
    return rows;
}

std::vector<KernelRowMemo::Entry *>
KernelRowMemo::entries(const std::vector<std::shared_ptr<const KernelFeatures>> &kernels,
                       const StateCost &analytic, const GpuSpec &gpu) {
    std::vector<Entry *> out;
    out.reserve(kernels.size());
    forEachKernel(kernels, analytic, [&](const auto &kernel, size_t first, size_t count) {
        if (!kernel) {
            out.push_back(nullptr);
            return;
        }
        Entry &e = m_rows[kernel.get()];
        if (e.kernel != kernel || e.row.analyticMs != kernelTotal(analytic, first, count)) {
            e.kernel = kernel;
            e.row = kernelRow(kernel, kernelCost(analytic, first, count), gpu);
            e.scores.clear();
        }
        out.push_back(&e);
    });
    return out;
}

KernelRowMemo::BandScore *KernelRowMemo::Entry::find(uint32_t band) {
    for (BandScore &s : scores) {
        if (s.band == band) return &s;
    }
    return nullptr;
}

void KernelRowMemo::trim() {
    if (m_rows.size() > kMaxEntries) m_rows.clear();
}

} // namespace beamscope
