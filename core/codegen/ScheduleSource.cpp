// ScheduleSource: prints the ScheduleCalls of a complete schedule as a C++ header.
// Contents: C++ reserved words; declarations; the Func lookup preamble;
// defaultScheduleFunctionName; scheduleSource.
#include "codegen/ScheduleSource.h"

#include "codegen/ScheduleCallPrinter.h"
#include "codegen/SourceIdentifiers.h"
#include "util/Error.h"

#include <cctype>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

namespace beamscope {

namespace {

/// Words an identifier in the generated function must not take: C++ keywords and the names
/// the generated code itself uses.
const std::set<std::string> &reservedWords() {
    static const std::set<std::string> words = {
        "alignas", "alignof", "and", "asm", "auto", "bool", "break", "case", "catch", "char",
        "class", "const", "constexpr", "continue", "decltype", "default", "delete", "do", "double",
        "else", "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto",
        "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "nullptr",
        "operator", "or", "private", "protected", "public", "register", "return", "short", "signed",
        "sizeof", "static", "struct", "switch", "template", "this", "throw", "true", "try",
        "typedef", "typename", "union", "unsigned", "using", "virtual", "void", "volatile", "while",
        "xor",
        // names used by the generated code
        "Halide", "Internal", "Func", "Var", "RVar", "LoopLevel", "MemoryType", "TailStrategy",
        "std", "pipeline", "outputs", "env", "funcs_by_name", "generated", "halide_name", "prefix",
        "find_func", "name", "found"};
    return words;
}

/// "Var a("a"), b("b"), ...;" wrapped at 100 columns.
void printDeclaration(std::ostream &os, const std::string &pad, const std::string &type,
                      const std::vector<std::string> &items) {
    std::string line = pad + type;
    for (size_t i = 0; i < items.size(); ++i) {
        const std::string item = items[i] + (i + 1 < items.size() ? "," : ";");
        if (i > 0 && line.size() + 1 + item.size() > 100) {
            os << line << "\n";
            line = pad + "    " + item;
        } else {
            line += (i > 0 ? " " : "") + item;
        }
    }
    os << line << "\n";
}

/// The preamble that finds Funcs by the names Beamscope's FunctionDAG gives them: the user's
/// name without Halide's "$n" suffix (added to a name reused in a process), and for Funcs that
/// Halide named itself ("lambda_12", "f3") the prefix numbered in realization order; a repeated
/// name gets "#2", "#3", ... in realization order. Keep in step with
/// FunctionDAGBuilder::displayName.
void printLookup(std::ostream &os, const std::string &functionName) {
    std::string text =
        R"(    // Funcs by the names Beamscope gives them: the name without Halide's "$n" suffix;
    // Funcs that Halide named ("lambda_12", "f3") numbered in realization order; a repeated
    // name (two BoundaryConditions::repeat_edge) gets "#2", "#3", ... in realization order.
    std::vector<Internal::Function> outputs;
    for (const Func &f : pipeline.outputs()) outputs.push_back(f.function());
    std::map<std::string, Internal::Function> env = Internal::build_environment(outputs);
    std::map<std::string, std::vector<Func>> funcs_by_name;
    std::map<std::string, int> generated, name_uses;
    for (const std::string &halide_name : Internal::realization_order(outputs, env).first) {
        std::string name = halide_name.substr(0, halide_name.find('$'));
        for (const std::string prefix : {"lambda_", "f"}) {
            if (name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0 &&
                name.find_first_not_of("0123456789", prefix.size()) == std::string::npos) {
                name = prefix + std::to_string(generated[prefix]++);
                break;
            }
        }
        const int uses = ++name_uses[name];
        if (uses > 1) name += "#" + std::to_string(uses);
        funcs_by_name[name].push_back(Func(env.at(halide_name)));
    }
    auto find_func = [&](const std::string &name) {
        auto found = funcs_by_name.find(name);
        if (found == funcs_by_name.end() || found->second.size() != 1) {
            throw std::runtime_error("@FUNCTION@: the pipeline has no single Func named '" +
                                     name + "'");
        }
        return found->second.front();
    };
)";
    text.replace(text.find("@FUNCTION@"), 10, functionName);
    os << text;
}

} // namespace

std::string costShare(const StateCost &cost, int node) {
    double own = 0;
    bool found = false;
    for (const StageCost &s : cost.stages) {
        if (s.node != node) continue;
        own += s.total();
        found = true;
    }
    if (!found) return "";
    char text[64];
    std::snprintf(text, sizeof text, "; %.1f%% of the predicted cost",
                  cost.total > 0 ? 100.0 * own / cost.total : 0.0);
    return text;
}

std::string defaultScheduleFunctionName(const std::string &pipelineName) {
    std::string name = "apply_";
    for (char c : pipelineName)
        name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    return name + "_schedule";
}

std::string scheduleSource(const ScheduleState &state, const StateCost *cost,
                           const std::string &functionName, const ScheduleCallOptions &options) {
    if (!isIdentifier(functionName) || reservedWords().count(functionName)) {
        throw UsageError("'" + functionName + "' cannot name a C++ function");
    }
    const FunctionDAG &dag = state.dag();
    const std::vector<FuncCalls> plan = scheduleCalls(state, options);

    // Func identifiers live in the function's scope; loop identifiers must not shadow them.
    Identifiers funcIdentifiers(reservedWords(), {functionName});
    std::vector<std::string> funcIds(dag.nodes().size());
    for (const FuncCalls &fc : plan)
        funcIds[size_t(fc.node)] = funcIdentifiers.make(dag.node(fc.node).name);

    std::string guard = "BEAMSCOPE_SCHEDULE_";
    for (char c : functionName)
        guard += char(std::toupper(static_cast<unsigned char>(c)));
    guard += "_H";

    std::ostringstream os;
    os << "// Halide GPU schedule of pipeline '" << dag.pipelineName()
       << "', exported by Beamscope.\n";
    if (cost) {
        char text[64];
        std::snprintf(text, sizeof text, "%.4g", cost->total);
        os << "// Predicted cost: " << text << " ms.\n";
    }
    os << "// Build the pipeline, call " << functionName
       << "(pipeline), then compile it for a GPU target\n"
          "// (host-cuda or host-opencl).\n"
       << "#ifndef " << guard << "\n#define " << guard << "\n\n"
       << "#include \"Halide.h\"\n\n#include <map>\n#include <stdexcept>\n#include <string>\n"
          "#include <vector>\n\n"
       << "inline void " << functionName << "(Halide::Pipeline pipeline) {\n"
       << "    using namespace Halide;\n\n";
    printLookup(os, functionName);
    for (const FuncCalls &fc : plan) {
        os << "    Func " << funcIds[size_t(fc.node)] << " = find_func("
           << quoted(dag.node(fc.node).name) << ");\n";
    }

    for (const FuncCalls &fc : plan) {
        const Node &n = dag.node(fc.node);
        const std::string &f = funcIds[size_t(fc.node)];
        os << "\n    // " << n.name << ": " << fc.decision
           << (cost ? costShare(*cost, fc.node) : "") << "\n";

        // Loop identifiers, declared once per Func in a block of their own.
        Identifiers loopIdentifiers(reservedWords(), funcIdentifiers.taken());
        std::map<std::string, std::string> varIds;
        std::vector<std::pair<CallVar, std::string>> declared;
        for (const ScheduleCall &c : fc.calls) {
            for (const CallVar &v : c.vars) {
                if (v.name == kOutermostVar || varIds.count(v.name)) continue;
                varIds[v.name] = loopIdentifiers.make(v.name);
                declared.push_back({v, varIds[v.name]});
            }
        }
        const std::string pad = declared.empty() ? "    " : "        ";
        if (!declared.empty()) {
            os << "    {\n";
            for (const bool rvar : {false, true}) {
                std::vector<std::string> items;
                for (const auto &[v, id] : declared) {
                    if (v.rvar == rvar) items.push_back(id + "(" + quoted(v.name) + ")");
                }
                if (!items.empty()) printDeclaration(os, pad, rvar ? "RVar " : "Var ", items);
            }
        }

        ScheduleCallPrinter(SourceDialect::cpp(), funcIds, varIds).printStatements(os, pad, f, fc);
        if (!declared.empty()) os << "    }\n";
    }
    os << "}\n\n#endif // " << guard << "\n";
    return os.str();
}

} // namespace beamscope
