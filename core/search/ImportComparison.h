// ImportComparison: Beamscope's search against an imported schedule (ScheduleImport): per Func
// both decisions, whether the imported one is representable (the constructs when not), the
// predicted cost of both schedules under the search's cost model with its terms per stage, and
// what Beamscope's search did with each imported decision (Why not?, followed in the same
// search). `beamscope-cli compare --with` prints it.
#pragma once

#include "codegen/ScheduleImport.h"
#include "search/WhyNot.h"

#include <nlohmann/json.hpp>

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace beamscope {

struct FuncComparison {
    int node = -1;
    std::string name;
    std::string ours;   ///< the search's decision in words
    std::string theirs; ///< the imported one (ImportedFunc::theirs)
    bool representable = false;
    std::vector<std::string> constructs;  ///< why not representable
    std::vector<std::string> differences; ///< representable, lowered differently
    std::optional<WhyResult> why;         ///< the imported decision's fate in the search
    std::string whyError; ///< why there is no answer (not representable, not a decision, ...)
};

struct ImportComparison {
    std::string what; ///< where "theirs" came from
    std::vector<FuncComparison> funcs; ///< outputs first
    StatePtr ours;
    StatePtr theirs; ///< over the search's DAG; nullptr when not representable
    std::string model;
    std::vector<std::string> termNames;
    StateCost oursCost;
    std::optional<StateCost> theirsCost;
    double searchMs = 0;
};

/// Runs the search of `options` over `dag` once, following every representable imported
/// decision with Why not?, and costs both schedules with options.costModel. `imported` may come
/// from another instance of the same pipeline (matched by Func name).
ImportComparison compareWithImport(const std::shared_ptr<const FunctionDAG> &dag,
                                   const SearchOptions &options, const ScheduleImport &imported,
                                   const std::string &what, const CancelToken *cancel = nullptr);

/// {"with", "funcs": [{"name", "ours", "theirs", "representable", "reason", "constructs",
/// "differences", "why_not"}], "cost": {"model", "ours", "theirs", "terms": {"ours", "theirs"},
/// "stages": [{"stage", "ours", "theirs"}]}, "representable"}
nlohmann::json comparisonToJson(const ImportComparison &c);
/// The same as readable lines.
void printComparison(const ImportComparison &c, std::ostream &os);

} // namespace beamscope
