// ScheduleImport: reading Halide schedules back into ScheduleStates.
// Contents: the loops of a stage as its splits and dims make them (readStage); where a Func is
// computed (readWhere); a root stage's tiling from its loops (rootTiling); a fused Func's
// level in its host (hostLevel); whether Beamscope could fuse it (fuseRefusal); importSchedule;
// compareWithApplier and importApplied.
#include "codegen/ScheduleImport.h"

#include "codegen/ScheduleApplier.h"
#include "codegen/ScheduleCalls.h"
#include "util/Error.h"
#include "util/IntMath.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace beamscope {

namespace {

using Halide::Internal::ForType;
using Halide::Internal::Definition;
using Halide::Internal::Function;
using Halide::Internal::Split;

const char *forTypeName(ForType t) {
    switch (t) {
    case ForType::Serial:
        return "serial";
    case ForType::Parallel:
        return "parallel";
    case ForType::Vectorized:
        return "vectorized";
    case ForType::Unrolled:
        return "unrolled";
    case ForType::Extern:
        return "extern";
    case ForType::GPUBlock:
        return "block";
    case ForType::GPUThread:
        return "thread";
    case ForType::GPULane:
        return "lane";
    }
    return "?";
}

const char *tailName(Halide::TailStrategy t) {
    using Halide::TailStrategy;
    switch (t) {
    case TailStrategy::RoundUp:
        return "RoundUp";
    case TailStrategy::GuardWithIf:
        return "GuardWithIf";
    case TailStrategy::ShiftInwards:
        return "ShiftInwards";
    case TailStrategy::Auto:
        return "Auto";
    default:
        return "another tail strategy";
    }
}

/// Halide qualifies the loops a split makes with the names of the loops they come from
/// ("x.xi.xii"); a LoopLevel names the last part only.
bool varMatches(const std::string &qualified, const std::string &name) {
    return qualified == name ||
           (qualified.size() > name.size() + 1 &&
            qualified.compare(qualified.size() - name.size() - 1, std::string::npos,
                              "." + name) == 0);
}

std::string shortName(const std::string &qualified) {
    const size_t dot = qualified.rfind('.');
    return dot == std::string::npos ? qualified : qualified.substr(dot + 1);
}

bool isSerialKind(ForType t) {
    return t == ForType::Serial || t == ForType::Unrolled;
}

/// A piece of one of the stage's original loops that a loop iterates over.
struct LoopPart {
    int loop = -1; ///< index into Stage::loops
    int64_t extent = 1;
};

/// One loop of a scheduled stage.
struct ReadLoop {
    std::string var;
    ForType type = ForType::Serial;
    std::vector<LoopPart> parts; ///< several when fused; none for pieces of __outermost
    int64_t extent() const {
        int64_t e = 1;
        for (const LoopPart &p : parts)
            e *= p.extent;
        return e;
    }
};

/// A stage's loops as its schedule leaves them.
struct ReadStage {
    std::string name;
    std::vector<ReadLoop> loops;    ///< outermost first, __outermost left out
    std::vector<std::string> tails; ///< "x by 16: RoundUp" per split that leaves a tail
    std::vector<int> splitsPerLoop; ///< splits of each original loop
};

/// Replays a definition's splits over the stage's original loops, whose extents are `extents`,
/// then lists its dims outermost first. Constructs it cannot follow go to `constructs`.
ReadStage readStage(const Stage &stage, const Definition &def, const std::vector<int64_t> &extents,
                    std::vector<std::string> &constructs) {
    ReadStage out;
    out.name = stage.name;
    out.splitsPerLoop.assign(stage.loops.size(), 0);
    std::map<std::string, ReadLoop> leaves;
    for (size_t l = 0; l < stage.loops.size(); ++l)
        leaves[stage.loops[l].name] = {stage.loops[l].name, ForType::Serial,
                                       {{int(l), extents[l]}}};
    leaves[kOutermostVar] = {kOutermostVar, ForType::Serial, {}};
    const auto take = [&](const std::string &name, ReadLoop &loop) {
        auto it = leaves.find(name);
        if (it == leaves.end()) {
            constructs.push_back(stage.name + ": a split names the unknown loop '" + name + "'");
            return false;
        }
        loop = it->second;
        leaves.erase(it);
        return true;
    };
    for (const Split &s : def.schedule().splits()) {
        ReadLoop old;
        if (s.split_type == Split::RenameVar) {
            if (!take(s.old_var, old)) continue;
            old.var = s.outer;
            leaves[s.outer] = old;
        } else if (s.split_type == Split::FuseVars) {
            ReadLoop inner, outer;
            if (!take(s.inner, inner) || !take(s.outer, outer)) continue;
            inner.var = s.old_var;
            inner.parts.insert(inner.parts.end(), outer.parts.begin(), outer.parts.end());
            leaves[s.old_var] = inner;
        } else {
            if (!take(s.old_var, old)) continue;
            const std::optional<int64_t> factor = Halide::Internal::as_const_int(s.factor);
            if (!factor || *factor < 1) {
                constructs.push_back(stage.name + ": split of '" + s.old_var +
                                     "' by a factor that is not a constant");
                continue;
            }
            ReadLoop outer = old, inner = old;
            outer.var = s.outer;
            inner.var = s.inner;
            if (old.parts.size() > 1) {
                constructs.push_back(stage.name + ": split of the fused loop '" + s.old_var + "'");
            } else if (old.parts.size() == 1) {
                LoopPart &o = outer.parts[0];
                LoopPart &i = inner.parts[0];
                // A factor above the extent still makes a loop of `factor` (guarded or shifted).
                i.extent = *factor;
                o.extent = ceilDiv(old.parts[0].extent, *factor);
                ++out.splitsPerLoop[size_t(old.parts[0].loop)];
                // A factor that divides the extent leaves no tail: its strategy does nothing.
                if (*factor > 1 && old.parts[0].extent % *factor != 0) {
                    out.tails.push_back(stage.loops[size_t(old.parts[0].loop)].name + " by " +
                                        std::to_string(*factor) + ": " + tailName(s.tail));
                }
            }
            leaves[s.outer] = outer;
            leaves[s.inner] = inner;
        }
    }
    const auto &dims = def.schedule().dims();
    for (auto it = dims.rbegin(); it != dims.rend(); ++it) {
        if (it->var == kOutermostVar) continue;
        auto leaf = leaves.find(it->var);
        if (leaf == leaves.end()) {
            constructs.push_back(stage.name + ": the loop '" + it->var + "' comes from no split");
            continue;
        }
        ReadLoop loop = leaf->second;
        loop.type = it->for_type;
        out.loops.push_back(loop);
    }
    return out;
}

/// "x.block 40, y.block 80, y.thread 8, x.thread 32": loops of extent 1 are left out (they run
/// once, or make a GPU dimension of size 1); a loop fusing several names them "z*c".
std::string describeLoops(const Stage &stage, const ReadStage &read) {
    std::string out;
    for (const ReadLoop &loop : read.loops) {
        if (loop.extent() == 1) continue;
        std::string origin;
        for (const LoopPart &p : loop.parts) {
            // A part of one iteration fused into a loop changes nothing (bilateral_grid's
            // z*c block loop with c's block part 1 is z's).
            if (p.extent == 1 && loop.parts.size() > 1) continue;
            origin += (origin.empty() ? "" : "*") + stage.loops[size_t(p.loop)].name;
        }
        if (origin.empty()) origin = "(none)";
        out += (out.empty() ? "" : ", ") + origin + "." + forTypeName(loop.type) + " " +
               std::to_string(loop.extent());
    }
    return out.empty() ? "(no loops)" : out;
}

/// Where a Func's compute level puts it.
struct Where {
    enum Kind { Inline, Root, At } kind = Inline;
    std::string hostName; ///< Halide's name of the host Function (At)
    std::string var;      ///< the host's loop (At)
};

Where readWhere(const Node &n) {
    const Halide::LoopLevel &level = n.function.schedule().compute_level();
    Where w;
    const std::string var = level.var_name();
    if (var == Halide::LoopLevel::root().var_name()) {
        w.kind = Where::Root;
    } else if (var == Halide::LoopLevel::inlined().var_name()) {
        // An output is always realized, at root, whatever its level says.
        w.kind = n.isOutput ? Where::Root : Where::Inline;
    } else {
        w.kind = Where::At;
        w.hostName = level.func_name();
        w.var = var;
    }
    return w;
}

std::string levelText(const Halide::LoopLevel &level) {
    const std::string var = level.var_name();
    if (var == Halide::LoopLevel::root().var_name()) return "root";
    if (var == Halide::LoopLevel::inlined().var_name()) return "inlined";
    return level.func_name() + "." + var;
}

/// Schedule directives on the Function itself that Beamscope's space has no place for
/// (constructs) or lowers differently (differences).
void readFuncDirectives(const Node &n, std::vector<std::string> &constructs,
                        std::vector<std::string> &differences) {
    const Halide::Internal::FuncSchedule &fs = n.function.schedule();
    const Halide::LoopLevel &compute = fs.compute_level();
    const Halide::LoopLevel &store = fs.store_level();
    // A store level left inlined takes the compute level when lowering locks the levels.
    const std::string inlined = Halide::LoopLevel::inlined().var_name();
    if (compute.var_name() != inlined && store.var_name() != inlined &&
        (store.var_name() != compute.var_name() || store.func_name() != compute.func_name())) {
        constructs.push_back("store_at(" + levelText(store) + ") outside compute_at(" +
                             levelText(compute) + ")");
    }
    if (fs.hoist_storage_level().var_name() != inlined) {
        constructs.push_back("hoist_storage(" + levelText(fs.hoist_storage_level()) + ")");
    }
    if (fs.async()) constructs.push_back("async()");
    if (fs.memoized()) constructs.push_back("memoize()");
    if (fs.ring_buffer().defined()) constructs.push_back("ring_buffer()");
    if (!fs.bounds().empty()) differences.push_back("bound() on the Func");
    const auto &storage = fs.storage_dims();
    for (size_t d = 0; d < storage.size() && d < n.args.size(); ++d) {
        if (storage[d].var != n.args[d]) {
            std::string order;
            for (const auto &s : storage)
                order += (order.empty() ? "" : ", ") + s.var;
            differences.push_back("reorder_storage(" + order + ")");
            break;
        }
    }
    for (size_t s = 0; s < n.stages.size(); ++s) {
        const Definition &def = s == 0 ? n.function.definition() : n.function.updates()[s - 1];
        const auto &ss = def.schedule();
        if (!ss.fuse_level().level.var_name().empty() &&
            ss.fuse_level().level.var_name() != Halide::LoopLevel::inlined().var_name()) {
            constructs.push_back(n.stages[s].name + ": compute_with(" +
                                 levelText(ss.fuse_level().level) + ")");
        }
        if (ss.atomic()) constructs.push_back(n.stages[s].name + ": atomic()");
        if (ss.allow_race_conditions())
            constructs.push_back(n.stages[s].name + ": allow_race_conditions()");
        if (!ss.prefetches().empty()) differences.push_back(n.stages[s].name + ": prefetch()");
    }
}

/// The extents of a stage's original loops over `region` (the Func's region where it is
/// computed); RVars over their whole range.
std::vector<int64_t> loopExtents(const Stage &stage, const Box &region) {
    std::vector<int64_t> extents;
    for (const LoopVar &loop : stage.loops) {
        extents.push_back(loop.funcDim >= 0 && size_t(loop.funcDim) < region.size()
                              ? region[size_t(loop.funcDim)].extent()
                              : loop.estimate.extent());
    }
    return extents;
}

/// Threads and serial sizes per original loop, read off a stage whose own loops form one GPU
/// kernel level: `withBlocks` (a root stage) block loops, then thread loops, then serial loops
/// (RVars among them, whole). Anything else is a construct.
struct ReadTiling {
    std::vector<int64_t> blocks, threads, serial;
};

ReadTiling readTiling(const Stage &stage, const ReadStage &read, bool withBlocks,
                      std::vector<std::string> &constructs) {
    const size_t n = stage.loops.size();
    ReadTiling t{std::vector<int64_t>(n, 1), std::vector<int64_t>(n, 1),
                 std::vector<int64_t>(n, 1)};
    enum { Outside, Threads, Inside } phase = Outside;
    // A stage with no GPU thread loop runs its serial loops on one thread of each block
    // (Halide launches such a kernel with one thread): at a block level, or at root under its
    // block loops (Anderson2021's hist_rows update: a block per row, the row's RVar serial).
    const auto isA = [&read](ForType type) {
        return std::any_of(read.loops.begin(), read.loops.end(),
                           [type](const ReadLoop &l) { return l.type == type; });
    };
    const bool oneThread = !isA(ForType::GPUThread) && (!withBlocks || isA(ForType::GPUBlock));
    if (oneThread && !withBlocks) phase = Threads;
    for (const ReadLoop &loop : read.loops) {
        const int64_t extent = loop.extent();
        const std::string what = stage.name + ": loop '" + shortName(loop.var) + "' (" +
                                 forTypeName(loop.type) + ", extent " + std::to_string(extent) +
                                 ")";
        if (isSerialKind(loop.type) && extent == 1) continue; // runs once
        bool rvar = false;
        for (const LoopPart &p : loop.parts)
            rvar = rvar || stage.loops[size_t(p.loop)].isReduction;
        if (loop.type == ForType::GPUBlock) {
            if (!withBlocks) {
                constructs.push_back(what + ": GPU blocks inside another Func's kernel");
            } else if (phase != Outside) {
                constructs.push_back(what + ": GPU blocks inside thread or serial loops");
            }
            if (rvar) constructs.push_back(what + ": an RVar mapped to GPU blocks");
            for (const LoopPart &p : loop.parts)
                t.blocks[size_t(p.loop)] *= p.extent;
        } else if (loop.type == ForType::GPUThread) {
            if (phase == Inside) constructs.push_back(what + ": GPU threads inside serial loops");
            if (rvar) constructs.push_back(what + ": an RVar mapped to GPU threads");
            phase = Threads;
            for (const LoopPart &p : loop.parts)
                t.threads[size_t(p.loop)] *= p.extent;
        } else if (isSerialKind(loop.type)) {
            if (phase == Outside && !oneThread) {
                constructs.push_back(what + ": a serial loop outside the GPU thread loops");
            }
            if (loop.parts.size() > 1) constructs.push_back(what + ": serial loops fused");
            phase = Inside;
            for (const LoopPart &p : loop.parts)
                t.serial[size_t(p.loop)] *= p.extent;
        } else {
            constructs.push_back(what + ": a " + forTypeName(loop.type) + " loop");
        }
    }
    for (size_t l = 0; l < n; ++l) {
        if (stage.loops[l].isReduction && read.splitsPerLoop[l] > 0) {
            constructs.push_back(stage.name + ": the RVar '" + stage.loops[l].name +
                                 "' is split (Beamscope runs RVars whole)");
        }
    }
    return t;
}

/// The root tiling of a stage, or nullopt (with constructs) when its loops are not one.
std::optional<StageTiling> rootTiling(const Stage &stage, const ReadStage &read,
                                      std::vector<std::string> &constructs) {
    const size_t before = constructs.size();
    const ReadTiling t = readTiling(stage, read, true, constructs);
    if (constructs.size() > before) return std::nullopt;
    const StageTiling tiling = ScheduleState::makeTiling(stage, t.threads, t.serial);
    for (size_t l = 0; l < stage.loops.size(); ++l) {
        if (stage.loops[l].isReduction) continue;
        const std::string loop = stage.name + ": loop " + stage.loops[l].name;
        if (tiling.threads[l] != t.threads[l] || tiling.serial[l] != t.serial[l]) {
            constructs.push_back(loop + ": threads " + std::to_string(t.threads[l]) +
                                 " x serial " + std::to_string(t.serial[l]) +
                                 " exceed its extent " +
                                 std::to_string(stage.loops[l].estimate.extent()));
        } else if (tiling.blocks[l] != t.blocks[l]) {
            constructs.push_back(loop + ": " + std::to_string(t.blocks[l]) + " blocks of " +
                                 std::to_string(t.threads[l]) + " threads x " +
                                 std::to_string(t.serial[l]) +
                                 " serial are not one tiling of its extent (" +
                                 std::to_string(tiling.blocks[l]) + " tiles)");
        }
    }
    if (constructs.size() > before) return std::nullopt;
    return tiling;
}

/// The GPU level of the host's loop `var`: Block when every block loop of the host's last stage
/// is at or outside it and no thread loop is; Thread when every thread loop is at or outside
/// it. Anything else (a serial loop of the host around it, between thread loops) is a construct.
std::optional<LoopLevel> hostLevel(const std::string &func, const std::string &hostName,
                                   const ReadStage &host, const std::string &var,
                                   std::vector<std::string> &constructs) {
    size_t at = host.loops.size();
    for (size_t i = 0; i < host.loops.size(); ++i)
        if (varMatches(host.loops[i].var, var)) at = i;
    const std::string where = "compute_at(" + hostName + ", " + var + ")";
    if (at == host.loops.size()) {
        constructs.push_back(func + ": " + where + " names no loop of " + host.name +
                             " (another stage's, or a wrapper's)");
        return std::nullopt;
    }
    bool blockInside = false, threadInside = false, threadOutside = false;
    std::string serialOutside;
    for (size_t i = 0; i < host.loops.size(); ++i) {
        const ReadLoop &loop = host.loops[i];
        if (i <= at) {
            threadOutside = threadOutside || loop.type == ForType::GPUThread;
            if (isSerialKind(loop.type) && loop.extent() > 1) serialOutside = shortName(loop.var);
        } else {
            blockInside = blockInside || loop.type == ForType::GPUBlock;
            threadInside = threadInside || loop.type == ForType::GPUThread;
        }
    }
    if (!serialOutside.empty()) {
        constructs.push_back(func + ": " + where + ", inside the serial loop '" + serialOutside +
                             "' of " + hostName);
    } else if (blockInside) {
        constructs.push_back(func + ": " + where + ", outside some of " + hostName +
                             "'s GPU block loops");
    } else if (threadOutside && threadInside) {
        constructs.push_back(func + ": " + where + ", between " + hostName +
                             "'s GPU thread loops");
    } else {
        return threadOutside ? LoopLevel::Thread : LoopLevel::Block;
    }
    return std::nullopt;
}

/// Why Beamscope's space has no fusion of `node` into `host` at `level` (the conditions of
/// ScheduleState::canFuse, named), or "" when it has one.
std::string fuseRefusal(const ScheduleState &state, int node, int host, LoopLevel level) {
    if (state.canFuse(node, host, level)) return "";
    const FunctionDAG &dag = state.dag();
    const Node &n = dag.node(node);
    const Node &h = dag.node(host);
    const FuncPlacement &hp = state.placement(host);
    const std::string at = std::string(level == LoopLevel::Block ? "block" : "thread") +
                           " level of " + h.name;
    if (hp.kind != ComputeKind::Root) {
        return "computed at the " + at + ", which is not at root (" + computeKindName(hp.kind) +
               "): Beamscope fuses only into root Funcs";
    }
    if (n.stages.size() > 1 && !n.pointwiseUpdates && n.scatteredDims.empty()) {
        return "has updates and is computed at the " + at +
               ": its updates do not write only the points they are computed over";
    }
    if (n.stages.size() > 1 && !n.pointwiseUpdates && level == LoopLevel::Thread) {
        return "has updates that scatter into a data-dependent coordinate and is computed at "
               "the " + at + ": Beamscope computes such a Func at root or at a block level";
    }
    if (h.stages.size() > 1 && level == LoopLevel::Thread) {
        return "computed at the " + at +
               ", which has updates: their guarded tiles give a thread no constant number of "
               "points";
    }
    return "computed at the " + at +
           ", where Beamscope cannot place it: " + state.describeFuseRefusal(node, host, level);
}

/// The consumers reading `n` through a wrapper (Func::in), by display name.
std::vector<std::string> wrappedInto(const Node &n, const FunctionDAG &dag) {
    std::vector<std::string> out;
    for (const auto &[consumer, wrapper] : n.function.schedule().wrappers()) {
        if (consumer.empty()) {
            out.push_back("(every consumer)");
            continue;
        }
        std::string name = consumer;
        for (const Node &m : dag.nodes())
            if (m.halideName == consumer) name = m.name;
        out.push_back(name);
    }
    std::sort(out.begin(), out.end());
    return out;
}

/// The stages of a Func read over `region`.
std::vector<ReadStage> readStages(const Node &n, const Box &region,
                                  std::vector<std::string> &constructs) {
    std::vector<ReadStage> stages;
    for (size_t s = 0; s < n.stages.size(); ++s) {
        const Definition &def = s == 0 ? n.function.definition() : n.function.updates()[s - 1];
        stages.push_back(readStage(n.stages[s], def, loopExtents(n.stages[s], region), constructs));
    }
    return stages;
}

std::string describeStages(const Node &n, const std::vector<ReadStage> &stages) {
    std::string out;
    for (size_t s = 0; s < stages.size(); ++s)
        out += (s ? "; " : "") + n.stages[s].name + ": " + describeLoops(n.stages[s], stages[s]);
    return out;
}

void describeRead(const Node &n, const std::vector<ReadStage> &stages, ImportedFunc &out) {
    out.loops = describeStages(n, stages);
    out.tails.clear();
    for (const ReadStage &s : stages) {
        for (const std::string &t : s.tails)
            out.tails += (out.tails.empty() ? "" : "; ") + s.name + ": " + t;
    }
}

/// Imports one Func onto `state` (its consumers already placed). Returns the new state, or
/// nullptr with the constructs recorded.
StatePtr importFunc(const StatePtr &state, int node, ImportedFunc &out,
                    std::map<std::string, int> &byHalideName) {
    const FunctionDAG &dag = state->dag();
    const Node &n = dag.node(node);
    readFuncDirectives(n, out.constructs, out.differences);
    out.stagedInto = wrappedInto(n, dag);
    const Where where = readWhere(n);
    std::vector<ReadStage> stages = readStages(n, n.region, out.constructs);
    describeRead(n, stages, out);
    if (where.kind == Where::Inline) {
        if (!state->canInline(node)) {
            out.constructs.push_back("inlined, which Beamscope cannot (an output, or updates)");
            return nullptr;
        }
        out.loops.clear();
        out.tails.clear();
        return out.constructs.empty() ? state->withInline(node) : nullptr;
    }
    if (where.kind == Where::Root) {
        std::vector<StageTiling> tilings;
        for (size_t s = 0; s < n.stages.size(); ++s) {
            if (auto t = rootTiling(n.stages[s], stages[s], out.constructs)) tilings.push_back(*t);
        }
        if (!out.constructs.empty()) return nullptr;
        return state->withRootTiling(node, tilings);
    }
    auto host = byHalideName.find(where.hostName);
    if (host == byHalideName.end()) {
        out.constructs.push_back("compute_at(" + where.hostName + ", " + where.var +
                                 "): a Func outside the pipeline's DAG (a wrapper?)");
        return nullptr;
    }
    const Node &h = dag.node(host->second);
    const FuncPlacement &hp = state->placement(host->second);
    if (hp.kind == ComputeKind::Unscheduled) {
        out.constructs.push_back("computed inside " + h.name + ", whose schedule is not imported");
        return nullptr;
    }
    // The host's last stage over its own region as placed (its loops name the level).
    std::vector<std::string> hostConstructs;
    const std::vector<ReadStage> hostStages = readStages(h, hp.region, hostConstructs);
    const std::optional<LoopLevel> level =
        hostLevel(n.name, h.name, hostStages.back(), where.var, out.constructs);
    if (!level) return nullptr;
    if (const std::string why = fuseRefusal(*state, node, host->second, *level); !why.empty()) {
        out.constructs.push_back(n.name + " " + why);
        return nullptr;
    }
    const Halide::MemoryType memory = n.function.schedule().memory_type();
    const Halide::MemoryType natural =
        *level == LoopLevel::Block ? Halide::MemoryType::GPUShared : Halide::MemoryType::Register;
    if (memory != Halide::MemoryType::Auto && memory != natural) {
        out.differences.push_back(std::string("stored in another memory type than ") +
                                  (*level == LoopLevel::Block ? "GPUShared" : "Register"));
    }
    if (*level == LoopLevel::Thread) {
        const FuncPlacement p = state->threadPlacement(node, host->second);
        stages = readStages(n, p.region, out.constructs);
        describeRead(n, stages, out);
        for (size_t s = 0; s < n.stages.size(); ++s) {
            for (const ReadLoop &loop : stages[s].loops) {
                if (!isSerialKind(loop.type)) {
                    out.constructs.push_back(n.stages[s].name + ": loop '" + shortName(loop.var) + "' (" +
                                             forTypeName(loop.type) +
                                             ") in a Func computed at the thread level");
                }
            }
        }
        return out.constructs.empty() ? state->withThread(node, host->second) : nullptr;
    }
    // Block level: the Func's threads split its region into each thread's serial part.
    const Box region = state->regionWithin(node, host->second, LoopLevel::Block);
    stages = readStages(n, region, out.constructs);
    describeRead(n, stages, out);
    std::vector<ReadTiling> read;
    for (size_t s = 0; s < n.stages.size(); ++s)
        read.push_back(readTiling(n.stages[s], stages[s], false, out.constructs));
    if (!out.constructs.empty()) return nullptr;
    const FuncPlacement p = state->blockPlacement(node, host->second, read[0].serial);
    // Every stage runs on the Func's threads with its pure stage's serial sizes (an update's
    // RVars serial and whole): the serial sizes are the decision, the threads follow from them.
    for (size_t s = 0; s < n.stages.size(); ++s) {
        const Stage &stage = n.stages[s];
        std::vector<int64_t> serial = read[s].serial, threads = read[s].threads;
        for (size_t l = 0; l < stage.loops.size(); ++l) {
            if (stage.loops[l].isReduction) serial[l] = p.tilings[s].serial[l]; // whole, read
        }
        if (p.tilings[s].serial != serial) {
            out.constructs.push_back(
                stage.name + (s == 0 ? ": serial sizes larger than the region the Func computes "
                                       "per block"
                                     : ": serial sizes other than its pure stage's (Beamscope "
                                       "runs every stage of a Func at the block level on the "
                                       "same threads)"));
            return nullptr;
        }
        if (p.tilings[s].threads != threads) {
            out.differences.push_back(stage.name + ": thread loops do not cover the region " +
                                      "per block as Beamscope's do (their threads, by loop: " +
                                      describeLoops(stage, stages[s]) + ")");
        }
    }
    return state->derive(node, p).materialize();
}

std::string describeWhere(const FunctionDAG &dag, int node, const ImportedFunc &f) {
    const Where w = readWhere(dag.node(node));
    std::string where;
    switch (w.kind) {
    case Where::Inline:
        return "inline";
    case Where::Root:
        where = "root";
        break;
    case Where::At:
        where = "compute_at(" + w.hostName + ", " + w.var + ")";
        for (const Node &h : dag.nodes())
            if (h.halideName == w.hostName) where = "compute_at(" + h.name + ", " + w.var + ")";
        break;
    }
    return where + ": " + f.loops;
}

} // namespace

int ScheduleImport::unrepresentable() const {
    return int(std::count_if(funcs.begin(), funcs.end(),
                             [](const ImportedFunc &f) { return !f.representable; }));
}

ScheduleImport importSchedule(const std::shared_ptr<const FunctionDAG> &dag) {
    ScheduleImport result;
    std::map<std::string, int> byHalideName;
    for (const Node &n : dag->nodes())
        byHalideName[n.halideName] = n.index;
    StatePtr state = ScheduleState::initial(dag);
    bool complete = true;
    for (int node : dag->outputsFirst()) {
        ImportedFunc f;
        f.node = node;
        f.name = dag->node(node).name;
        StatePtr next;
        try {
            next = importFunc(state, node, f, byHalideName);
        } catch (const Error &e) {
            f.constructs.push_back(dag->node(node).name + ": " + e.what());
        }
        f.representable = next != nullptr && f.constructs.empty();
        if (f.representable) {
            state = next;
            f.placement = state->placement(node);
            f.theirs = describePlacement(*dag, node, *f.placement);
        } else {
            complete = false;
            f.theirs = describeWhere(*dag, node, f);
        }
        if (!f.stagedInto.empty()) {
            std::string into;
            for (const std::string &c : f.stagedInto)
                into += (into.empty() ? "" : ", ") + c;
            f.theirs += "; staged through Func::in into " + into;
        }
        result.funcs.push_back(std::move(f));
    }
    if (complete && state->complete()) result.state = state;
    return result;
}

void compareWithApplier(ScheduleImport &imported, const PipelineInstance &fresh,
                        const Halide::Target &target, const ScheduleCallOptions &options) {
    if (!imported.state) return;
    const ScheduleImport ours = importApplied(*imported.state, fresh, target, options);
    for (size_t i = 0; i < imported.funcs.size() && i < ours.funcs.size(); ++i) {
        ImportedFunc &theirs = imported.funcs[i];
        const ImportedFunc &own = ours.funcs[i];
        const Node &n = imported.state->dag().node(theirs.node);
        if (theirs.loops != own.loops) {
            theirs.differences.push_back("loops: theirs " + theirs.loops + "; Beamscope's " +
                                         own.loops);
        }
        if (theirs.tails != own.tails) {
            theirs.differences.push_back("tails: theirs " + theirs.tails + "; Beamscope's " +
                                         own.tails);
        }
        if (theirs.stagedInto != own.stagedInto) {
            std::string a, b;
            for (const std::string &c : theirs.stagedInto)
                a += (a.empty() ? "" : ", ") + c;
            for (const std::string &c : own.stagedInto)
                b += (b.empty() ? "" : ", ") + c;
            theirs.differences.push_back(n.name + " staged in registers of: theirs " +
                                         (a.empty() ? "none" : a) + "; Beamscope's " +
                                         (b.empty() ? "none" : b));
        }
    }
}

ScheduleImport importApplied(const ScheduleState &state, const PipelineInstance &fresh,
                             const Halide::Target &target, const ScheduleCallOptions &options) {
    auto dag = std::make_shared<const FunctionDAG>(fresh);
    applySchedule(state, fresh, target, options);
    return importSchedule(dag);
}

} // namespace beamscope
