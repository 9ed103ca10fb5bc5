// Pins: user constraints per Func — a forced compute location, forced tile sizes, or a frozen
// decision — loaded from JSON, checked for feasibility before a search starts, and honoured by
// enumeration.
#pragma once

#include "schedule/GpuSpec.h"
#include "schedule/ScheduleState.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace beamscope {

/// One pin, as the user wrote it (by Func name).
struct Pin {
    std::string func;
    std::optional<ComputeKind> location; ///< root, inline, block or thread
    std::string host;                    ///< consumer hosting a block/thread placement
    std::vector<int64_t> threads;        ///< per Func dimension (root tiling)
    std::vector<int64_t> serial;         ///< per Func dimension (root or block tiling)
    bool frozen = false;                 ///< apply exactly, never search this Func
};

/// A pin resolved against a DAG.
struct ResolvedPin {
    int node = -1;
    std::optional<ComputeKind> location;
    int host = -1;
    std::vector<int64_t> threads, serial;
    bool frozen = false;
};

/// {"pins": [{"func", "location", "host", "threads", "serial", "frozen"}]}
std::vector<Pin> pinsFromJson(const nlohmann::json &j);
nlohmann::json pinsToJson(const std::vector<Pin> &pins);
/// Reads a pin file; throws Error naming the file and the problem.
std::vector<Pin> loadPinFile(const std::string &path);

/// Checks every pin against the DAG and GPU and resolves names; throws Error with a message
/// naming the pin for an impossible or contradictory one.
std::vector<ResolvedPin> resolvePins(const std::vector<Pin> &pins, const FunctionDAG &dag,
                                     const GpuSpec &gpu);

/// Does `placement` of the pinned Func satisfy `pin`?
bool pinSatisfied(const ResolvedPin &pin, const FunctionDAG &dag, const FuncPlacement &placement);

/// The decision a frozen (or exact) pin stands for on top of `state`, or nullopt when the state
/// cannot take it (e.g. its host is not placed as required).
std::optional<Derivation> applyFrozenPin(const ResolvedPin &pin, const ScheduleState &state);

} // namespace beamscope
