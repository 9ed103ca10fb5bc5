// SearchSpace: enumeration of compute locations and tilings, and the pruning rules.
// Contents: names; size menus (serialSizes, threadSizes); locations; tilings; pruning (check).
#include "search/SearchSpace.h"
#include "search/RegionSlopes.h"
#include "util/IntMath.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string_view>
#include <unordered_set>

namespace beamscope {

namespace {

/// A dimension shorter than this may take one thread per point (Anderson2021's bound, the
/// largest thread extent it enumerates).
constexpr int64_t kWholeThreadExtentLimit = 64;

/// Appends "AxBxC" to `label`.
void appendSizes(std::string &label, const std::vector<int64_t> &v) {
    char digits[24];
    for (size_t i = 0; i < v.size(); ++i) {
        if (i) label += 'x';
        label.append(digits, std::to_chars(digits, digits + sizeof digits, v[i]).ptr);
    }
}

/// "<prefix>AxBxC" in one allocation: a tiling menu labels tens of thousands of tilings.
std::string sizesLabel(std::string_view prefix, const std::vector<int64_t> &v) {
    std::string label;
    label.reserve(prefix.size() + 5 * v.size()); // sizes rarely have more than 4 digits
    label.append(prefix);
    appendSizes(label, v);
    return label;
}

/// "threads AxB serial CxD", the label of a root tiling.
std::string tilingLabel(const std::vector<int64_t> &threads, const std::vector<int64_t> &serial) {
    std::string label;
    label.reserve(16 + 5 * (threads.size() + serial.size()));
    label.append("threads ");
    appendSizes(label, threads);
    label.append(" serial ");
    appendSizes(label, serial);
    return label;
}

/// Calls `visit` with every combination of one entry per list (first list varies fastest).
template <typename F>
void forEachCombination(const std::vector<std::vector<int64_t>> &lists, F &&visit) {
    std::vector<size_t> index(lists.size(), 0);
    std::vector<int64_t> pick(lists.size());
    for (const auto &l : lists) {
        if (l.empty()) return;
    }
    while (true) {
        for (size_t i = 0; i < lists.size(); ++i)
            pick[i] = lists[i][index[i]];
        visit(pick);
        size_t i = 0;
        while (i < lists.size() && ++index[i] == lists[i].size())
            index[i++] = 0;
        if (i == lists.size()) return;
    }
}

} // namespace

const char *pruneReasonName(PruneReason r) {
    static const char *const names[] = {"excessive_recompute",
                                        "idle_sms",
                                        "poor_warp_lane_utilization",
                                        "serial_too_large_to_unroll",
                                        "thread_allocation_dynamic_or_too_large",
                                        "too_many_threads",
                                        "too_much_shared_memory"};
    return names[size_t(r)];
}

bool isSoftPruneReason(PruneReason r) {
    return r == PruneReason::IdleSms || r == PruneReason::PoorWarpLaneUtilization ||
           r == PruneReason::ExcessiveRecompute;
}

const char *phaseName(Phase p) {
    return p == Phase::ComputeLocation ? "compute_location" : "tiling";
}

SearchSpace::SearchSpace(GpuSpec gpu, SearchSpaceOptions options)
    : m_gpu(std::move(gpu)), m_options(options) {}

std::vector<int64_t> SearchSpace::serialSizes(int64_t extent) const {
    // A dimension of 3, 5 or 7 points (colour channels, a 7-wide patch) is taken whole or not at
    // all, as Halide's Anderson2021 enumerates it: 2 or 4 of it would leave a guarded tail, and a
    // thread that owns every channel computes what they share once (docs/design-notes.md,
    // "Whole channels in a thread").
    if (extent == 3 || extent == 5 || extent == 7) return {1, extent};
    std::vector<int64_t> sizes;
    for (int64_t s : {1, 2, 4, 8}) {
        if (s <= extent) sizes.push_back(s);
    }
    for (int64_t s : {3, 5, 7}) {
        if (s <= extent && extent % s == 0 && (extent / s) % m_gpu.warpSize == 0)
            sizes.push_back(s);
    }
    return sizes;
}

std::vector<int64_t> SearchSpace::threadSizes(int64_t extent, bool innermost) const {
    std::vector<int64_t> sizes;
    if (innermost && extent >= 16) {
        for (int64_t t : {16, 32, 64}) {
            if (t <= extent || t == 16) sizes.push_back(t);
        }
    } else {
        for (int64_t t = 1; t <= 16 && t <= extent; t *= 2)
            sizes.push_back(t);
    }
    // A dimension of fewer than 64 points may also be given a thread per point, as Halide's
    // Anderson2021 offers it (iir_blur's 3 channels on threads, bgu's 29-wide histogram rows):
    // the block then covers it without a guarded tail (docs/design-notes.md, "Whole small
    // dimensions on threads").
    if (extent < kWholeThreadExtentLimit &&
        std::find(sizes.begin(), sizes.end(), extent) == sizes.end())
        sizes.push_back(extent);
    return sizes;
}

// ---- decision 1 --------------------------------------------------------------------------

std::vector<int> SearchSpace::fusionHosts(const ScheduleState &state, int node) const {
    std::set<int> hosts, seen;
    std::vector<int> work;
    const FunctionDAG &dag = state.dag();
    for (int e : dag.node(node).outgoing)
        work.push_back(dag.edge(e).consumer);
    while (!work.empty()) {
        const int c = work.back();
        work.pop_back();
        if (!seen.insert(c).second) continue;
        const ComputeKind kind = state.placement(c).kind;
        if (kind == ComputeKind::Inline) {
            for (int e : dag.node(c).outgoing)
                work.push_back(dag.edge(e).consumer);
        } else if (kind == ComputeKind::Root || kind == ComputeKind::Block) {
            hosts.insert(c);
        }
    }
    return {hosts.begin(), hosts.end()};
}

void SearchSpace::consider(const ScheduleState &parent, int node, FuncPlacement placement,
                           std::string label, std::vector<Candidate> &kept,
                           std::vector<PrunedCandidate> &pruned) const {
    if (auto p = check(parent, node, placement)) {
        p->label = std::move(label);
        if (isSoftPruneReason(p->reason)) p->child = parent.derive(node, std::move(placement));
        pruned.push_back(std::move(*p));
    } else {
        kept.push_back({parent.derive(node, std::move(placement)), std::move(label)});
    }
}

void SearchSpace::locations(const ScheduleState &state, int node, std::vector<Candidate> &kept,
                            std::vector<PrunedCandidate> &pruned) const {
    const Node &n = state.dag().node(node);
    if (n.inlinedWithoutSearch && state.canInline(node)) {
        kept.push_back(
            {state.derive(node, state.inlinePlacement(node)), std::string("inline (pointwise)")});
        return;
    }
    kept.push_back({state.derive(node, state.rootPlacement(node)), std::string("root")});
    if (n.isOutput) return;
    if (state.canInline(node))
        consider(state, node, state.inlinePlacement(node), "inline", kept, pruned);
    if (m_options.rootOrInlineOnly) return;
    for (int host : fusionHosts(state, node)) {
        // The block level of a host with updates is representable (import, frozen pins, Why not?)
        // but not offered: on PoCL its picks ran slower than before (docs/import.md, "The update
        // hosts' check") and the pocl-cpu model misprices it; to be judged again on a GPU.
        const bool hostHasUpdates = state.dag().node(host).stages.size() > 1;
        if (!hostHasUpdates && state.canFuse(node, host, LoopLevel::Block))
            blockCandidates(state, node, host, kept, pruned);
        if (state.canFuse(node, host, LoopLevel::Thread)) {
            consider(state, node, state.threadPlacement(node, host),
                     "thread of " + state.dag().node(host).name, kept, pruned);
        }
    }
}

void SearchSpace::blockCandidates(const ScheduleState &state, int node, int host,
                                  std::vector<Candidate> &kept,
                                  std::vector<PrunedCandidate> &pruned) const {
    const Box region = state.regionWithin(node, host, LoopLevel::Block);
    const Stage &stage = state.dag().node(node).stages[0];
    std::vector<std::vector<int64_t>> menus;
    for (const LoopVar &l : stage.loops) {
        const int64_t extent = region[size_t(l.funcDim)].extent();
        menus.push_back(serialSizes(extent));
        // Beyond the innermost loop, a dimension of at most 16 points may also be one thread's
        // whole: Halide's Anderson2021 gives it 1 thread (a block-level tile is sized by its
        // threads there, the serial loop is what is left), as bilateral_grid's histogram takes
        // its 16 z per thread (docs/design-notes.md, "A small dimension whole at the block level").
        std::vector<int64_t> &menu = menus.back();
        if (&l != &stage.loops.front() && extent <= m_options.maxUnrolledSerial &&
            std::find(menu.begin(), menu.end(), extent) == menu.end())
            menu.push_back(extent);
    }
    const std::string where = "block of " + state.dag().node(host).name;
    forEachCombination(menus, [&](const std::vector<int64_t> &serial) {
        consider(state, node, state.blockPlacement(node, host, serial),
                 sizesLabel(where + " serial ", serial), kept, pruned);
    });
}

// ---- decision 2 --------------------------------------------------------------------------

void SearchSpace::tilings(const ScheduleState &state, int node, std::vector<Candidate> &kept,
                          std::vector<PrunedCandidate> &pruned) const {
    applyTilingMenu(tilingMenu(state.dag(), node), state, node, kept, pruned);
}

namespace {

/// True when `node`'s kernels on `state` depend on its own placement alone: no Func is computed
/// inside it and none of its producers is inlined, fused or stored anywhere but global memory
/// (the kernel tree and its features read only those).
bool kernelsStandAlone(const ScheduleState &state, int node) {
    const FunctionDAG &dag = state.dag();
    for (const Node &n : dag.nodes()) {
        if (!n.isInput && state.placement(n.index).host == node) return false;
    }
    for (const Stage &stage : dag.node(node).stages) {
        for (int e : stage.incoming) {
            const int producer = dag.edge(e).producer;
            if (dag.node(producer).isInput) continue;
            const ComputeKind k = state.placement(producer).kind;
            if (k != ComputeKind::Unscheduled && k != ComputeKind::Root) return false;
        }
    }
    return true;
}

} // namespace

void SearchSpace::applyTilingMenu(const TilingMenu &menu, const ScheduleState &state, int node,
                                  std::vector<Candidate> &kept,
                                  std::vector<PrunedCandidate> &pruned, bool shareKernels) const {
    const size_t base = pruned.size();
    pruned.insert(pruned.end(), menu.pruned.begin(), menu.pruned.end());
    shareKernels = shareKernels && kernelsStandAlone(state, node);
    // Every tiling changes the same kernels, so the first derivation's kernel map serves all.
    const size_t first = kept.size();
    for (const TilingMenu::Option &o : menu.kept) {
        Derivation d = kept.size() == first ? state.derive(node, o.placement)
                                            : state.deriveSibling(kept[first].child, o.placement);
        if (shareKernels) {
            const KernelMap &map = *d.kernelMap;
            d.freshKernels.resize(map.ids.size());
            for (size_t k = 0; k < map.ids.size(); ++k) {
                if (map.parentKernel[k] >= 0 || map.ids[k].first != node) continue;
                const size_t stage = size_t(map.ids[k].second);
                if (o.kernels.size() <= stage) o.kernels.resize(stage + 1);
                if (!o.kernels[stage]) o.kernels[stage] = d.buildKernel(k);
                d.freshKernels[k] = o.kernels[stage];
            }
        }
        kept.push_back({std::move(d), o.label});
    }
    // The soft-pruned tilings are derived only for the engine's fallback, when none passed.
    if (!menu.anyPassed) {
        for (const auto &[index, tilings] : menu.soft)
            pruned[base + index].child =
                state.derive(node, state.rootTilingPlacement(node, tilings));
    }
}

std::vector<std::vector<bool>> SearchSpace::threadDimensionSets(const Node &n,
                                                                int innermost) const {
    const size_t dims = size_t(n.dimensions);
    if (m_options.wideTilings) return {std::vector<bool>(dims, true)};
    // Candidates: the innermost dimension, then the others of more than one point in order.
    std::vector<int> candidates;
    for (int k = 0; k < n.dimensions; ++k) {
        const int d = (innermost + k) % n.dimensions;
        if (d == innermost || n.region[size_t(d)].extent() > 1) candidates.push_back(d);
    }
    const size_t take = size_t(std::max(1, m_options.maxThreadDims));
    if (candidates.size() <= take) {
        std::vector<bool> set(dims, false);
        for (int d : candidates)
            set[size_t(d)] = true;
        return {set};
    }
    // More candidates than thread dimensions: the next ones in order, and the smallest ones,
    // which Anderson2021 threads whole or nearly (bgu's upsampled_x on x, z and c of x, y, z, c).
    std::vector<bool> next(dims, false), smallest(dims, false);
    for (size_t i = 0; i < take; ++i)
        next[size_t(candidates[i])] = true;
    std::vector<int> others(candidates.begin() + 1, candidates.end());
    std::stable_sort(others.begin(), others.end(), [&](int a, int b) {
        return n.region[size_t(a)].extent() < n.region[size_t(b)].extent();
    });
    smallest[size_t(innermost)] = true;
    for (size_t i = 0; i + 1 < take; ++i)
        smallest[size_t(others[i])] = true;
    if (smallest == next) return {next};
    return {next, smallest};
}

TilingMenu SearchSpace::tilingMenu(const FunctionDAG &dag, int node) const {
    TilingMenu menu;
    std::vector<PrunedCandidate> &pruned = menu.pruned;
    const Node &n = dag.node(node);
    int innermost = -1;
    for (int d = 0; d < n.dimensions && innermost < 0; ++d) {
        if (n.region[size_t(d)].extent() >= 16) innermost = d;
    }
    if (innermost < 0) innermost = 0;
    // Thread dimensions: the innermost one and up to maxThreadDims - 1 others of more than one
    // point. With wideTilings every dimension may take threads (at most maxThreadDims of them
    // more than one) and serial sizes, as the authors' implementation enumerates.
    const bool wide = m_options.wideTilings;
    const std::vector<std::vector<bool>> threadDimSets = threadDimensionSets(n, innermost);
    // No thread split of an outer dimension that computes more than 8/7 of its points (the
    // reference's rule: 2 threads over 3 channels compute 4); the wide space also allows at
    // most maxThreadDims dimensions with threads.
    auto threadsOk = [&](const std::vector<int64_t> &serial, const std::vector<int64_t> &threads) {
        int dims = 0;
        for (int d = 0; d < n.dimensions; ++d) {
            const int64_t t = threads[size_t(d)];
            if (t <= 1) continue;
            ++dims;
            const int64_t e = ceilDiv(n.region[size_t(d)].extent(), serial[size_t(d)]);
            if (d != innermost && t * ceilDiv(e, t) * 7 > e * 8) return false;
        }
        return !wide || dims <= m_options.maxThreadDims;
    };
    // Tilings that pass the checks, and their labels; the parallelism filter then chooses.
    struct Passed {
        std::vector<StageTiling> tilings;
        std::string label;
    };
    std::vector<Passed> options;
    auto &soft = menu.soft;
    // Only membership matters (the menu keeps enumeration order), so a hash set will do.
    struct KeyHash {
        size_t operator()(const std::vector<int64_t> &v) const {
            uint64_t h = 1469598103934665603ull; // FNV-1a over the sizes
            for (int64_t x : v)
                h = (h ^ uint64_t(x)) * 1099511628211ull;
            return size_t(h);
        }
    };
    std::unordered_set<std::vector<int64_t>, KeyHash> seen;
    std::vector<int64_t> key;
    // Compact space: serial tiles go along the thread dimensions only. A Func with more such
    // dimensions than threads has one menu per choice of them; the tilings they share (sizes
    // only on dimensions in both) are kept once, in the first set's order.
    std::set<std::vector<int64_t>> tooLargeSerial;
    std::vector<std::vector<int64_t>> serialMenus, threadMenus;
    for (const std::vector<bool> &threaded : threadDimSets) {
        serialMenus.clear();
        threadMenus.clear();
        for (int d = 0; d < n.dimensions; ++d) {
            const int64_t extent = n.region[size_t(d)].extent();
            serialMenus.push_back(threaded[size_t(d)] ? serialSizes(extent)
                                                      : std::vector<int64_t>{1});
            threadMenus.push_back(threaded[size_t(d)] ? threadSizes(extent, d == innermost)
                                                      : std::vector<int64_t>{1});
        }
        forEachCombination(serialMenus, [&](const std::vector<int64_t> &serial) {
            int64_t serialProduct = 1;
            for (int64_t v : serial)
                serialProduct *= v;
            if (serialProduct > m_options.maxUnrolledSerial) {
                if (!tooLargeSerial.insert(serial).second) return; // named once, not per set
                pruned.push_back(
                    {sizesLabel("serial ", serial), PruneReason::SerialTooLargeToUnroll,
                     std::to_string(serialProduct) + " serial iterations", std::nullopt});
                return;
            }
            forEachCombination(threadMenus, [&](const std::vector<int64_t> &threads) {
                if (!threadsOk(serial, threads)) return;
                std::vector<StageTiling> tilings;
                for (const Stage &stage : n.stages) {
                    std::vector<int64_t> t(stage.loops.size(), 1), s(stage.loops.size(), 1);
                    for (size_t l = 0; l < stage.loops.size(); ++l) {
                        const int d = stage.loops[l].funcDim;
                        if (d < 0) continue;
                        t[l] = threads[size_t(d)];
                        s[l] = serial[size_t(d)];
                    }
                    tilings.push_back(ScheduleState::makeTiling(stage, t, s));
                }
                if (n.dimensions == 0) tilings = ScheduleState::provisionalTiling(dag, node);
                // Menus clamped to small extents repeat tilings: threads and serial sizes of every
                // stage identify one (the blocks follow from them).
                key.clear();
                for (const StageTiling &t : tilings) {
                    key.insert(key.end(), t.threads.begin(), t.threads.end());
                    key.insert(key.end(), t.serial.begin(), t.serial.end());
                }
                if (!seen.insert(key).second) return;
                std::string label = tilingLabel(tilings.back().threads, tilings.back().serial);
                if (auto p = checkRootTiling(n, tilings)) {
                    p->label = std::move(label);
                    if (isSoftPruneReason(p->reason))
                        soft.emplace_back(pruned.size(), std::move(tilings));
                    pruned.push_back(std::move(*p));
                } else {
                    options.push_back({std::move(tilings), std::move(label)});
                }
            });
        });
    }
    std::vector<std::string> why(options.size());
    if (m_options.parallelismFilter && options.size() > 1) {
        std::vector<TileParallelism> parallelism;
        for (const Passed &o : options)
            parallelism.push_back(tileParallelism(n, o.tilings, m_gpu.smCount));
        why = filterParallelTilings(parallelism, m_gpu.smCount, m_options.parallelFilter);
    }
    menu.anyPassed = !options.empty();
    for (size_t i = 0; i < options.size(); ++i) {
        if (why[i].empty()) {
            menu.kept.push_back(
                {std::make_shared<const FuncPlacement>(
                     ScheduleState::rootTilingPlacement(dag, node, std::move(options[i].tilings))),
                 std::move(options[i].label),
                 {}});
        } else {
            pruned.push_back({std::move(options[i].label), PruneReason::IdleSms, std::move(why[i]),
                              std::nullopt});
        }
    }
    return menu;
}

// ---- pruning -----------------------------------------------------------------------------

double SearchSpace::inlineRecompute(const ScheduleState &state, int node) const {
    const FunctionDAG &dag = state.dag();
    // Evaluations of an inlined Func: its call count times how often each consumer computes.
    std::function<double(int)> evaluations = [&](int f) -> double {
        double total = 0;
        for (int e : dag.node(f).outgoing) {
            const Edge &edge = dag.edge(e);
            const FuncPlacement &c = state.placement(edge.consumer);
            double computed;
            if (c.kind == ComputeKind::Inline) {
                computed = evaluations(edge.consumer);
            } else if (c.kind == ComputeKind::Block || c.kind == ComputeKind::Thread) {
                computed = double(boxVolume(c.region)) * double(c.realizations);
            } else {
                computed =
                    double(dag.node(edge.consumer).stages[size_t(edge.consumerStage)].points());
            }
            total += double(edge.calls.size()) * computed;
        }
        return total;
    };
    const double minimum = double(std::max<int64_t>(1, dag.node(node).stages[0].points()));
    return evaluations(node) / minimum;
}

namespace {

/// Points a stage can spread over threads and blocks: the product of its pure loop extents.
int64_t parallelPoints(const Stage &stage) {
    int64_t points = 1;
    for (const LoopVar &l : stage.loops) {
        if (!l.isReduction) points *= l.estimate.extent();
    }
    return points;
}

/// Why Halide may bound `node`'s region within one block of `host` by far more than the tile
/// needs, or "" when it cannot. Through an index that is data-dependent or clamped (boundary
/// conditions such as repeat_edge) Halide bounded the region by the index's whole range, so the
/// block launches ceil(range / serial) threads, whatever the tiling: on stencil_chain a 24 x 1
/// thread tiling of the input wrapper became 52 x 256 threads and every run failed
/// (CL_INVALID_WORK_GROUP_SIZE on PoCL).
std::string unboundedBlockRegion(const ScheduleState &state, int node, int host) {
    const FunctionDAG &dag = state.dag();
    for (int e : state.edgesWithin(node, host, LoopLevel::Block)) {
        const Edge &edge = dag.edge(e);
        std::optional<Box> loops; // the consumer's loops per block, once per edge when needed
        for (const CallSite &site : edge.calls) {
            for (const CallArg &arg : site.args) {
                if (arg.affine && !arg.affine->isClamped()) continue;
                // A loop-only index (an upsampling's x / 2 - 1 + 2 * (x % 2)) Halide bounds
                // by interval arithmetic over the block's loops, as IndexBounds does, except a
                // remainder of a loop that runs one iteration per block: Halide bounds the loop
                // by its symbols and computes the whole period (bgu's c % 4 with one channel per
                // block: 4 rows of solve_pivot_3 where Beamscope's region has 1).
                if (arg.bounded) {
                    if (!loops) {
                        loops = state.loopBoxWithin(edge.consumer, edge.consumerStage, host,
                                                    LoopLevel::Block);
                    }
                    if (loops->empty() ||
                        arg.bounded->over(*loops) == arg.bounded->over(*loops, true)) {
                        continue;
                    }
                    return "Halide bounds a remainder of " + dag.node(edge.consumer).name +
                           "'s loops of one iteration per block by its whole period (" +
                           dag.node(edge.consumer).name + " reads " + dag.node(edge.producer).name +
                           " through it)";
                }
                return "Halide bounds its region per block by the whole index range (" +
                       dag.node(edge.consumer).name + " reads " + dag.node(edge.producer).name +
                       " through a data-dependent or clamped index)";
            }
        }
    }
    return "";
}

/// Points of the shared allocation of `node`, fused at its host's block level as `placement`
/// says. Along a dimension where calls of different slopes meet (a transpose beside a pointwise
/// read) the hull a block needs grows with the block's position, and Halide sizes the
/// allocation by its bounds over every block: the Func's whole extent. On the H200 such
/// schedules of random pipelines failed at launch (CUDA_ERROR_INVALID_VALUE: a 1 MB shared
/// allocation where the first block's tile needs 1 KB). `why` gets a note when so.
int64_t sharedAllocationPoints(const ScheduleState &state, int node, const FuncPlacement &placement,
                               std::string *why) {
    const Node &n = state.dag().node(node);
    const std::vector<bool> meet =
        dimsWhereSlopesMeet(state, node, placement.host, LoopLevel::Block);
    int64_t points = 1;
    for (size_t d = 0; d < placement.region.size(); ++d) {
        int64_t extent = placement.region[d].extent();
        if (d < meet.size() && meet[d] && d < n.region.size()) {
            extent = std::max(extent, n.region[d].extent());
            if (why->empty()) {
                *why = " (" + n.name + "'s calls of different slopes meet along " +
                       (d < n.args.size() ? n.args[d] : std::to_string(d)) +
                       ": Halide sizes it by the whole extent)";
            }
        }
        points *= extent;
    }
    return points;
}

} // namespace

std::optional<PrunedCandidate>
SearchSpace::checkRootTiling(const Node &n, const std::vector<StageTiling> &tilings) const {
    for (size_t s = 0; s < n.stages.size(); ++s) {
        const Stage &stage = n.stages[s];
        const StageTiling &t = tilings[s];
        const int64_t parallel = parallelPoints(stage);
        const int64_t serial = pureSerialPoints(stage, t);
        int64_t threads = 1, blocks = 1;
        for (size_t l = 0; l < stage.loops.size(); ++l) {
            threads *= t.threads[l];
            blocks *= t.blocks[l];
        }
        if (threads > m_gpu.maxThreadsPerBlock) {
            return PrunedCandidate{"", PruneReason::TooManyThreads,
                                   std::to_string(threads) + " threads per block", std::nullopt};
        }
        if (serial > m_options.maxUnrolledSerial) {
            return PrunedCandidate{"", PruneReason::SerialTooLargeToUnroll,
                                   std::to_string(serial) + " serial iterations", std::nullopt};
        }
        const double lanes =
            double(threads) / double(ceilDiv(threads, m_gpu.warpSize) * m_gpu.warpSize);
        if (parallel >= int64_t(m_gpu.warpSize) * 4 && lanes < m_options.minLaneUtilization) {
            return PrunedCandidate{"", PruneReason::PoorWarpLaneUtilization,
                                   std::to_string(threads) + " threads use " +
                                       std::to_string(int(lanes * 100)) + "% of lanes",
                                   std::nullopt};
        }
        if (parallel >= int64_t(m_gpu.smCount) * m_gpu.warpSize * 4 &&
            double(blocks) < m_options.minSmFraction * m_gpu.smCount) {
            return PrunedCandidate{"", PruneReason::IdleSms,
                                   std::to_string(blocks) + " blocks for " +
                                       std::to_string(m_gpu.smCount) + " SMs",
                                   std::nullopt};
        }
    }
    return std::nullopt;
}

std::optional<PrunedCandidate> SearchSpace::check(const ScheduleState &child, int node) const {
    return check(child, node, child.placement(node));
}

std::optional<PrunedCandidate> SearchSpace::check(const ScheduleState &parent, int node,
                                                  const FuncPlacement &p) const {
    const FunctionDAG &dag = parent.dag();
    const Node &n = dag.node(node);
    const PlacementView view{parent, node, &p};
    auto prune = [](PruneReason r, std::string detail) {
        return std::optional<PrunedCandidate>(
            PrunedCandidate{"", r, std::move(detail), std::nullopt});
    };
    auto threadChecks = [&](const StageTiling &t, const Stage &stage,
                            bool allowFew) -> std::optional<PrunedCandidate> {
        const int64_t serial = pureSerialPoints(stage, t);
        int64_t threads = 1;
        for (size_t l = 0; l < stage.loops.size(); ++l)
            threads *= t.threads[l];
        if (threads > m_gpu.maxThreadsPerBlock) {
            return prune(PruneReason::TooManyThreads,
                         std::to_string(threads) + " threads per block");
        }
        if (serial > m_options.maxUnrolledSerial) {
            return prune(PruneReason::SerialTooLargeToUnroll,
                         std::to_string(serial) + " serial iterations");
        }
        const double lanes =
            double(threads) / double(ceilDiv(threads, m_gpu.warpSize) * m_gpu.warpSize);
        if (!allowFew && lanes < m_options.minLaneUtilization) {
            return prune(PruneReason::PoorWarpLaneUtilization,
                         std::to_string(threads) + " threads use " +
                             std::to_string(int(lanes * 100)) + "% of lanes");
        }
        return std::nullopt;
    };
    switch (p.kind) {
    case ComputeKind::Inline: {
        const double ratio = inlineRecompute(parent, node);
        if (ratio > m_options.maxInlineRecompute) {
            return prune(PruneReason::ExcessiveRecompute,
                         "inlining evaluates it " + std::to_string(int(ratio)) + "x per point");
        }
        return std::nullopt;
    }
    case ComputeKind::Root:
        return p.tiled ? checkRootTiling(n, p.tilings) : std::nullopt;
    case ComputeKind::Block: {
        if (std::string why = unboundedBlockRegion(parent, node, p.host); !why.empty()) {
            return prune(PruneReason::ThreadAllocationDynamicOrTooLarge, why);
        }
        const double ratio = double(boxVolume(p.region)) * double(p.realizations) /
                             double(std::max<int64_t>(1, n.stages[0].points()));
        if (ratio > m_options.maxFusedRecompute) {
            return prune(PruneReason::ExcessiveRecompute,
                         "computes " + std::to_string(int(ratio * 100) / 100.0).substr(0, 4) +
                             "x its points");
        }
        // All Funcs of a block share its threads: per GPU dimension the block has the most any
        // of them uses (the host and every Func fused at its block level).
        int64_t shared = 0;
        std::string sharedWhy;
        // Mapped as the applier maps them (ScheduleState.h's gpuThreadDims: a block-level loop
        // of one thread and a serial split is no thread loop, so the next loop takes its GPU
        // dimension), every stage of every fused Func, as the featurizer counts the block.
        std::array<int64_t, 3> dims =
            gpuThreadDims(dag.node(p.host).stages.back(), view(p.host).tilings.back(), false);
        for (const Node &m : dag.nodes()) {
            if (m.isInput) continue;
            const FuncPlacement &q = view(m.index);
            if (q.kind != ComputeKind::Block || q.host != p.host) continue;
            shared += sharedAllocationPoints(parent, m.index, q, &sharedWhy) * m.bytesPerPoint;
            for (size_t s = 0; s < m.stages.size() && s < q.tilings.size(); ++s) {
                const std::array<int64_t, 3> own = gpuThreadDims(m.stages[s], q.tilings[s], true);
                for (size_t d = 0; d < 3; ++d)
                    dims[d] = std::max(dims[d], own[d]);
            }
        }
        if (shared > m_gpu.sharedMemoryPerBlockBytes) {
            return prune(PruneReason::TooMuchSharedMemory,
                         std::to_string(shared) + " bytes of shared memory per block" + sharedWhy);
        }
        if (dims[0] * dims[1] * dims[2] > m_gpu.maxThreadsPerBlock) {
            return prune(PruneReason::TooManyThreads,
                         std::to_string(dims[0] * dims[1] * dims[2]) +
                             " threads per block with the Funcs fused into it");
        }
        return threadChecks(p.tilings[0], n.stages[0], boxVolume(p.region) < m_gpu.warpSize);
    }
    case ComputeKind::Thread: {
        if (std::string why = regionSizeVaries(parent, node, p.host, LoopLevel::Thread);
            !why.empty()) {
            return prune(PruneReason::ThreadAllocationDynamicOrTooLarge, why);
        }
        const int64_t bytes = boxVolume(p.region) * n.bytesPerPoint;
        const int64_t budget = int64_t(m_gpu.registersPerThreadMax) * 4 / 4;
        if (bytes > budget) {
            return prune(PruneReason::ThreadAllocationDynamicOrTooLarge,
                         std::to_string(bytes) + " bytes per thread (budget " +
                             std::to_string(budget) + ")");
        }
        const double ratio = double(boxVolume(p.region)) * double(p.realizations) /
                             double(std::max<int64_t>(1, n.stages[0].points()));
        if (ratio > m_options.maxInlineRecompute) {
            return prune(PruneReason::ExcessiveRecompute,
                         "computes " + std::to_string(int(ratio)) + "x its points");
        }
        return std::nullopt;
    }
    case ComputeKind::Unscheduled:
        break;
    }
    return std::nullopt;
}

} // namespace beamscope
