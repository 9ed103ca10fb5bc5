// ScheduleFeatures: one fixed-length vector per schedule for the learned cost model, the same
// length and meaning for every pipeline (so a model trained on some pipelines applies to
// others): the analytic model's terms, total and term shares; kernel and stage counts; the
// cost-weighted means of scale-free stage shapes (occupancy, waves, lane use, recompute,
// arithmetic intensity over the machine balance... each normalised by the GPU spec); and
// log-scaled sums of the appendix-A features over all computed stages.
#pragma once

#include "cost/CostModel.h"

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace beamscope {

/// The layout version of scheduleFeatureVector(); a model file records the one it was trained
/// with, and a model of another version is refused. 17: the analytic terms with global load
/// instructions taking the warp schedulers' issue slots beside the arithmetic, and arithmetic
/// and memory combined by their 3-norm (the forty-fourth session); 16: a new stage feature, the L2
/// requests of an update scattering into a global Func (a histogram's bins, each lane's its own
/// sector), priced at L2's request rate (the fortieth session); 15: a kernel takes at least the
/// time its SMs need to start its blocks, 100 clocks each (the thirty-ninth session); 14: L1
/// wavefronts take their time over the SMs that have blocks, not at the arithmetic fill (the
/// thirty-ninth session); 13: global loads' L1 wavefronts (the lines each load instruction of a
/// warp touches) in the analytic model's on-chip time, a new stage feature (the thirty-seventh
/// session); 12: a warp's global stores are the more of its footprint's sectors and those its store
/// instructions write, lanes a serial tile apart along x writing each sector once per instruction
/// (the thirty-sixth session); 11: a kernel's block has, per thread dimension, the largest extent
/// any of its stages maps there, as Halide launches it (the block-level features and the analytic
/// model's resident blocks; the thirty-second session); 10: a stage whose values are all `undef`
/// (no loop in Halide's lowering) has no features, and a kernel of such stages alone is not
/// counted (the thirty-second session); 9: an update's bytes at realization without
/// its RVars (the code had kept them since 5), unrolled points of a global update along a row
/// stride loaded and stored at every RVar iteration, and a new stage feature, the rounds of
/// loads a thread waits (a few rolled iterations per round unless each reads what the last
/// wrote), which the analytic model's loads wait (the thirty-first session); 8: L1 serves a
/// thread's RVar walk, and loads wait a latency per round; 7: shared-memory loads counted per load
/// instruction (a call repeated by substituted lets counted once) and priced at the arithmetic
/// fill (the twenty-ninth session); 6: regions read through loop-only
/// non-affine indices (an upsampling's x / 2 - 1 + 2 * (x % 2)) bounded per tile (IndexBounds),
/// and the analytic terms with DRAM bytes bounded by the buffers read and each stage at its own
/// parallelism (the twenty-second session's corrections, cached under 5 until now); 5: updates
/// write their points once unless a rolled serial loop sits inside their RVars, an update's bytes
/// at realization without its RVars, and shared-memory wavefronts in the roofline; 4: the analytic
/// terms of the per-kernel roofline (issue 31 part 6); 3: those of the summed appendix-B terms.
constexpr int kScheduleFeatureSchema = 17;

/// The name of each entry of scheduleFeatureVector(), in order ("analytic_compute", ...,
/// "analytic_total", "share_compute", ..., "kernels", "stages", ..., "mean_log2_waves", ...,
/// "sum_num_realizations", ...). Built once: the search sizes every vector by it.
const std::vector<std::string> &scheduleFeatureNames();

/// The feature vector of a schedule from its kernels' feature rows, its analytic cost (whose
/// stages line up with the rows, as the analytic model returns them) and the GPU it was
/// featurized for: log of each analytic term and of the total (floored at 1e-9 ms), each term's
/// share, log1p of the kernel and stage counts, the fraction of kernels with fewer blocks than
/// SMs, the costliest kernel's share, the recompute ratio, the cost-weighted means of the stage
/// shapes, and log1p(sum over stages) of every appendix-A feature. Deterministic.
std::vector<float>
scheduleFeatureVector(const std::vector<std::shared_ptr<const KernelFeatures>> &kernels,
                      const StateCost &analytic, const GpuSpec &gpu);

/// One kernel of a schedule as the per-kernel learned model sees it (the paper's structure: a
/// correction per kernel, the kernels' corrected times summed).
struct KernelFeatureRow {
    std::vector<float> features; ///< kernelFeatureNames() order
    double analyticMs = 0;       ///< the analytic model's time of the kernel (its stages' sum)
};

/// scheduleFeatureNames() followed by "share_of_schedule". Built once.
const std::vector<std::string> &kernelFeatureNames();

/// A kernel's share of its schedule's analytic time, as its row's last feature holds it (0 when
/// the schedule's time is not positive).
float shareOfSchedule(double kernelMs, double scheduleMs);

/// One row per kernel, in launch order: the kernel read as a schedule of one kernel
/// (scheduleFeatureVector() of its rows and its stages' analytic costs) and its share of the
/// schedule's analytic total. Throws Error when `analytic`'s stages do not line up with the
/// kernels' rows. Deterministic.
std::vector<KernelFeatureRow>
kernelFeatureRows(const std::vector<std::shared_ptr<const KernelFeatures>> &kernels,
                  const StateCost &analytic, const GpuSpec &gpu);

/// Kernel rows already built, and the model's scores of each, for a search that meets the same
/// kernel in many states (the featurizer hands out one KernelFeatures per distinct kernel): a
/// row's features but its share depend only on the kernel's rows, its stages' analytic costs and
/// the GPU. Keyed by the rows' address, which it keeps alive; an entry whose analytic time
/// differs is built again. One GPU and one model per memo.
class KernelRowMemo {
public:
    /// The model's score of the row at shares of one band (a range no split of the trees on the
    /// share divides: LearnedCostModel), or the batch row that will give it.
    struct BandScore {
        uint32_t band = 0;
        int64_t pendingRow = -1; ///< >= 0 while the batch's prediction is to come
        float score = 0;
    };
    struct Entry {
        std::shared_ptr<const KernelFeatures> kernel;
        KernelFeatureRow row; ///< without its share: scheduleFeatureNames() order
        std::vector<BandScore> scores;
        BandScore *find(uint32_t band);
    };

    /// The entry of each kernel of a schedule, in launch order (nullptr for a null kernel, which
    /// has no stages and no time), built when missing or stale. Throws Error as
    /// kernelFeatureRows() does. The pointers stay valid until trim() or clear().
    std::vector<Entry *> entries(const std::vector<std::shared_ptr<const KernelFeatures>> &kernels,
                                 const StateCost &analytic, const GpuSpec &gpu);
    /// Starts again when past its bound; call between batches, never while entries are held.
    void trim();
    void clear() { m_rows.clear(); }
    size_t size() const { return m_rows.size(); }

private:
    /// A bound on memory, since entries keep their kernels' features alive after the search's
    /// featurizer lets them go (a model may serve several searches: tune's rounds): about twice
    /// the distinct kernels of the largest catalog search (lens_blur at its default size, 29,390
    /// on the h100 preset). Past it, start again.
    static constexpr size_t kMaxEntries = 65536;
    std::unordered_map<const KernelFeatures *, Entry> m_rows;
};

} // namespace beamscope
