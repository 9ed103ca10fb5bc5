// StageFeatures: the schedule features of one stage (paper appendix A, by the names used
// there, plus the basic features of Adams et al. 2019 that the cost formula reads).
#pragma once

#include <array>
#include <cstddef>
#include <ostream>
#include <string_view>

namespace beamscope {

// X-macro: one entry per feature, so names are available to JSON, the UI and dumps.
#define BEAMSCOPE_STAGE_FEATURES(X)                                                                \
    /* basic features (Adams et al. 2019) */                                                       \
    X(num_realizations)                                                                            \
    X(num_productions)                                                                             \
    X(points_computed_per_realization)                                                             \
    X(points_computed_total)                                                                       \
    X(points_computed_minimum)                                                                     \
    X(inlined_calls)                                                                               \
    X(ops_per_point)                                                                               \
    X(num_scalars)                                                                                 \
    X(inner_parallelism)                                                                           \
    X(outer_parallelism)                                                                           \
    X(num_tasks)                                                                                   \
    X(bytes_at_realization)                                                                        \
    X(innermost_bytes_at_realization)                                                              \
    X(unrolled_loop_extent)                                                                        \
    X(unique_bytes_read_per_point)                                                                 \
    X(unique_lines_read_per_point)                                                                 \
    X(unique_bytes_read_per_task)                                                                  \
    X(unique_lines_read_per_task)                                                                  \
    X(working_set)                                                                                 \
    /* GPU features (appendix A) */                                                                \
    X(points_computed_per_thread)                                                                  \
    X(unique_global_bytes_read_per_realization)                                                    \
    X(unique_shared_bytes_read_per_realization)                                                    \
    X(unique_register_bytes_read_per_realization)                                                  \
    X(unique_global_lines_read_per_realization)                                                    \
    X(unique_shared_lines_read_per_realization)                                                    \
    X(unique_register_lines_read_per_realization)                                                  \
    X(unique_global_bytes_read_per_thread)                                                         \
    X(unique_shared_bytes_read_per_thread)                                                         \
    X(unique_register_bytes_read_per_thread)                                                       \
    X(unique_global_lines_read_per_thread)                                                         \
    X(unique_shared_lines_read_per_thread)                                                         \
    X(unique_register_lines_read_per_thread)                                                       \
    X(global_allocation_bytes_read_per_realization)                                                \
    X(shared_allocation_bytes_read_per_realization)                                                \
    X(register_allocation_bytes_read_per_realization)                                              \
    X(global_bytes_at_task)                                                                        \
    X(shared_bytes_at_task)                                                                        \
    X(register_bytes_at_task)                                                                      \
    X(global_innermost_bytes_at_task)                                                              \
    X(shared_innermost_bytes_at_task)                                                              \
    X(register_innermost_bytes_at_task)                                                            \
    X(num_blocks)                                                                                  \
    X(num_warps_per_block)                                                                         \
    X(num_active_warps_per_block)                                                                  \
    X(num_threads_per_block)                                                                       \
    X(expr_branching)                                                                              \
    X(block_occupancy)                                                                             \
    X(warp_lane_utilization)                                                                       \
    X(idle_lane_wastage)                                                                           \
    X(num_shared_mem_loads_per_block)                                                              \
    X(num_global_mem_loads_per_block)                                                              \
    X(num_shared_mem_stores_per_block)                                                             \
    X(num_global_mem_stores_per_block)                                                             \
    X(shared_mem_store_efficiency)                                                                 \
    X(shared_mem_load_efficiency)                                                                  \
    X(global_mem_store_efficiency)                                                                 \
    X(global_mem_load_efficiency)                                                                  \
    X(working_set_at_thread)                                                                       \
    X(shared_mem_occupancy)                                                                        \
    X(shared_mem_block_limit_factor)                                                               \
    X(max_warp_occupancy)                                                                          \
    X(max_block_occupancy)                                                                         \
    /* Beamscope's: global load instructions a block issues, and the share of their sectors */     \
    /* that L1 serves (a thread's RVar walk along a row reads each sector again) */                \
    X(num_global_mem_load_instructions_per_block)                                                  \
    X(global_mem_load_l1_hit_rate)                                                                 \
    /* the rounds of loads a thread waits one after another (Featurizer: loadRounds) */            \
    X(global_mem_load_rounds_per_thread)                                                           \
    /* L1 wavefronts of a block's global loads: each instruction's distinct 128-byte lines */      \
    X(num_global_mem_load_wavefronts_per_block)                                                    \
    /* L2 requests of an update scattering into a global Func: the bin each lane's data picks, */  \
    /* loaded and stored at every RVar iteration, a sector each */                                 \
    X(num_global_mem_scattered_requests_per_block)

/// Index of each feature in StageFeatures::values.
enum class Feature : size_t {
#define BEAMSCOPE_FEATURE_ENUM(name) name,
    BEAMSCOPE_STAGE_FEATURES(BEAMSCOPE_FEATURE_ENUM)
#undef BEAMSCOPE_FEATURE_ENUM
        Count
};

constexpr size_t kFeatureCount = static_cast<size_t>(Feature::Count);

/// The appendix-A name of a feature.
std::string_view featureName(Feature f);

/// One stage's feature vector.
struct StageFeatures {
    std::array<double, kFeatureCount> values{};

    double &operator[](Feature f) { return values[static_cast<size_t>(f)]; }
    double operator[](Feature f) const { return values[static_cast<size_t>(f)]; }
    /// "name value" lines.
    void dump(std::ostream &os, const char *indent = "") const;
};

} // namespace beamscope
