// ScheduleCallPrinter: prints one Func's ScheduleCalls as chained statements, for the C++
// export (ScheduleSource) and the Python one (SchedulePythonSource). The two languages differ
// only in spelling, which a SourceDialect holds, so the exports cannot drift apart.
#pragma once

#include "codegen/ScheduleCalls.h"

#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace beamscope {

/// The spellings of one language's scheduling calls.
struct SourceDialect {
    const char *outermost;      ///< "Var::outermost()"
    const char *memoryType;     ///< prefix of a MemoryType value: "MemoryType::"
    const char *tailStrategy;   ///< prefix of a TailStrategy value: "TailStrategy::"
    const char *stageIn;        ///< Func::in's name: "in" ("in_" in Python, where in is a word)
    const char *statementOpen;  ///< before the Func that starts a statement
    const char *statementClose; ///< after the statement's last call, before its newline
    static const SourceDialect &cpp();
    static const SourceDialect &python();
};

/// Prints the calls of one Func, given identifiers for Funcs and for its loops.
class ScheduleCallPrinter {
public:
    ScheduleCallPrinter(const SourceDialect &dialect, const std::vector<std::string> &funcIds,
                        const std::map<std::string, std::string> &varIds)
        : m_dialect(dialect), m_funcIds(funcIds), m_varIds(varIds) {}

    /// One call without its Func: "split(x, xo, xi, 8, TailStrategy::GuardWithIf)".
    std::string call(const ScheduleCall &c) const;

    /// One statement per stage of Func `f` (its identifier), each line starting with `pad`:
    /// Func-level calls chain with the pure stage's calls; a StageIn starts the statement of
    /// its wrapper ("f.in(g)"), which the calls after it schedule.
    void printStatements(std::ostream &os, const std::string &pad, const std::string &f,
                         const FuncCalls &fc) const;

private:
    std::string var(const CallVar &v) const;
    std::string vars(const std::vector<CallVar> &vs) const;

    const SourceDialect &m_dialect;
    const std::vector<std::string> &m_funcIds;
    const std::map<std::string, std::string> &m_varIds;
};

} // namespace beamscope
