// The baseline schedule cache: keys, entries on disk, and copying an entry's schedules onto a
// fresh pipeline.
#include "measure/BaselineScheduleCache.h"

#include "util/AtomicFile.h"
#include "util/Error.h"
#include "util/Hash.h"
#include "util/Version.h"

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <vector>

namespace beamscope {

namespace {

using Halide::Internal::Definition;
using Halide::Internal::Function;

std::string bytesHash(const std::vector<uint8_t> &bytes) {
    return fnv1a64Hex(std::string_view(reinterpret_cast<const char *>(bytes.data()), bytes.size()));
}

/// Every Function of `pipeline`, by name.
std::map<std::string, Function> functionsOf(const Halide::Pipeline &pipeline) {
    std::vector<Function> outputs;
    for (const Halide::Func &f : pipeline.outputs())
        outputs.push_back(f.function());
    return Halide::Internal::build_environment(outputs);
}

/// The Funcs a Func calls, in the order they appear in its definitions (arguments, values,
/// predicates, reduction domains) and extern arguments.
class CallsInOrder : public Halide::Internal::IRVisitor {
public:
    std::vector<std::string> names;

    void definition(const Definition &d) {
        for (const Halide::Expr &e : d.args())
            e.accept(this);
        for (const Halide::Expr &e : d.values())
            e.accept(this);
        if (d.predicate().defined()) d.predicate().accept(this);
        for (const Halide::Internal::ReductionVariable &r : d.schedule().rvars()) {
            r.min.accept(this);
            r.extent.accept(this);
        }
    }

private:
    using IRVisitor::visit;
    void visit(const Halide::Internal::Call *op) override {
        if (op->call_type == Halide::Internal::Call::Halide) names.push_back(op->name);
        IRVisitor::visit(op);
    }
};

/// The Funcs of `pipeline` in an order that depends on its structure only, not on the names
/// Halide gave them (a Func built again in one process is "prod$1", Halide's lambdas are
/// "lambda_N" by a process-wide counter): depth first from the outputs, callees in the order
/// their calls appear. Wrappers (Func::in) are not reached: no definition calls them.
std::vector<Function> structuralOrder(const Halide::Pipeline &pipeline) {
    const std::map<std::string, Function> env = functionsOf(pipeline);
    std::vector<Function> order;
    std::set<std::string> seen;
    std::vector<Function> stack;
    const std::vector<Halide::Func> outputs = pipeline.outputs();
    for (auto it = outputs.rbegin(); it != outputs.rend(); ++it)
        stack.push_back(it->function());
    while (!stack.empty()) {
        const Function f = stack.back();
        stack.pop_back();
        if (!seen.insert(f.name()).second) continue;
        order.push_back(f);
        CallsInOrder calls;
        if (f.has_extern_definition()) {
            for (const Halide::ExternFuncArgument &a : f.extern_arguments()) {
                if (a.is_func()) calls.names.push_back(Function(a.func).name());
                if (a.is_expr()) a.expr.accept(&calls);
            }
        } else {
            if (f.has_pure_definition()) calls.definition(f.definition());
            for (const Definition &u : f.updates())
                calls.definition(u);
        }
        for (auto it = calls.names.rbegin(); it != calls.names.rend(); ++it) {
            auto callee = env.find(*it);
            if (callee != env.end() && !seen.count(*it)) stack.push_back(callee->second);
        }
    }
    return order;
}

/// `text` with every identifier that is a key of `names` replaced by its value, and Halide's
/// let variables numbered by first appearance.
std::string renameIdentifiers(const std::string &text,
                              const std::map<std::string, std::string> &names) {
    const auto identifierChar = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
    };
    std::string out;
    std::map<std::string, std::string> lets;
    size_t i = 0;
    while (i < text.size()) {
        if (!identifierChar(text[i])) {
            out += text[i++];
            continue;
        }
        size_t end = i;
        while (end < text.size() && identifierChar(text[end]))
            ++end;
        const std::string token = text.substr(i, end - i);
        if (auto it = names.find(token); it != names.end()) {
            out += it->second;
        } else if (token.size() > 1 && token[0] == 't' &&
                   std::all_of(token.begin() + 1, token.end(),
                               [](char c) { return c >= '0' && c <= '9'; })) {
            // Halide's let variables ("t5", "t11650": a process-wide counter), numbered
            // again in the order they appear.
            auto [let, added] = lets.emplace(token, "t" + std::to_string(lets.size()));
            out += let->second;
        } else {
            out += token;
        }
        i = end;
    }
    return out;
}

/// Everything the plugin sees of `instance`, as text: each Func's definitions (arguments,
/// values, predicates, reduction domains), estimates and bounds, in structural order, and each
/// input's type, dimensions and estimates, with Funcs and inputs named by their position
/// ("f3", "input0") so that two instances of one pipeline read the same.
std::string pipelineText(const PipelineInstance &instance) {
    const std::vector<Function> functions = structuralOrder(instance.pipeline);
    std::map<std::string, std::string> names;
    for (size_t i = 0; i < functions.size(); ++i)
        names[functions[i].name()] = "f" + std::to_string(i);
    for (size_t i = 0; i < instance.inputs.size(); ++i)
        names[instance.inputs[i].name()] = "input" + std::to_string(i);
    for (size_t i = 0; i < instance.scalars.size(); ++i)
        names[instance.scalars[i].name()] = "scalar" + std::to_string(i);

    std::ostringstream os;
    const auto definition = [&os](const Definition &d) {
        os << " def";
        for (const Halide::Expr &a : d.args())
            os << " " << a;
        os << " =";
        for (const Halide::Expr &v : d.values())
            os << " " << v;
        if (d.predicate().defined()) os << " if " << d.predicate();
        for (const Halide::Internal::ReductionVariable &r : d.schedule().rvars())
            os << " rvar " << r.var << " " << r.min << " " << r.extent;
        os << " specializations " << d.specializations().size() << "\n";
    };
    for (const Function &f : functions) {
        os << "func " << f.name();
        for (const std::string &a : f.args())
            os << " " << a;
        for (const Halide::Type &t : f.output_types())
            os << " " << t;
        os << "\n";
        if (f.has_extern_definition()) {
            os << " extern " << f.extern_function_name();
            for (const Halide::ExternFuncArgument &a : f.extern_arguments()) {
                if (a.is_func()) os << " func " << Function(a.func).name();
                if (a.is_expr()) os << " expr " << a.expr;
                if (a.is_buffer()) os << " buffer " << a.buffer.name();
                if (a.is_image_param()) os << " input " << a.image_param.name();
            }
            os << "\n";
        }
        if (f.has_pure_definition()) definition(f.definition());
        for (const Definition &u : f.updates())
            definition(u);
        for (const Halide::Internal::Bound &b : f.schedule().estimates())
            os << " estimate " << b.var << " " << b.min << " " << b.extent << "\n";
        for (const Halide::Internal::Bound &b : f.schedule().bounds())
            os << " bound " << b.var << " " << b.min << " " << b.extent << " " << b.modulus << " "
               << b.remainder << "\n";
    }
    for (const Halide::Parameter &p : instance.inputs) {
        os << "input " << p.name() << " " << p.type() << " " << p.dimensions();
        for (int d = 0; d < p.dimensions(); ++d)
            os << " [" << p.min_constraint_estimate(d) << "," << p.extent_constraint_estimate(d)
               << "]";
        os << "\n";
    }
    for (const Halide::Parameter &p : instance.scalars)
        os << "scalar " << p.name() << " " << p.type() << " " << p.estimate() << "\n";
    return renameIdentifiers(os.str(), names);
}

/// Entry Func names -> the fresh pipeline's.
using Renames = std::map<std::string, std::string>;

/// `level` of the entry, naming the fresh pipeline's Func.
Halide::LoopLevel renamed(const Halide::LoopLevel &level, const Renames &renames) {
    const std::string func = level.func_name();
    if (func.empty()) return level; // inlined or root
    return Halide::LoopLevel(renames.at(func), level.var_name(), level.is_rvar(),
                             level.get_stage_index(), level.locked());
}

/// The Funcs the loop levels of `f`'s schedule name.
std::vector<std::string> levelFuncs(const Function &f) {
    const Halide::Internal::FuncSchedule &s = f.schedule();
    std::vector<std::string> names = {s.compute_level().func_name(), s.store_level().func_name(),
                                      s.hoist_storage_level().func_name()};
    const auto stage = [&names](const Definition &d) {
        names.push_back(d.schedule().fuse_level().level.func_name());
        for (const Halide::Internal::FusedPair &p : d.schedule().fused_pairs()) {
            names.push_back(p.func_1);
            names.push_back(p.func_2);
        }
    };
    if (!f.has_extern_definition()) {
        stage(f.definition());
        for (const Definition &u : f.updates())
            stage(u);
    }
    names.erase(std::remove(names.begin(), names.end(), std::string()), names.end());
    return names;
}

/// Copies a Func's and its stages' schedules of the entry onto the fresh pipeline's Func,
/// naming the fresh pipeline's Funcs and keeping its estimates, bounds, wrappers and reduction
/// domains (their expressions and Functions belong to it). The bounds the plugin added are
/// constants (bound_extent of a staged Func).
void copySchedule(const Function &src, Function &dst, const Renames &renames) {
    // The entry's wrappers are made again in the fresh pipeline (copySchedules); deep_copy
    // would copy them from the entry's. The entry is thrown away after: clear them there.
    Function entry = src;
    entry.schedule().wrappers().clear();
    std::map<Halide::Internal::FunctionPtr, Halide::Internal::FunctionPtr> none;
    Halide::Internal::FuncSchedule schedule = entry.schedule().deep_copy(none);
    // The fresh Func's own bounds (Func::bound in the algorithm), and the ones the plugin added
    // (bound_extent on a staged wrapper) on dimensions the algorithm leaves unbounded.
    std::vector<Halide::Internal::Bound> bounds = dst.schedule().bounds();
    for (const Halide::Internal::Bound &b : src.schedule().bounds()) {
        const bool own =
            std::any_of(bounds.begin(), bounds.end(),
                        [&b](const Halide::Internal::Bound &o) { return o.var == b.var; });
        if (!own) bounds.push_back(b);
    }
    schedule.bounds() = bounds;
    schedule.estimates() = dst.schedule().estimates();
    schedule.wrappers() = dst.schedule().wrappers();
    schedule.compute_level() = renamed(schedule.compute_level(), renames);
    schedule.store_level() = renamed(schedule.store_level(), renames);
    schedule.hoist_storage_level() = renamed(schedule.hoist_storage_level(), renames);
    dst.schedule() = schedule;
    if (dst.has_extern_definition()) return;
    const auto copyStage = [&renames](const Definition &from, Definition &to) {
        Halide::Internal::StageSchedule stage = from.schedule().get_copy();
        stage.rvars() = to.schedule().rvars();
        stage.fuse_level().level = renamed(stage.fuse_level().level, renames);
        for (Halide::Internal::FusedPair &p : stage.fused_pairs()) {
            p.func_1 = renames.at(p.func_1);
            p.func_2 = renames.at(p.func_2);
        }
        to.schedule() = stage;
    };
    copyStage(src.definition(), dst.definition());
    for (size_t u = 0; u < dst.updates().size(); ++u)
        copyStage(src.update(int(u)), dst.update(int(u)));
}

/// An entry whose copy failed after the fresh pipeline was changed (a Halide refusal the checks
/// did not foresee): the pipeline cannot be handed to the plugin any more. An Error, so that
/// wrapHalideErrors passes it on as it is.
class AppliedHalfway : public Error {
public:
    using Error::Error;
};

/// A wrapper the plugin made (`f.in(g)`, register or shared-memory staging): the Func it
/// wraps, the consumers it serves ("" for every one) and the wrapper itself.
struct Wrapper {
    std::string wrapped;
    std::vector<std::string> consumers;
    Function function;
};

/// copySchedules' changes to the fresh pipeline: the wrappers made again, every schedule copied.
void applyCopies(const std::map<std::string, Function> &source,
                 std::map<std::string, Function> &target,
                 const std::map<std::string, Wrapper> &wrappers, Renames renames) {
    std::vector<std::pair<const Function *, Function>> made;
    for (const auto &[name, w] : wrappers) {
        Halide::Func wrapped(target.at(renames.at(w.wrapped)));
        Halide::Func wrapper;
        if (w.consumers.size() == 1 && w.consumers[0].empty()) {
            wrapper = wrapped.in();
        } else {
            std::vector<Halide::Func> consumers;
            for (const std::string &consumer : w.consumers)
                consumers.emplace_back(target.at(renames.at(consumer)));
            wrapper = consumers.size() == 1 ? wrapped.in(consumers[0]) : wrapped.in(consumers);
        }
        renames[name] = wrapper.name();
        made.emplace_back(&w.function, wrapper.function());
    }
    for (auto &[entry, wrapper] : made)
        copySchedule(*entry, wrapper, renames);
    for (const auto &[name, f] : source) {
        if (wrappers.count(name)) continue;
        copySchedule(f, target.at(renames.at(name)), renames);
    }
}

/// Copies every Func's and stage's schedule of `from` (the entry) onto the Funcs of `to` in the
/// same place of structuralOrder, making the wrappers the plugin made again with Func::in and
/// giving them the entry's wrappers' schedules. Throws Error, before changing anything, when the
/// pipelines' Funcs differ.
void copySchedules(const Halide::Pipeline &from, const Halide::Pipeline &to) {
    std::map<std::string, Function> source = functionsOf(from), target = functionsOf(to);
    std::map<std::string, Wrapper> wrappers; // by the entry's wrapper name
    for (const auto &[name, f] : source) {
        for (const auto &[consumer, ptr] : f.schedule().wrappers()) {
            const Function wrapper(ptr);
            Wrapper &w = wrappers[wrapper.name()];
            w.wrapped = name;
            w.function = wrapper;
            w.consumers.push_back(consumer);
        }
    }
    const std::vector<Function> entryOrder = structuralOrder(from);
    const std::vector<Function> freshOrder = structuralOrder(to);
    std::set<std::string> reached;
    for (const Function &f : entryOrder)
        reached.insert(f.name());
    for (const auto &[name, f] : source) {
        if (!reached.count(name) && !wrappers.count(name))
            throw Error("the entry's Func '" + name + "' is neither called nor a wrapper");
    }
    if (entryOrder.size() != freshOrder.size()) {
        throw Error("the entry's pipeline has " + std::to_string(entryOrder.size()) +
                    " Funcs, this one " + std::to_string(freshOrder.size()));
    }
    Renames renames;
    for (size_t i = 0; i < entryOrder.size(); ++i) {
        const Function &f = entryOrder[i], &dst = freshOrder[i];
        renames[f.name()] = dst.name();
        if (f.updates().size() != dst.updates().size() ||
            f.has_extern_definition() != dst.has_extern_definition() || f.args() != dst.args())
            throw Error("Func '" + f.name() + "' is defined otherwise in the entry");
    }
    if (freshOrder.size() != target.size()) throw Error("this pipeline has Funcs no output calls");
    for (const auto &[name, w] : wrappers) {
        if (!renames.count(w.wrapped) || w.function.has_update_definition() ||
            !w.function.schedule().wrappers().empty())
            throw Error("the entry's wrapper '" + name + "' cannot be made again");
        for (const std::string &consumer : w.consumers) {
            if (!consumer.empty() && !renames.count(consumer))
                throw Error("the entry wraps '" + w.wrapped + "' for a Func '" + consumer + "'");
        }
    }
    for (const auto &[name, f] : source) {
        for (const std::string &func : levelFuncs(f)) {
            if (!renames.count(func) && !wrappers.count(func))
                throw Error("Func '" + name + "' is scheduled at a Func '" + func +
                            "' the entry does not have");
        }
    }
    // The fresh pipeline is changed only now; the checks above leave nothing expected to fail.
    try {
        wrapHalideErrors("copying the entry",
                         [&] { applyCopies(source, target, wrappers, renames); });
    } catch (const Error &e) {
        throw AppliedHalfway(e.what());
    }
}

std::vector<uint8_t> readBytes(const std::filesystem::path &path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error("cannot read '" + path.string() + "'");
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in),
                                std::istreambuf_iterator<char>());
}

/// The entry `key` applied to `instance`, or nothing when there is no complete entry. Throws
/// Error when an entry is there but cannot be used.
std::optional<AutoschedulerRun> loadEntry(const std::filesystem::path &dir, const std::string &key,
                                          const PipelineInstance &instance) {
    const std::filesystem::path meta = dir / (key + ".json"), pipe = dir / (key + ".hlpipe");
    std::error_code ec;
    if (!std::filesystem::exists(meta, ec)) return std::nullopt;
    AutoschedulerRun run;
    std::string pipelineHash;
    try {
        std::ifstream in(meta);
        const nlohmann::json j = nlohmann::json::parse(in);
        run.milliseconds = j.at("milliseconds").get<double>();
        run.scheduleSource = j.at("schedule_source").get<std::string>();
        pipelineHash = j.at("pipeline_fnv1a64").get<std::string>();
    } catch (const nlohmann::json::exception &e) {
        throw Error("'" + meta.string() + "': " + detail::firstLine(e.what()));
    }
    const std::vector<uint8_t> bytes = readBytes(pipe);
    // Halide's deserializer trusts its input (garbage crashes it): only the bytes stored are read.
    if (bytesHash(bytes) != pipelineHash)
        throw Error("'" + pipe.string() + "' is not the file the entry stored");
    const Halide::Pipeline cached = wrapHalideErrors("'" + pipe.string() + "'", [&] {
        return Halide::deserialize_pipeline(bytes, Halide::deserialize_parameters(bytes));
    });
    if (!cached.defined()) throw Error("'" + pipe.string() + "' holds no pipeline");
    copySchedules(cached, instance.pipeline);
    return run;
}

void storeEntry(const std::filesystem::path &dir, const std::string &key,
                const PipelineInstance &scheduled, const Halide::AutoschedulerParams &params,
                const Halide::Target &target, const AutoschedulerRun &run) {
    std::filesystem::create_directories(dir);
    std::vector<uint8_t> bytes;
    Halide::serialize_pipeline(scheduled.pipeline, bytes);
    // A per-process temporary: two workers may store the same entry at once; the last rename
    // wins and both wrote the same schedule.
    const std::string temporary = ".tmp." + std::to_string(::getpid());
    AtomicFile pipe((dir / (key + ".hlpipe")).string(), "baseline cache entry", temporary);
    pipe.stream().write(reinterpret_cast<const char *>(bytes.data()),
                        std::streamsize(bytes.size()));
    pipe.commit();
    nlohmann::json meta = {{"plugin", params.name},
                           {"parameters", params.extra},
                           {"target", target.to_string()},
                           {"halide", halideVersion()},
                           {"pipeline", scheduled.name},
                           {"pipeline_fnv1a64", bytesHash(bytes)},
                           {"milliseconds", run.milliseconds},
                           {"schedule_source", run.scheduleSource}};
    // Written last: an entry without it is incomplete.
    AtomicFile json((dir / (key + ".json")).string(), "baseline cache entry", temporary);
    json.stream() << meta.dump(1) << "\n";
    json.commit();
}

/// The target as the key sees it. Anderson2021 gives every stage of a GPU target a vector size
/// of 1 (its FunctionDAG reads the host's SIMD width only for CPU targets), so its GPU schedules
/// do not depend on the host CPU's instruction sets or processor tuning: without them in the key, a
/// cache filled on one machine serves another (the GPU machine, docs/gpu-check.md). Other plugins
/// keep the whole target.
Halide::Target keyTarget(const Halide::AutoschedulerParams &params, const Halide::Target &target) {
    if (params.name != "Anderson2021" || !target.has_gpu_feature()) return target;
    using F = Halide::Target::Feature;
    static const F hostInstructionSets[] = {
        // x86
        F::SSE41, F::AVX, F::AVX2, F::AVXVNNI, F::FMA, F::FMA4, F::F16C, F::AVX512, F::AVX512_KNL,
        F::AVX512_Skylake, F::AVX512_Cannonlake, F::AVX512_SapphireRapids, F::AVX512_Zen4,
        F::AVX512_Zen5, F::AVX10_1, F::X86APX,
        // ARM, POWER, RISC-V
        F::ARMv7s, F::NoNEON, F::SVE, F::SVE2, F::ARMDotProd, F::ARMFp16, F::ARMv8a, F::ARMv81a,
        F::ARMv82a, F::ARMv83a, F::ARMv84a, F::ARMv85a, F::ARMv86a, F::ARMv87a, F::ARMv88a,
        F::ARMv89a, F::VSX, F::POWER_ARCH_2_07, F::RVV};
    Halide::Target out = target;
    for (F feature : hostInstructionSets)
        out = out.without_feature(feature);
    out.vector_bits = 0;
    out.processor_tune = Halide::Target::ProcessorGeneric;
    return out;
}

/// The key of a pipeline whose pipelineText is `text`.
std::string keyOf(const std::string &text, const Halide::AutoschedulerParams &params,
                  const Halide::Target &target) {
    std::ostringstream key;
    key << "beamscope baseline cache 1\nhalide " << halideVersion() << "\ntarget "
        << keyTarget(params, target).to_string() << "\nplugin " << params.name << "\n";
    for (const auto &[name, value] : params.extra)
        key << name << "=" << value << "\n";
    key << text;
    return fnv1a64Hex(key.str());
}

void unusable(const Halide::AutoschedulerParams &params, const char *why) {
    std::fprintf(stderr, "warning: the baseline schedule cache is unusable here, running %s: %s\n",
                 params.name.c_str(), detail::firstLine(why).c_str());
}

} // namespace

std::filesystem::path baselineCacheDir() {
    if (const char *dir = std::getenv("BEAMSCOPE_BASELINE_CACHE"); dir && *dir) {
        if (std::string(dir) == "off") return {};
        return dir;
    }
    // The XDG base directory spec ignores a relative XDG_CACHE_HOME.
    if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg == '/')
        return std::filesystem::path(xdg) / "beamscope" / "baselines";
    if (const char *home = std::getenv("HOME"); home && *home)
        return std::filesystem::path(home) / ".cache" / "beamscope" / "baselines";
    return {};
}

std::string baselineCacheKey(const PipelineInstance &instance,
                             const Halide::AutoschedulerParams &params,
                             const Halide::Target &target) {
    return keyOf(pipelineText(instance), params, target);
}

CachedAutoschedulerRun applyAutoschedulerCached(const PipelineInstance &instance,
                                                const Halide::AutoschedulerParams &params,
                                                const Halide::Target &target) {
    CachedAutoschedulerRun out;
    const std::filesystem::path dir = baselineCacheDir();
    std::string key, before;
    if (!dir.empty()) {
        try {
            const std::optional<AutoschedulerRun> run =
                wrapHalideErrors("the baseline schedule cache", [&] {
                    before = pipelineText(instance);
                    key = keyOf(before, params, target);
                    return loadEntry(dir, key, instance);
                });
            if (run) {
                out.run = *run;
                out.fromCache = true;
                return out;
            }
        } catch (const AppliedHalfway &e) {
            throw Error(std::string("the baseline schedule cache's entry ") + key +
                        " was applied in part and failed (remove it from " + dir.string() +
                        "): " + detail::firstLine(e.what()));
        } catch (const std::exception &e) {
            unusable(params, e.what());
        }
    }
    out.run = runAutoscheduler(instance, params, target);
    if (!out.run.error.empty() || key.empty()) return out;
    try {
        wrapHalideErrors("storing", [&] {
            // Li2018 and Mullapudi2016 inline by rewriting their consumers' definitions: such a
            // schedule is not a schedule of the pipeline as built, and is not kept.
            if (pipelineText(instance) == before)
                storeEntry(dir, key, instance, params, target, out.run);
        });
    } catch (const std::exception &e) {
        std::fprintf(stderr, "warning: %s's schedule was not stored in the cache %s: %s\n",
                     params.name.c_str(), dir.string().c_str(),
                     detail::firstLine(e.what()).c_str());
    }
    return out;
}

} // namespace beamscope
