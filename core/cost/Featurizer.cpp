// Featurizer: GPU schedule features per stage (appendix A), memoized per kernel.
// Contents: kernel context (blocks, threads, shared memory); the boxes a stage covers per
// realization, block, thread and warp; loads gathered through inlined Funcs; memory
// transactions from footprints (coalescing) and strides (bank conflicts); the feature rows.
#include "cost/Featurizer.h"

#include "util/IntMath.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numeric>
#include <set>

namespace beamscope {

namespace {

/// Iterations of a rolled loop whose loads a thread issues together: ptxas unrolls a loop
/// Halide hands it rolled and issues the loads of later iterations ahead of the arithmetic
/// (matmul's prod.update: by 32 with one point a thread, read off nvdisasm). 4 was the best of 2,
/// 4 and 8 on the H100 rows (docs/design-notes.md).
constexpr double kRolledIterationsPerRound = 4.0;

/// An L1 cache line (NVIDIA, Volta to Hopper: 128 bytes, four 32-byte sectors): a global load
/// instruction costs the L1 a wavefront per line its lanes touch.
constexpr int64_t kL1LineBytes = 128;

int64_t product(const std::vector<int64_t> &v) {
    int64_t p = 1;
    for (int64_t x : v)
        p *= x;
    return p;
}

/// Rows of a region: points not along the innermost (contiguous) dimension.
int64_t rowsOf(const Box &r) {
    int64_t rows = 1;
    for (size_t d = 1; d < r.size(); ++d)
        rows *= r[d].extent();
    return rows;
}

struct KernelContext {
    int64_t blocks = 1;
    int64_t blockThreads = 1;
    int64_t sharedBytes = 0;
    int64_t registerBytes = 0; ///< per-thread register allocations in the kernel
    int activeBlocks = 0;      ///< blocks an SM holds at once (0: one does not fit)
    /// L1 bytes per SM: what shared memory leaves of the SM's unified storage, across the
    /// resident blocks, and the warps of those blocks that share them.
    double l1Bytes = 0, residentWarps = 1;
};

/// A producer read by a stage (after looking through inlined Funcs) and the region read.
struct Access {
    int producer = -1;
    const Edge *edge = nullptr;
    Box region;
    double elements = 0; ///< unique elements read: the region, capped by the points reading it
    /// Loads issued: one per call per evaluation, an inlined Func evaluated again at each of
    /// its calls (the generated code keeps no value across calls or unrolled points).
    double issued = 0;
    double fraction() const {
        const double v = double(boxVolume(region));
        return v > 0 ? std::min(1.0, elements / v) : 1.0;
    }
    double rows() const { return std::max(1.0, double(rowsOf(region)) * fraction()); }
};

/// How a stage's loops are covered by one realization, block, thread and warp.
struct StageView {
    Box realization, task, thread, point, warp, tailWarp;
    /// A warp's boxes over all of its RVar iterations (warp and tailWarp hold one iteration).
    Box warpWalk, tailWarpWalk;
    int64_t threads = 1; ///< threads of a block that compute the stage
    int64_t realizations = 1;
    int64_t rvarIterations = 1;
    int64_t pureSerial = 1;
    /// Per stage loop: a warp's lanes along it and the loop-index step between them (one
    /// instruction of the warp: each lane at one of its serial points).
    std::vector<int64_t> lanes, laneSteps;
    /// The stage loop that warp lanes run along first, or -1.
    int laneLoop() const {
        for (size_t l = 0; l < lanes.size(); ++l)
            if (lanes[l] > 1) return int(l);
        return -1;
    }
    /// Loop-index step between adjacent lanes along laneLoop().
    int64_t laneStride() const {
        const int l = laneLoop();
        return l < 0 ? 1 : laneSteps[size_t(l)];
    }
    MemoryType storage = MemoryType::Global;
    bool hasTail = false;
};

class KernelFeaturizer {
public:
    KernelFeaturizer(const ScheduleState &state, const GpuSpec &gpu, LaneLinesMemo &laneLines)
        : m_s(state), m_dag(state.dag()), m_gpu(gpu), m_laneLines(laneLines) {}

    KernelFeatures run(const LoopNest &kernel) {
        context(kernel);
        KernelFeatures rows;
        visit(kernel, rows);
        return rows;
    }

private:
    void context(const LoopNest &block) {
        m_ctx.blocks = block.iterations();
        // Halide's block: per thread dimension the largest extent of any stage's thread loops.
        std::array<int64_t, 3> dims{1, 1, 1};
        for (const LoopNestPtr &c : block.children) {
            if (c->level != LoopLevel::Thread || c->node < 0) continue;
            const FuncPlacement &p = m_s.placement(c->node);
            const std::array<int64_t, 3> own =
                gpuThreadDims(m_dag.node(c->node).stages[size_t(c->stage)],
                              p.tilings[size_t(c->stage)], p.kind == ComputeKind::Block);
            for (size_t d = 0; d < dims.size(); ++d)
                dims[d] = std::max(dims[d], own[d]);
        }
        m_ctx.blockThreads = dims[0] * dims[1] * dims[2];
        for (int f : block.stored)
            m_ctx.sharedBytes += regionBytes(f, m_s.placement(f).region);
        accumulateRegisters(block);
        m_ctx.activeBlocks = m_gpu.activeBlocksPerSm(
            int(std::min<int64_t>(m_ctx.blockThreads, m_gpu.maxThreadsPerBlock)), m_ctx.sharedBytes,
            32);
        const int resident = std::max(1, m_ctx.activeBlocks);
        m_ctx.residentWarps = double(resident * ceilDiv(m_ctx.blockThreads, m_gpu.warpSize));
        m_ctx.l1Bytes =
            std::max(double(m_gpu.sharedMemoryPerSmBytes) / 8,
                     double(m_gpu.sharedMemoryPerSmBytes - resident * m_ctx.sharedBytes));
    }

    void accumulateRegisters(const LoopNest &n) {
        if (n.level == LoopLevel::Thread) {
            for (int f : n.stored)
                m_ctx.registerBytes += regionBytes(f, m_s.placement(f).region);
        }
        for (const LoopNestPtr &c : n.children)
            accumulateRegisters(*c);
    }

    int64_t regionBytes(int node, const Box &region) const {
        return boxVolume(region) * m_dag.node(node).bytesPerPoint;
    }

    void visit(const LoopNest &n, KernelFeatures &rows) {
        for (const LoopNestPtr &c : n.children)
            visit(*c, rows);
        // An undefined stage has no loop in Halide's lowering: nothing to price.
        if (n.computesHere && !m_dag.node(n.node).stages[size_t(n.stage)].undefined)
            rows.push_back({n.node, n.stage, features(n)});
    }

    /// Lanes per loop of a warp (innermost loops first), for `threads` per loop.
    std::vector<int64_t> lanesFor(const Stage &stage, const std::vector<int64_t> &threads,
                                  int64_t warp) const {
        std::vector<int64_t> lanes(stage.loops.size(), 1);
        int64_t remaining = warp;
        for (size_t l = 0; l < stage.loops.size() && remaining > 1; ++l) {
            lanes[l] = std::min(threads[l], remaining);
            remaining = ceilDiv(remaining, lanes[l]);
        }
        return lanes;
    }

    StageView view(int node, int stageIndex) const {
        const Stage &stage = m_dag.node(node).stages[size_t(stageIndex)];
        const FuncPlacement &p = m_s.placement(node);
        const StageTiling &t = p.tilings[size_t(stageIndex)];
        StageView v;
        const size_t n = stage.loops.size();
        v.realization.resize(n);
        v.task.resize(n);
        v.thread.resize(n);
        v.point.resize(n);
        v.warp.resize(n);
        v.tailWarp.resize(n);
        v.warpWalk.resize(n);
        v.tailWarpWalk.resize(n);
        v.lanes.assign(n, 1);
        v.laneSteps.assign(n, 1);
        std::vector<int64_t> threads = t.threads, serial = t.serial;
        if (p.kind == ComputeKind::Thread) {
            const FuncPlacement &h = m_s.placement(p.host);
            threads = h.tilings.back().threads;
            v.threads = product(threads);
            v.storage = MemoryType::Register;
        } else {
            v.threads = product(threads);
            v.storage = p.kind == ComputeKind::Block ? MemoryType::Shared : MemoryType::Global;
        }
        v.realizations = p.realizations;
        const int64_t warp = m_gpu.warpSize;
        const int64_t tail = v.threads % warp;
        v.hasTail = tail != 0 && v.threads > warp;
        std::vector<int64_t> lanes, tailLanes;
        // The innermost pure loop (an update's RVars come first in its loops).
        size_t firstPure = 0;
        while (firstPure < n && stage.loops[firstPure].isReduction)
            ++firstPure;
        if (p.kind == ComputeKind::Thread) {
            // Each thread of the host computes the whole region; a warp's 32 copies sit side by
            // side along the innermost pure loop, one host serial tile apart.
            lanes.assign(n, 1);
            tailLanes.assign(n, 1);
            if (firstPure < n) {
                lanes[firstPure] =
                    std::min<int64_t>(warp, std::max<int64_t>(1, threads.empty() ? 1 : threads[0]));
                tailLanes[firstPure] = std::max<int64_t>(
                    1, std::min(lanes[firstPure], tail ? tail : lanes[firstPure]));
            }
        } else {
            lanes = lanesFor(stage, threads, warp);
            tailLanes = lanesFor(stage, threads, tail ? tail : warp);
        }
        for (size_t l = 0; l < n; ++l) {
            const LoopVar &loop = stage.loops[l];
            const int64_t base =
                loop.funcDim >= 0 && !p.region.empty() && p.kind != ComputeKind::Root
                    ? p.region[size_t(loop.funcDim)].min
                    : loop.estimate.min;
            v.point[l] = {base, base};
            if (loop.isReduction) {
                v.realization[l] = v.task[l] = v.thread[l] = loop.estimate;
                v.warp[l] = v.tailWarp[l] = {base, base};
                v.warpWalk[l] = v.tailWarpWalk[l] = loop.estimate;
                v.rvarIterations *= loop.estimate.extent();
                continue;
            }
            int64_t perRealization, perTask, perThread, laneStep;
            if (p.kind == ComputeKind::Thread) {
                perRealization = perTask = perThread = serial[l];
                const FuncPlacement &h = m_s.placement(p.host);
                laneStep = l == firstPure && !h.tilings.back().serial.empty()
                               ? h.tilings.back().serial[0]
                               : 1;
            } else {
                perThread = serial[l];
                perTask = threads[l] * serial[l];
                perRealization = t.blocks[l] * perTask;
                laneStep = serial[l];
            }
            v.pureSerial *= perThread;
            v.lanes[l] = lanes[l];
            v.laneSteps[l] = laneStep;
            v.realization[l] = {base, base + perRealization - 1};
            v.task[l] = {base, base + perTask - 1};
            v.thread[l] = {base, base + perThread - 1};
            v.warp[l] = {base, base + (lanes[l] - 1) * laneStep + perThread - 1};
            v.tailWarp[l] = {base, base + (tailLanes[l] - 1) * laneStep + perThread - 1};
            v.warpWalk[l] = v.warp[l];
            v.tailWarpWalk[l] = v.tailWarp[l];
        }
        return v;
    }

    /// Producers read to compute `box` of a stage, looking through inlined Funcs. `reads` is
    /// how many times the box's points are evaluated (inlined calls multiply it): no more
    /// elements than that can be touched, whatever the region's bounding box.
    /// `evaluations` counts them with repeats (Access::issued).
    void gather(int node, int stageIndex, const Box &box, std::vector<Access> &out,
                double reads = -1, double evaluations = -1) const {
        const Stage &stage = m_dag.node(node).stages[size_t(stageIndex)];
        if (reads < 0) reads = double(boxVolume(box));
        if (evaluations < 0) evaluations = reads;
        for (int e : stage.incoming) {
            const Edge &edge = m_dag.edge(e);
            Box region = edge.requiredRegion(box);
            const double calls = reads * double(edge.calls.size());
            const double issued = evaluations * double(edge.distinctCalls);
            if (m_s.placement(edge.producer).kind == ComputeKind::Inline) {
                const Stage &inner = m_dag.node(edge.producer).stages[0];
                Box innerBox(inner.loops.size());
                for (size_t l = 0; l < inner.loops.size(); ++l) {
                    innerBox[l] = region[size_t(inner.loops[l].funcDim)];
                }
                gather(edge.producer, 0, innerBox, out,
                       std::min(calls, double(boxVolume(innerBox))), issued);
            } else {
                const double elements = std::min(double(boxVolume(region)), calls);
                out.push_back({edge.producer, &edge, std::move(region), elements, issued});
            }
        }
    }

    /// Global sectors touched by a warp reading `region` of `node`.
    double sectors(int node, const Box &region, double rows) const {
        if (region.empty()) return 1;
        const int64_t rowBytes = region[0].extent() * m_dag.node(node).bytesPerPoint;
        return rows * double(std::max<int64_t>(1, ceilDiv(rowBytes, m_gpu.globalTransactionBytes)));
    }

    /// Global sectors one store instruction of a warp writes to `node`: each lane one point,
    /// lanes a serial tile apart along the loops they run along. Lanes further apart than a
    /// sector along the innermost dimension write a sector each, and the warp's next
    /// instruction (the next serial point) writes the same sectors again.
    double instructionSectors(int node, const Stage &stage, const StageView &v) const {
        const int64_t bytes = m_dag.node(node).bytesPerPoint;
        const int64_t sector = m_gpu.globalTransactionBytes;
        double rows = 1, perRow = 1;
        for (size_t l = 0; l < stage.loops.size(); ++l) {
            const LoopVar &loop = stage.loops[l];
            if (loop.isReduction || loop.funcDim < 0 || v.lanes[l] <= 1) continue;
            if (loop.funcDim > 0) {
                rows *= double(v.lanes[l]);
                continue;
            }
            const int64_t span = ((v.lanes[l] - 1) * v.laneSteps[l] + 1) * bytes;
            perRow = v.laneSteps[l] * bytes >= sector
                         ? double(v.lanes[l])
                         : double(std::max<int64_t>(1, ceilDiv(span, sector)));
        }
        return rows * perRow;
    }

    /// The L1 lines one load instruction of a warp touches, per access of gather() (in its
    /// order). Each lane's point is gathered on its own, mid-realization, so inlined
    /// Funcs and indices that are affine only per tile (x / 2, floor((x + 0.5) / 8)) place it
    /// as Halide's code does; its coordinates are the low corner of what it reads (a call's
    /// first tap: the other taps shift every lane alike; a data-dependent index the low end of
    /// its range, as if the lanes shared it: neighbouring pixels fall in one bin). Lanes of one
    /// row at innermost offsets o_1 < ... < o_k cross a line boundary between neighbours g
    /// bytes apart with chance min(1, g / 128) wherever the row starts, so the row touches
    /// 1 + sum min(1, g / 128) lines on average: ~2 for 32 adjacent floats, 32 for a column.
    std::vector<double> linesPerInstruction(int node, int stageIndex, const StageView &v) const {
        // What the lines depend on: the stage, its lanes and their steps, the first lane's
        // point, and which Funcs the gather looks through (the inlined ones, in its order).
        std::vector<int64_t> key{node, stageIndex};
        for (const std::vector<int64_t> *part : {&v.lanes, &v.laneSteps}) {
            key.push_back(int64_t(part->size()));
            key.insert(key.end(), part->begin(), part->end());
        }
        const Box first = midRealization(v);
        for (const Interval &r : first)
            key.push_back(r.min);
        inlinedPath(node, stageIndex, key);
        return m_laneLines.get(m_s.dagPtr(), key,
                               [&] { return gatherLaneLines(node, stageIndex, v, first); });
    }

    /// The warp's first lane at the middle of the realization, away from clamped borders.
    static Box midRealization(const StageView &v) {
        Box first(v.realization.size());
        for (size_t l = 0; l < first.size(); ++l) {
            const int64_t mid = v.realization[l].min + v.realization[l].extent() / 2;
            first[l] = {mid, mid};
        }
        return first;
    }

    /// Appends the Funcs gather() looks through from a stage, in its order (-1 closes a level).
    void inlinedPath(int node, int stageIndex, std::vector<int64_t> &out) const {
        for (int e : m_dag.node(node).stages[size_t(stageIndex)].incoming) {
            const int producer = m_dag.edge(e).producer;
            if (m_s.placement(producer).kind != ComputeKind::Inline) continue;
            out.push_back(producer);
            inlinedPath(producer, 0, out);
        }
        out.push_back(-1);
    }

    /// linesPerInstruction's work: every lane gathered on its own, the first at `first`.
    std::vector<double> gatherLaneLines(int node, int stageIndex, const StageView &v,
                                        const Box &first) const {
        std::vector<size_t> laneLoops;
        int64_t laneCount = 1;
        for (size_t l = 0; l < v.lanes.size(); ++l)
            if (v.lanes[l] > 1) {
                laneLoops.push_back(l);
                laneCount *= v.lanes[l];
            }
        // Per access, per row (the coordinates beyond the innermost), the lanes' innermost ones.
        std::vector<std::map<std::vector<int64_t>, std::set<int64_t>>> rows;
        std::vector<int64_t> bytes;
        for (int64_t lane = 0; lane < laneCount; ++lane) {
            Box point = first;
            int64_t rest = lane;
            for (size_t l : laneLoops) {
                const int64_t offset = (rest % v.lanes[l]) * v.laneSteps[l];
                rest /= v.lanes[l];
                point[l] = {point[l].min + offset, point[l].min + offset};
            }
            std::vector<Access> accesses;
            gather(node, stageIndex, point, accesses);
            rows.resize(accesses.size());
            bytes.resize(accesses.size());
            for (size_t i = 0; i < accesses.size(); ++i) {
                const Box &r = accesses[i].region;
                bytes[i] = m_dag.node(accesses[i].producer).bytesPerPoint;
                if (r.empty()) continue;
                std::vector<int64_t> row;
                for (size_t d = 1; d < r.size(); ++d)
                    row.push_back(r[d].min);
                rows[i][row].insert(r[0].min);
            }
        }
        std::vector<double> lines(rows.size(), 1.0);
        for (size_t i = 0; i < rows.size(); ++i) {
            if (rows[i].empty()) continue;
            double sum = 0;
            for (const auto &[row, offsets] : rows[i]) {
                sum += 1.0;
                for (auto it = offsets.begin(), next = std::next(it); next != offsets.end();
                     ++it, ++next) {
                    sum += std::min(1.0, double((*next - *it) * bytes[i]) / double(kL1LineBytes));
                }
            }
            lines[i] = sum;
        }
        return lines;
    }

    /// Shared memory bank-conflict degree of lanes stepping `laneStride` along stage loop `loop`.
    int64_t conflictDegree(const Access &a, const Stage &stage, const StageView &v) const {
        const int laneLoop = v.laneLoop();
        if (laneLoop < 0 || a.edge->calls.empty()) return 1;
        const CallSite &site = a.edge->calls[0];
        const Box &alloc = m_s.placement(a.producer).region;
        const int64_t bytes = m_dag.node(a.producer).bytesPerPoint;
        double strideElems = 0;
        int64_t rowStride = 1;
        for (size_t d = 0; d < site.args.size(); ++d) {
            // A call inside an inlined Func is affine in that Func's loops, which may be fewer
            // than the stage's: a loop it does not have moves it by nothing.
            if (site.args[d].affine && size_t(laneLoop) < site.args[d].affine->coeffs.size()) {
                strideElems += site.args[d].affine->coefficient(size_t(laneLoop)) *
                               double(v.laneStride()) * double(rowStride);
            }
            rowStride *= d < alloc.size() ? alloc[d].extent() : 1;
        }
        (void)stage;
        const int64_t strideWords = int64_t(std::llround(std::fabs(strideElems) * double(bytes) /
                                                         double(m_gpu.sharedBankWidthBytes)));
        if (strideWords == 0) return 1;
        return std::gcd(strideWords, int64_t(m_gpu.sharedMemoryBanks));
    }

    StageFeatures features(const LoopNest &leaf) {
        const int node = leaf.node, stageIndex = leaf.stage;
        const Node &n = m_dag.node(node);
        const Stage &stage = n.stages[size_t(stageIndex)];
        const StageView v = view(node, stageIndex);
        StageFeatures f;
        using F = Feature;

        const double perRealization = double(boxVolume(v.realization));
        f[F::num_realizations] = double(v.realizations);
        f[F::num_productions] = double(v.realizations);
        f[F::points_computed_per_realization] = perRealization;
        f[F::points_computed_total] = perRealization * double(v.realizations);
        f[F::points_computed_minimum] = double(stage.points());
        f[F::num_scalars] = f[F::points_computed_total];
        double inlinedCalls = 0, ops = ownOpsPerPoint(stage);
        int strahler = stage.features.strahler;
        for (const InlinedCall &c : leaf.inlined) {
            inlinedCalls += double(c.calls);
            ops += inlinedOpsPerPoint(m_dag, c);
            strahler = std::max(strahler, m_dag.node(c.node).stages[0].features.strahler);
        }
        f[F::inlined_calls] = inlinedCalls * f[F::points_computed_total];
        f[F::ops_per_point] = std::max(1.0, ops);
        f[F::expr_branching] = strahler;
        f[F::num_blocks] = double(m_ctx.blocks);
        f[F::num_tasks] = double(m_ctx.blocks);
        f[F::outer_parallelism] = double(m_ctx.blocks);
        f[F::inner_parallelism] = double(m_ctx.blocks * v.threads);
        f[F::points_computed_per_thread] = double(v.pureSerial * v.rvarIterations);
        f[F::unrolled_loop_extent] = leaf.unrolled ? double(v.pureSerial) : 1.0;

        const int64_t bytes = n.bytesPerPoint;
        // The buffer a realization allocates: an update's RVars iterate over it, they do not
        // widen it (matmul's prod.update was charged 2048x its 16 MB when they did).
        f[F::bytes_at_realization] =
            perRealization / double(std::max<int64_t>(1, v.rvarIterations)) * double(bytes);
        f[F::innermost_bytes_at_realization] =
            v.realization.empty() ? double(bytes) : double(v.realization[0].extent() * bytes);

        // Parallelism and occupancy.
        const int64_t warp = m_gpu.warpSize;
        const int64_t activeWarps = ceilDiv(v.threads, warp);
        f[F::num_threads_per_block] = double(v.threads);
        f[F::num_warps_per_block] = double(ceilDiv(m_ctx.blockThreads, warp));
        f[F::num_active_warps_per_block] = double(activeWarps);
        f[F::block_occupancy] = double(m_ctx.blockThreads) / m_gpu.maxThreadsPerBlock;
        f[F::warp_lane_utilization] = double(v.threads) / double(activeWarps * warp);
        f[F::idle_lane_wastage] = double(activeWarps * warp - v.threads) / m_gpu.maxThreadsPerBlock;
        const int activeBlocks = m_ctx.activeBlocks;
        f[F::max_block_occupancy] = double(activeBlocks) / m_gpu.maxBlocksPerSm;
        f[F::max_warp_occupancy] =
            double(std::min<int64_t>(m_gpu.maxWarpsPerSm,
                                     activeBlocks * ceilDiv(m_ctx.blockThreads, warp))) /
            m_gpu.maxWarpsPerSm;
        f[F::shared_mem_occupancy] =
            double(m_ctx.sharedBytes) / double(m_gpu.sharedMemoryPerBlockBytes);
        const double smemBlocks = m_ctx.sharedBytes > 0
                                      ? double(m_gpu.sharedMemoryPerSmBytes / m_ctx.sharedBytes)
                                      : double(m_gpu.maxBlocksPerSm);
        f[F::shared_mem_block_limit_factor] = std::min(1.0, smemBlocks / m_gpu.maxBlocksPerSm);
        f[F::working_set_at_thread] =
            double(m_ctx.registerBytes + (leaf.unrolled ? v.pureSerial * bytes : bytes));
        f[F::working_set] = f[F::working_set_at_thread] * f[F::inner_parallelism];

        // What this stage writes per block, by where it is stored.
        const double taskBytes =
            double(boxVolume(v.task) / std::max<int64_t>(1, v.rvarIterations) * bytes) *
            (v.storage == MemoryType::Register ? double(v.threads) : 1.0);
        const double innermostTask =
            v.task.empty() ? double(bytes) : double(v.task[0].extent() * bytes);
        const Feature atTask = v.storage == MemoryType::Global   ? F::global_bytes_at_task
                               : v.storage == MemoryType::Shared ? F::shared_bytes_at_task
                                                                 : F::register_bytes_at_task;
        const Feature innermostAtTask =
            v.storage == MemoryType::Global   ? F::global_innermost_bytes_at_task
            : v.storage == MemoryType::Shared ? F::shared_innermost_bytes_at_task
                                              : F::register_innermost_bytes_at_task;
        f[atTask] = taskBytes;
        f[innermostAtTask] = innermostTask;

        loads(node, stageIndex, stage, v, leaf.unrolled, f);
        const bool inMemory = accumulatorsInMemory(stage, v, leaf.unrolled);
        stores(node, stage, v, inMemory, f);
        if (stageIndex > 0 && v.storage == MemoryType::Shared && !n.scatteredDims.empty())
            scatteredSharedStores(node, stage, v, f);
        if (stageIndex > 0 && v.storage == MemoryType::Shared) ownSharedLoads(f);
        f[F::global_mem_load_rounds_per_thread] = loadRounds(n, stage, v, leaf.unrolled, inMemory);
        f[F::num_global_mem_scattered_requests_per_block] = scatteredGlobalRequests(n, stage, v);
        return f;
    }

    void loads(int node, int stageIndex, const Stage &stage, const StageView &v, bool unrolled,
               StageFeatures &f) const {
        using F = Feature;
        std::vector<Access> perRealization, perThread, perTask, perPoint, perWarp, perTailWarp;
        std::vector<Access> perWarpWalk, perTailWarpWalk;
        gather(node, stageIndex, v.realization, perRealization);
        gather(node, stageIndex, v.thread, perThread);
        gather(node, stageIndex, v.task, perTask);
        gather(node, stageIndex, v.point, perPoint);
        gather(node, stageIndex, v.warp, perWarp);
        if (v.hasTail) gather(node, stageIndex, v.tailWarp, perTailWarp);
        // NVIDIA's L1 (below). PoCL's summed terms were calibrated on the counts without it:
        // with it, its one-shot picks ran 1.19x slower (docs/design-notes.md).
        if (v.rvarIterations > 1 && !m_gpu.storesWriteBack) {
            gather(node, stageIndex, v.warpWalk, perWarpWalk);
            if (v.hasTail) gather(node, stageIndex, v.tailWarpWalk, perTailWarpWalk);
        }

        auto byMemory = [&](const std::vector<Access> &accesses, Feature global, Feature shared,
                            Feature reg, bool lines) {
            for (const Access &a : accesses) {
                const MemoryType m = m_s.memoryOf(a.producer);
                const double value =
                    lines ? a.rows() : a.elements * m_dag.node(a.producer).bytesPerPoint;
                f[m == MemoryType::Global   ? global
                  : m == MemoryType::Shared ? shared
                                            : reg] += value;
            }
        };
        byMemory(perRealization, F::unique_global_bytes_read_per_realization,
                 F::unique_shared_bytes_read_per_realization,
                 F::unique_register_bytes_read_per_realization, false);
        byMemory(perRealization, F::unique_global_lines_read_per_realization,
                 F::unique_shared_lines_read_per_realization,
                 F::unique_register_lines_read_per_realization, true);
        byMemory(perThread, F::unique_global_bytes_read_per_thread,
                 F::unique_shared_bytes_read_per_thread, F::unique_register_bytes_read_per_thread,
                 false);
        byMemory(perThread, F::unique_global_lines_read_per_thread,
                 F::unique_shared_lines_read_per_thread, F::unique_register_lines_read_per_thread,
                 true);
        for (const Access &a : perPoint) {
            f[F::unique_bytes_read_per_point] += a.elements * m_dag.node(a.producer).bytesPerPoint;
            f[F::unique_lines_read_per_point] += a.rows();
        }
        for (const Access &a : perTask) {
            f[F::unique_bytes_read_per_task] += a.elements * m_dag.node(a.producer).bytesPerPoint;
            f[F::unique_lines_read_per_task] += a.rows();
        }
        for (const Access &a : perRealization) {
            const MemoryType m = m_s.memoryOf(a.producer);
            const Box &alloc = m == MemoryType::Global ? m_dag.node(a.producer).region
                                                       : m_s.placement(a.producer).region;
            const double bytes = double(boxVolume(alloc) * m_dag.node(a.producer).bytesPerPoint);
            f[m == MemoryType::Global   ? F::global_allocation_bytes_read_per_realization
              : m == MemoryType::Shared ? F::shared_allocation_bytes_read_per_realization
                                        : F::register_allocation_bytes_read_per_realization] +=
                bytes;
        }

        // Transactions per block: full warps plus the tail warp, each over its footprint.
        const int64_t warp = m_gpu.warpSize;
        const int64_t fullWarps = v.hasTail ? v.threads / warp : ceilDiv(v.threads, warp);
        const double warpPoints = double(boxVolume(v.warp));
        double globalTx = 0, globalNeeded = 0, sharedTx = 0, sharedNeeded = 0;
        double globalTxIssued = 0, globalInstructions = 0, globalWavefronts = 0;
        // A CPU's OpenCL device (pocl-cpu) has no L1 wavefronts: its summed terms do not read
        // them. A stage reading nothing from global memory has none either.
        const bool readsGlobal = std::any_of(perWarp.begin(), perWarp.end(), [&](const Access &a) {
            return m_s.memoryOf(a.producer) == MemoryType::Global;
        });
        const std::vector<double> lines = m_gpu.storesWriteBack || !readsGlobal
                                              ? std::vector<double>(perWarp.size(), 0.0)
                                              : linesPerInstruction(node, stageIndex, v);
        auto count = [&](const std::vector<Access> &accesses, const std::vector<Access> &walks,
                         int64_t warps, double points, int64_t lanes) {
            for (size_t i = 0; i < accesses.size(); ++i) {
                const Access &a = accesses[i];
                const MemoryType m = m_s.memoryOf(a.producer);
                const int64_t bytes = m_dag.node(a.producer).bytesPerPoint;
                const double needed =
                    std::min(a.elements, points * double(a.edge->calls.size())) * double(bytes);
                // Load instructions of the warp per RVar iteration: loads issued per lane.
                const double instructions =
                    std::ceil(a.issued / double(std::max<int64_t>(1, lanes)));
                if (m == MemoryType::Global) {
                    // A thread's unrolled points load an address once (LLVM merges the loads of
                    // one address: a stencil's overlapping taps, a value every point shares,
                    // conv_layer's input across its output channels): per RVar iteration no
                    // more than the elements the thread reads.
                    const double distinct =
                        unrolled && i < perThread.size()
                            ? std::ceil(perThread[i].elements /
                                        double(std::max<int64_t>(1, v.rvarIterations)))
                            : instructions;
                    const double globalIssued = std::min(instructions, std::max(1.0, distinct));
                    double tx = sectors(a.producer, a.region, a.rows()) * double(v.rvarIterations);
                    globalTxIssued += double(warps) * tx;
                    globalInstructions += double(warps) * globalIssued * double(v.rvarIterations);
                    // The tail warp's lanes are the first of a full warp's: at most its lines.
                    const double instructionLines = i < lines.size() ? lines[i] : 1.0;
                    globalWavefronts +=
                        double(warps) * globalIssued * double(v.rvarIterations) *
                        std::min(instructionLines, double(std::max<int64_t>(1, lanes)));
                    // A thread's RVar loop that walks along a row reads a sector again at the
                    // next iterations: L1 serves those while the walks of the SM's resident
                    // warps fit in it, so L2 sees the walk's sectors, not each iteration's
                    // (histogram_equalize's per-row histograms, a matmul's row of A).
                    if (i < walks.size()) {
                        const Access &w = walks[i];
                        const double walk = sectors(w.producer, w.region, w.rows());
                        if (walk < tx) {
                            const double footprint =
                                walk * m_gpu.globalTransactionBytes * m_ctx.residentWarps;
                            const double hits =
                                std::min(1.0, m_ctx.l1Bytes / std::max(1.0, footprint));
                            tx -= (tx - walk) * hits;
                        }
                    }
                    globalTx += double(warps) * tx;
                    globalNeeded += double(warps) * needed * double(v.rvarIterations);
                } else if (m == MemoryType::Shared) {
                    // A wavefront serves one load instruction of the warp at most: the
                    // warp's unique words over the banks, or its instructions if more.
                    const double words = a.elements * double(bytes) / m_gpu.sharedBankWidthBytes;
                    const double tx =
                        std::max({1.0, std::ceil(words / m_gpu.sharedMemoryBanks), instructions}) *
                        double(conflictDegree(a, stage, v));
                    sharedTx += double(warps) * tx * double(v.rvarIterations);
                    sharedNeeded += double(warps) * needed * double(v.rvarIterations);
                }
            }
        };
        count(perWarp, perWarpWalk, fullWarps, warpPoints, std::min(warp, v.threads));
        if (v.hasTail)
            count(perTailWarp, perTailWarpWalk, 1, double(boxVolume(v.tailWarp)), v.threads % warp);
        f[F::num_global_mem_loads_per_block] = globalTx;
        f[F::num_shared_mem_loads_per_block] = sharedTx;
        f[F::num_global_mem_load_instructions_per_block] = globalInstructions;
        f[F::num_global_mem_load_wavefronts_per_block] = globalWavefronts;
        f[F::global_mem_load_l1_hit_rate] =
            globalTxIssued > 0 ? std::max(0.0, 1.0 - globalTx / globalTxIssued) : 0.0;
        f[F::global_mem_load_efficiency] =
            globalTx > 0 ? std::min(1.0, globalNeeded / (globalTx * m_gpu.globalTransactionBytes))
                         : 1.0;
        f[F::shared_mem_load_efficiency] =
            sharedTx > 0 ? std::min(1.0, sharedNeeded / (sharedTx * m_gpu.sharedMemoryBanks *
                                                         m_gpu.sharedBankWidthBytes))
                         : 1.0;
    }

    /// An update at the block level reads, in shared memory, each point it accumulates into as
    /// often as it writes it (its updates read only their own point: Node::pointwiseUpdates).
    /// gather() does not see those loads: the DAG has no edge from a Func to itself.
    static void ownSharedLoads(StageFeatures &f) {
        using F = Feature;
        const double own = f[F::num_shared_mem_stores_per_block];
        const double others = f[F::num_shared_mem_loads_per_block];
        if (own <= 0) return;
        f[F::shared_mem_load_efficiency] =
            (others * f[F::shared_mem_load_efficiency] + own * f[F::shared_mem_store_efficiency]) /
            (others + own);
        f[F::num_shared_mem_loads_per_block] = others + own;
    }

    /// An update that scatters into shared memory (a histogram at a block level,
    /// Node::scatteredDims) moves the point it writes with the data at every RVar iteration, so
    /// no register holds its accumulator: each iteration stores (and loads, ownSharedLoads) one
    /// shared point per thread. Lanes write at their own pure coordinates and the data's; with
    /// the data's the same across a warp (neighbouring pixels fall in one bin) lanes collide
    /// when their offsets meet in a bank: a warp's transactions are the most distinct words
    /// one bank holds. No atomics: each thread owns its pure point.
    void scatteredSharedStores(int node, const Stage &stage, const StageView &v,
                               StageFeatures &f) const {
        using F = Feature;
        const Node &n = m_dag.node(node);
        const FuncPlacement &p = m_s.placement(node);
        const StageTiling &t = p.tilings[size_t(stage.index)];
        std::vector<int64_t> stride(size_t(n.dimensions), 1);
        for (size_t d = 1; d < stride.size(); ++d)
            stride[d] = stride[d - 1] * p.region[d - 1].extent();
        const int64_t bank = m_gpu.sharedBankWidthBytes, banks = m_gpu.sharedMemoryBanks;
        const std::vector<int64_t> lanes = lanesFor(stage, t.threads, m_gpu.warpSize);
        std::vector<int64_t> offsets{0}; // in points, one per lane
        for (size_t l = 0; l < stage.loops.size(); ++l) {
            if (stage.loops[l].funcDim < 0 || lanes[l] <= 1) continue;
            const int64_t step = t.serial[l] * stride[size_t(stage.loops[l].funcDim)];
            std::vector<int64_t> next;
            for (int64_t o : offsets)
                for (int64_t i = 0; i < lanes[l]; ++i)
                    next.push_back(o + i * step);
            offsets = std::move(next);
        }
        std::map<int64_t, std::set<int64_t>> wordsOfBank;
        const int64_t wordsPerPoint = std::max<int64_t>(1, ceilDiv(n.bytesPerPoint, bank));
        for (int64_t o : offsets)
            for (int64_t w = 0; w < wordsPerPoint; ++w) {
                const int64_t word = o * n.bytesPerPoint / bank + w;
                wordsOfBank[word % banks].insert(word);
            }
        size_t degree = 1;
        for (const auto &[b, words] : wordsOfBank)
            degree = std::max(degree, words.size());
        const double warps = double(ceilDiv(v.threads, m_gpu.warpSize));
        const double iterations = double(v.rvarIterations);
        const double tx = warps * double(degree) * iterations;
        f[F::num_shared_mem_stores_per_block] = tx;
        f[F::shared_mem_store_efficiency] = std::min(
            1.0, double(v.threads * n.bytesPerPoint) * iterations / (tx * double(banks * bank)));
    }

    /// The rounds of loads a thread waits one after another: its unrolled points issue their
    /// loads together, and so do a few iterations of a rolled loop (kRolledIterationsPerRound)
    /// unless each iteration reads what the previous one wrote: an update that keeps its
    /// accumulators in memory (`inMemory`: accumulatorsInMemory) or scatters into bins (a
    /// histogram) loads after the previous iteration's store, one round per iteration.
    static double loadRounds(const Node &n, const Stage &stage, const StageView &v, bool unrolled,
                             bool inMemory) {
        const double rolled =
            double(v.rvarIterations) * double(unrolled ? int64_t(1) : v.pureSerial);
        const bool carried =
            stage.index > 0 && v.rvarIterations > 1 && (!n.scatteredDims.empty() || inMemory);
        return rolled / std::clamp(rolled, 1.0, carried ? 1.0 : kRolledIterationsPerRound);
    }

    /// An update that scatters into a global Func (a histogram at the root: Node::scatteredDims)
    /// on a GPU moves the point it writes with the data at every RVar iteration: no register
    /// holds it, so each iteration loads the bin and stores it back, each lane the bin its own
    /// data picks, a sector of its own (the benchmarks' random inputs put a warp's lanes in
    /// different bins). L2 serves those as requests, one sector each, at its request rate, not
    /// its bandwidth (the H200 ran bilateral_grid's root histogram's 17-21 M of them at 90-125 a
    /// clock; kL2RequestsPerClock; docs/design-notes.md, "Histograms at the root"). The features count the bin's
    /// store once where the update's own points stay put (stores) and its load not at all:
    /// these requests are that traffic.
    double scatteredGlobalRequests(const Node &n, const Stage &stage, const StageView &v) const {
        if (stage.index == 0 || v.rvarIterations <= 1 || v.storage != MemoryType::Global ||
            n.scatteredDims.empty() || m_gpu.storesWriteBack)
            return 0.0;
        // Each of a thread's points loads and stores its bin at every iteration.
        return 2.0 * double(v.threads) * double(v.pureSerial) * double(v.rvarIterations);
    }

    /// Whether an update's points stay in memory across its RVar loop, each loaded and stored
    /// at every iteration (stores, below): a rolled serial loop indexes them by its variable,
    /// and unrolled points a row stride apart may alias as far as LLVM knows.
    static bool accumulatorsInMemory(const Stage &stage, const StageView &v, bool unrolled) {
        return v.pureSerial > 1 && (!unrolled || unrolledAcrossRows(stage, v));
    }

    /// Whether a thread's unrolled points of a global Func lie along a dimension beyond the
    /// innermost. Their addresses then differ by the buffer's row stride, known only at run
    /// time, so LLVM cannot tell them apart, may not keep them in registers across the RVar
    /// loop, and loads and stores each of them at every iteration (the PTX of matmul's
    /// prod.update with 8 points along y; along x, at constant offsets, it keeps them). Shared
    /// and register allocations have constant strides.
    static bool unrolledAcrossRows(const Stage &stage, const StageView &v) {
        if (v.storage != MemoryType::Global) return false;
        for (size_t l = 0; l < stage.loops.size(); ++l) // v.thread: a thread's serial points
            if (!stage.loops[l].isReduction && stage.loops[l].funcDim > 0 &&
                v.thread[l].extent() > 1)
                return true;
        return false;
    }

    /// `inMemory`: the update's accumulators stay in memory across its RVar loop
    /// (accumulatorsInMemory).
    void stores(int node, const Stage &stage, const StageView &v, bool inMemory,
                StageFeatures &f) const {
        using F = Feature;
        const Node &n = m_dag.node(node);
        Box own(size_t(n.dimensions), Interval{0, 0});
        for (size_t l = 0; l < stage.loops.size(); ++l) {
            if (stage.loops[l].funcDim >= 0) own[size_t(stage.loops[l].funcDim)] = v.warp[l];
        }
        const int64_t warp = m_gpu.warpSize;
        const double warps = double(ceilDiv(v.threads, warp));
        const double points = double(boxVolume(own) * n.bytesPerPoint);
        // An update runs its pure serial loops inside its RVars (ScheduleCalls: serial, RVars,
        // threads, blocks, inside out). With one point per thread, or with the serial points
        // unrolled at offsets LLVM can tell apart, it keeps the accumulators in registers
        // across the RVar loop and each point is written once. A rolled serial loop indexes
        // them by its variable: every RVar iteration loads and stores each of them. On the
        // H100 (runs of 2026-11-26): matmul with 16 rolled points per thread under a 2048-long
        // RVar ran 3.8x slower than the naive schedule; at the block level (shared memory)
        // conv_layer's and matmul's 16 rolled points ran 17 and 28 ms where 8 unrolled ran
        // 2.5 ms. A write-back cache (a CPU's, PoCL) absorbs the repeated stores.
        const double writes = inMemory && !m_gpu.storesWriteBack ? double(v.rvarIterations) : 1.0;
        if (v.storage == MemoryType::Global) {
            // The footprint's sectors, or per instruction if lanes a serial tile apart write
            // each sector several times (on the H200, bgu's `output` with 8 points along x per
            // thread ran 0.81 ms where a 4-point tiling ran 0.19 ms; the footprint priced both
            // alike). A write-back cache (a CPU's) merges them into its lines.
            const double footprint = warps * sectors(node, own, double(rowsOf(own)));
            const double perInstruction =
                m_gpu.storesWriteBack
                    ? 0.0
                    : warps * double(v.pureSerial) * instructionSectors(node, stage, v);
            const double tx = std::max(footprint, perInstruction) * writes;
            const double efficiency =
                std::min(1.0, warps * points * writes / (tx * m_gpu.globalTransactionBytes));
            f[F::num_global_mem_stores_per_block] = tx;
            f[F::global_mem_store_efficiency] = efficiency;
            f[F::shared_mem_store_efficiency] = 1.0;
            if (writes > 1) {
                // Each iteration loads the points it stores (gather() has no edge from a Func
                // to itself), one load instruction per point.
                const double others = f[F::num_global_mem_loads_per_block];
                f[F::global_mem_load_efficiency] =
                    (others * f[F::global_mem_load_efficiency] + tx * efficiency) / (others + tx);
                f[F::num_global_mem_loads_per_block] = others + tx;
                f[F::num_global_mem_load_instructions_per_block] +=
                    warps * double(v.pureSerial) * writes;
            }
        } else if (v.storage == MemoryType::Shared) {
            const double words = points / m_gpu.sharedBankWidthBytes;
            const int64_t strideWords =
                std::max<int64_t>(0, v.laneStride() * n.bytesPerPoint / m_gpu.sharedBankWidthBytes);
            const int64_t degree =
                strideWords > 0 ? std::gcd(strideWords, int64_t(m_gpu.sharedMemoryBanks)) : 1;
            const double tx = warps * std::max(1.0, std::ceil(words / m_gpu.sharedMemoryBanks)) *
                              double(degree) * writes;
            f[F::num_shared_mem_stores_per_block] = tx;
            f[F::shared_mem_store_efficiency] =
                std::min(1.0, warps * points * writes /
                                  (tx * m_gpu.sharedMemoryBanks * m_gpu.sharedBankWidthBytes));
            f[F::global_mem_store_efficiency] = 1.0;
        } else {
            f[F::global_mem_store_efficiency] = 1.0;
            f[F::shared_mem_store_efficiency] = 1.0;
        }
    }

    const ScheduleState &m_s;
    const FunctionDAG &m_dag;
    const GpuSpec &m_gpu;
    LaneLinesMemo &m_laneLines;
    KernelContext m_ctx;
};

} // namespace

std::vector<double> LaneLinesMemo::get(const std::shared_ptr<const FunctionDAG> &dag,
                                       const std::vector<int64_t> &key,
                                       const std::function<std::vector<double>()> &compute) {
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        if (m_dag != dag) {
            m_lines.clear();
            m_dag = dag;
        }
        const auto it = m_lines.find(key);
        if (it != m_lines.end()) return it->second;
    }
    std::vector<double> lines = compute();
    std::lock_guard<std::mutex> lock(m_mutex);
    if (m_dag == dag) m_lines.emplace(key, lines);
    return lines;
}

Featurizer::Featurizer(GpuSpec gpu, bool memoize) : m_gpu(std::move(gpu)), m_memoize(memoize) {}

void Featurizer::resetCounters() {
    m_featurizations = m_hits = m_misses = 0;
    commit();
}

void Featurizer::commit() {
    m_uncommitted.clear();
    m_committedCounters[0] = m_featurizations;
    m_committedCounters[1] = m_hits;
    m_committedCounters[2] = m_misses;
}

void Featurizer::rollback() {
    for (const LoopNest *key : m_uncommitted)
        m_memo.erase(key);
    m_uncommitted.clear();
    m_featurizations = m_committedCounters[0];
    m_hits = m_committedCounters[1];
    m_misses = m_committedCounters[2];
}

KernelFeatures Featurizer::featurizeKernel(const ScheduleState &state,
                                           const LoopNest &kernel) const {
    return KernelFeaturizer(state, m_gpu, *m_laneLines).run(kernel);
}

std::vector<std::shared_ptr<const KernelFeatures>>
Featurizer::featurize(const ScheduleState &state) {
    std::vector<std::shared_ptr<const KernelFeatures>> out;
    out.reserve(state.kernels().size());
    for (const LoopNestPtr &kernel : state.kernels()) {
        if (m_memoize) {
            auto it = m_memo.find(kernel.get());
            if (it != m_memo.end()) {
                ++m_hits;
                out.push_back(it->second.second);
                continue;
            }
            ++m_misses;
        }
        ++m_featurizations;
        auto rows = std::make_shared<const KernelFeatures>(featurizeKernel(state, *kernel));
        if (m_memoize) {
            m_memo.emplace(kernel.get(), std::make_pair(kernel, rows));
            m_uncommitted.push_back(kernel.get());
        }
        out.push_back(std::move(rows));
    }
    return out;
}

double ownOpsPerPoint(const Stage &stage) {
    return double(stage.features.arithmeticOps() + stage.features.loads());
}

double inlinedOpsPerPoint(const FunctionDAG &dag, const InlinedCall &call) {
    return double(call.calls) * double(dag.node(call.node).stages[0].features.arithmeticOps());
}

} // namespace beamscope
