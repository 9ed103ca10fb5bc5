// Pin files, validation and matching.
#include "search/Pins.h"

#include "search/PerLoop.h"
#include "util/Error.h"

#include <fstream>
#include <set>

namespace beamscope {

namespace {

/// `text` as JSON writes it, quotes included: a name with a newline or invalid UTF-8 in a pin
/// file still makes a one-line error.
std::string jsonQuoted(const std::string &text) {
    return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::optional<ComputeKind> kindFromName(const std::string &s) {
    if (s == "root") return ComputeKind::Root;
    if (s == "inline") return ComputeKind::Inline;
    if (s == "block") return ComputeKind::Block;
    if (s == "thread") return ComputeKind::Thread;
    return std::nullopt;
}

std::vector<int64_t> sizesFrom(const nlohmann::json &j, const std::string &what) {
    std::vector<int64_t> out;
    if (!j.is_array())
        throw Error("pin field '" + what + "' must be an array of positive integers");
    for (const auto &v : j) {
        if (!v.is_number_integer() || v.get<int64_t>() < 1) {
            throw Error("pin field '" + what + "' must be an array of positive integers");
        }
        out.push_back(v.get<int64_t>());
    }
    return out;
}

/// Non-inlined Funcs that consume `node`, looking through every consumer (inlining unknown).
bool consumesTransitively(const FunctionDAG &dag, int consumer, int node) {
    std::vector<int> work{node};
    std::set<int> seen;
    while (!work.empty()) {
        const int f = work.back();
        work.pop_back();
        if (!seen.insert(f).second) continue;
        for (int e : dag.node(f).outgoing) {
            if (dag.edge(e).consumer == consumer) return true;
            work.push_back(dag.edge(e).consumer);
        }
    }
    return false;
}

} // namespace

std::vector<Pin> pinsFromJson(const nlohmann::json &j) {
    if (!j.is_object() || !j.contains("pins") || !j["pins"].is_array()) {
        throw Error("a pin file is a JSON object with a \"pins\" array");
    }
    std::vector<Pin> pins;
    for (const auto &entry : j["pins"]) {
        if (!entry.is_object() || !entry.contains("func") || !entry["func"].is_string()) {
            throw Error("every pin needs a \"func\" name");
        }
        Pin pin;
        pin.func = entry["func"].get<std::string>();
        for (const auto &[key, value] : entry.items()) {
            if (key == "func") continue;
            if (key == "location") {
                if (!value.is_string() || !kindFromName(value.get<std::string>())) {
                    throw Error("pin on " + jsonQuoted(pin.func) +
                                ": location must be root, inline, block or thread");
                }
                pin.location = kindFromName(value.get<std::string>());
            } else if (key == "host") {
                if (!value.is_string())
                    throw Error("pin on " + jsonQuoted(pin.func) + ": host must be a Func name");
                pin.host = value.get<std::string>();
            } else if (key == "threads") {
                pin.threads = sizesFrom(value, "threads");
            } else if (key == "serial") {
                pin.serial = sizesFrom(value, "serial");
            } else if (key == "frozen") {
                if (!value.is_boolean())
                    throw Error("pin on " + jsonQuoted(pin.func) +
                                ": frozen must be true or false");
                pin.frozen = value.get<bool>();
            } else {
                throw Error("pin on " + jsonQuoted(pin.func) + ": unknown field " +
                            jsonQuoted(key));
            }
        }
        pins.push_back(std::move(pin));
    }
    return pins;
}

nlohmann::json pinsToJson(const std::vector<Pin> &pins) {
    nlohmann::json list = nlohmann::json::array();
    for (const Pin &p : pins) {
        nlohmann::json j = {{"func", p.func}};
        if (p.location) j["location"] = computeKindName(*p.location);
        if (!p.host.empty()) j["host"] = p.host;
        if (!p.threads.empty()) j["threads"] = p.threads;
        if (!p.serial.empty()) j["serial"] = p.serial;
        if (p.frozen) j["frozen"] = true;
        list.push_back(j);
    }
    return {{"pins", list}};
}

std::vector<Pin> loadPinFile(const std::string &path) {
    std::ifstream in(path);
    if (!in) throw Error("cannot read pin file '" + path + "'");
    nlohmann::json j;
    try {
        in >> j;
    } catch (const nlohmann::json::exception &e) {
        throw Error("pin file '" + path + "' is not valid JSON");
    }
    try {
        return pinsFromJson(j);
    } catch (const Error &e) {
        throw Error("pin file '" + path + "': " + e.what());
    }
}

std::vector<ResolvedPin> resolvePins(const std::vector<Pin> &pins, const FunctionDAG &dag,
                                     const GpuSpec &gpu) {
    std::vector<ResolvedPin> out;
    std::set<int> pinned;
    for (const Pin &pin : pins) {
        const std::string what = "pin on " + jsonQuoted(pin.func) + ": ";
        ResolvedPin r;
        r.node = dag.find(pin.func);
        if (r.node < 0) throw Error(what + "no Func of that name in '" + dag.pipelineName() + "'");
        const Node &n = dag.node(r.node);
        if (n.isInput) throw Error(what + "an input buffer cannot be scheduled");
        if (!pinned.insert(r.node).second) throw Error(what + "the Func is pinned twice");
        r.location = pin.location;
        r.threads = pin.threads;
        r.serial = pin.serial;
        r.frozen = pin.frozen;
        if (n.isOutput && r.location && *r.location != ComputeKind::Root) {
            throw Error(what + "an output is always computed at root");
        }
        if (r.location == ComputeKind::Inline && n.stages.size() > 1) {
            throw Error(what + "a Func with update definitions cannot be inlined");
        }
        const bool fused = r.location == ComputeKind::Block || r.location == ComputeKind::Thread;
        if (fused) {
            const bool blockScatter =
                !n.scatteredDims.empty() && r.location == ComputeKind::Block;
            if (n.stages.size() > 1 && !n.pointwiseUpdates && !blockScatter) {
                throw Error(what + (n.scatteredDims.empty()
                                        ? "a Func whose updates write other points than their "
                                          "own can only be computed at root"
                                        : "a Func whose updates scatter into a data-dependent "
                                          "coordinate is computed at root or at a consumer's "
                                          "block level"));
            }
            if (pin.host.empty()) throw Error(what + "block and thread locations need a host Func");
            r.host = dag.find(pin.host);
            if (r.host < 0) throw Error(what + "no host Func '" + pin.host + "'");
            if (!consumesTransitively(dag, r.host, r.node)) {
                throw Error(what + "'" + pin.host + "' does not consume it");
            }
        } else if (!pin.host.empty()) {
            throw Error(what + "a host only makes sense with a block or thread location");
        }
        if (!pin.threads.empty() && r.location != ComputeKind::Root) {
            throw Error(what + "thread sizes need location root");
        }
        if (!pin.serial.empty() && r.location != ComputeKind::Root &&
            r.location != ComputeKind::Block) {
            throw Error(what + "serial sizes need location root or block");
        }
        for (const auto *sizes : {&pin.threads, &pin.serial}) {
            if (!sizes->empty() && int(sizes->size()) != n.dimensions) {
                throw Error(what + "tile sizes need one entry per dimension (" +
                            std::to_string(n.dimensions) + ")");
            }
        }
        int64_t threads = 1;
        for (int64_t t : pin.threads)
            threads *= t;
        if (threads > gpu.maxThreadsPerBlock) {
            throw Error(what + std::to_string(threads) + " threads exceed the GPU's " +
                        std::to_string(gpu.maxThreadsPerBlock) + " per block");
        }
        if (r.frozen) {
            if (!r.location) throw Error(what + "a frozen pin needs a location");
            if (r.location == ComputeKind::Root && (pin.threads.empty() || pin.serial.empty())) {
                throw Error(what + "a frozen root pin needs thread and serial sizes");
            }
            if (r.location == ComputeKind::Block && pin.serial.empty()) {
                throw Error(what + "a frozen block pin needs serial sizes");
            }
        }
        out.push_back(std::move(r));
    }
    // Contradictions between pins: a host pinned inline, or pinned where it cannot host.
    for (const ResolvedPin &r : out) {
        if (r.host < 0) continue;
        for (const ResolvedPin &h : out) {
            if (h.node != r.host || !h.location) continue;
            const bool ok =
                *h.location == ComputeKind::Root ||
                (*h.location == ComputeKind::Block && r.location == ComputeKind::Thread);
            if (!ok) {
                throw Error("pin on '" + dag.node(r.node).name + "': its host '" +
                            dag.node(h.node).name + "' is pinned " + computeKindName(*h.location) +
                            " and cannot host it");
            }
        }
    }
    return out;
}

namespace {

/// The pin's per-dimension sizes as the per-loop sizes of `stage`.
} // namespace

bool pinSatisfied(const ResolvedPin &pin, const FunctionDAG &dag, const FuncPlacement &p) {
    if (pin.location && p.kind != *pin.location) return false;
    if (pin.host >= 0 && p.host != pin.host) return false;
    const Node &n = dag.node(pin.node);
    if (p.kind == ComputeKind::Root && p.tiled) {
        for (size_t s = 0; s < n.stages.size(); ++s) {
            const StageTiling &t = p.tilings[s];
            if (!pin.threads.empty()) {
                const StageTiling want = ScheduleState::makeTiling(
                    n.stages[s], perLoop(n.stages[s], pin.threads),
                    pin.serial.empty() ? t.serial : perLoop(n.stages[s], pin.serial));
                if (want.threads != t.threads) return false;
            }
            if (!pin.serial.empty()) {
                const StageTiling want = ScheduleState::makeTiling(
                    n.stages[s], t.threads, perLoop(n.stages[s], pin.serial));
                if (want.serial != t.serial) return false;
            }
        }
    }
    if (p.kind == ComputeKind::Block && !pin.serial.empty()) {
        const std::vector<int64_t> want = perLoop(n.stages[0], pin.serial);
        for (size_t l = 0; l < want.size(); ++l) {
            if (std::min(want[l], p.region[size_t(n.stages[0].loops[l].funcDim)].extent()) !=
                p.tilings[0].serial[l])
                return false;
        }
    }
    return true;
}

std::optional<Derivation> applyFrozenPin(const ResolvedPin &pin, const ScheduleState &state) {
    const Node &n = state.dag().node(pin.node);
    switch (*pin.location) {
    case ComputeKind::Inline:
        if (!state.canInline(pin.node)) return std::nullopt;
        return state.derive(pin.node, state.inlinePlacement(pin.node));
    case ComputeKind::Root: {
        std::vector<StageTiling> tilings;
        for (const Stage &s : n.stages) {
            tilings.push_back(
                ScheduleState::makeTiling(s, perLoop(s, pin.threads), perLoop(s, pin.serial)));
        }
        return state.derive(pin.node, state.rootTilingPlacement(pin.node, tilings));
    }
    case ComputeKind::Block:
        if (!state.canFuse(pin.node, pin.host, LoopLevel::Block)) return std::nullopt;
        return state.derive(
            pin.node, state.blockPlacement(pin.node, pin.host, perLoop(n.stages[0], pin.serial)));
    case ComputeKind::Thread:
        if (!state.canFuse(pin.node, pin.host, LoopLevel::Thread)) return std::nullopt;
        return state.derive(pin.node, state.threadPlacement(pin.node, pin.host));
    case ComputeKind::Unscheduled:
        break;
    }
    return std::nullopt;
}

} // namespace beamscope
