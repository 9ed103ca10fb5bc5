// SchedulePythonSource: prints the ScheduleCalls of a complete schedule as Python.
// Contents: Python's reserved words; the Func lookup preamble (the Python
// twin of ScheduleSource's); schedulePythonSource.
#include "codegen/SchedulePythonSource.h"

#include "codegen/ScheduleCallPrinter.h"
#include "codegen/ScheduleSource.h"
#include "codegen/SourceIdentifiers.h"
#include "util/Error.h"

#include <cstdio>
#include <map>
#include <set>
#include <sstream>

namespace beamscope {

namespace {

/// Python keywords, builtins the generated code calls, and the names it uses itself.
const std::set<std::string> &pythonReservedWords() {
    static const std::set<std::string> words = {
        "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class",
        "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global",
        "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return",
        "try", "while", "with", "yield", "match", "case", "type", "print", "len", "range", "str",
        "int", "RuntimeError",
        // names used by the generated code
        "hl", "pipeline", "funcs_by_name", "generated", "name_uses", "index", "func", "name",
        "prefix", "uses", "find_func", "found"};
    return words;
}

/// The preamble that finds Funcs by the names Beamscope's FunctionDAG gives them, as the C++
/// export's does (ScheduleSource.cpp's printLookup; keep the two in step): the name without
/// Halide's "$n" suffix, Funcs Halide named itself ("lambda_12", "f3") numbered by prefix in
/// realization order, a repeated name given "#2", "#3", ...
void printPythonLookup(std::ostream &os, const std::string &functionName) {
    std::string text =
        R"(    # Funcs by the names Beamscope gives them: the name without Halide's "$n" suffix;
    # Funcs that Halide named ("lambda_12", "f3") numbered in realization order; a repeated
    # name (two BoundaryConditions.repeat_edge) gets "#2", "#3", ... in realization order.
    funcs_by_name = {}
    generated = {}
    name_uses = {}
    index = 0
    while True:
        try:
            func = pipeline.get_func(index)  # realization order; past the last one: an error
        except hl.HalideError:
            break
        index += 1
        name = func.name().split("$")[0]
        for prefix in ("lambda_", "f"):
            if len(name) > len(prefix) and name.startswith(prefix) and name[len(prefix):].isdigit():
                name = prefix + str(generated.get(prefix, 0))
                generated[prefix] = generated.get(prefix, 0) + 1
                break
        uses = name_uses[name] = name_uses.get(name, 0) + 1
        if uses > 1:
            name += "#" + str(uses)
        funcs_by_name.setdefault(name, []).append(func)

    def find_func(name):
        found = funcs_by_name.get(name, [])
        if len(found) != 1:
            raise RuntimeError("@FUNCTION@: the pipeline has no single Func named '" + name + "'")
        return found[0]

)";
    text.replace(text.find("@FUNCTION@"), 10, functionName);
    os << text;
}

} // namespace

std::string schedulePythonSource(const ScheduleState &state, const StateCost *cost,
                                 const std::string &functionName,
                                 const ScheduleCallOptions &options) {
    if (!isIdentifier(functionName) || pythonReservedWords().count(functionName)) {
        throw UsageError("'" + functionName + "' cannot name a Python function");
    }
    const FunctionDAG &dag = state.dag();
    const std::vector<FuncCalls> plan = scheduleCalls(state, options);

    Identifiers funcIdentifiers(pythonReservedWords(), {functionName});
    std::vector<std::string> funcIds(dag.nodes().size());
    for (const FuncCalls &fc : plan)
        funcIds[size_t(fc.node)] = funcIdentifiers.make(dag.node(fc.node).name);

    std::ostringstream os;
    os << "# Halide GPU schedule of pipeline '" << dag.pipelineName()
       << "', exported by Beamscope.\n";
    if (cost) {
        char text[64];
        std::snprintf(text, sizeof text, "%.4g", cost->total);
        os << "# Predicted cost: " << text << " ms.\n";
    }
    os << "# Build the pipeline (generator._build_pipeline(), or in the generator's schedule()),\n"
       << "# call " << functionName << "(pipeline), then compile it for a GPU target\n"
       << "# (host-cuda or host-opencl).\nimport halide as hl\n\n\n"
       << "def " << functionName << "(pipeline):\n"
       << "    \"\"\"Schedules every Func of `pipeline` (a hl.Pipeline) as Beamscope "
          "chose.\"\"\"\n";
    printPythonLookup(os, functionName);
    for (const FuncCalls &fc : plan) {
        os << "    " << funcIds[size_t(fc.node)] << " = find_func("
           << quoted(dag.node(fc.node).name) << ")\n";
    }

    for (const FuncCalls &fc : plan) {
        const Node &n = dag.node(fc.node);
        os << "\n    # " << n.name << ": " << fc.decision << (cost ? costShare(*cost, fc.node) : "")
           << "\n";
        // Loop names, bound again for each Func (Python has no block scope); never a Func's.
        Identifiers loopIdentifiers(pythonReservedWords(), funcIdentifiers.taken());
        std::map<std::string, std::string> varIds;
        for (const ScheduleCall &c : fc.calls) {
            for (const CallVar &v : c.vars) {
                if (v.name == kOutermostVar || varIds.count(v.name)) continue;
                varIds[v.name] = loopIdentifiers.make(v.name);
                os << "    " << varIds[v.name] << " = hl." << (v.rvar ? "RVar" : "Var") << "("
                   << quoted(v.name) << ")\n";
            }
        }
        ScheduleCallPrinter(SourceDialect::python(), funcIds, varIds)
            .printStatements(os, "    ", funcIds[size_t(fc.node)], fc);
    }
    return os.str();
}

} // namespace beamscope
