// ScheduleCallPrinter: the C++ and Python dialects; printing one call; one statement per stage.
#include "codegen/ScheduleCallPrinter.h"

namespace beamscope {

namespace {

/// Calls on the Func as a whole; the others schedule one of its stages.
bool isStageCall(CallKind k) {
    return k != CallKind::ComputeInline && k != CallKind::ComputeRoot && k != CallKind::ComputeAt &&
           k != CallKind::StoreIn && k != CallKind::StageIn && k != CallKind::BoundExtent;
}

} // namespace

const SourceDialect &SourceDialect::cpp() {
    static const SourceDialect d{
        "Var::outermost()", "MemoryType::", "TailStrategy::", "in", "", ";"};
    return d;
}

const SourceDialect &SourceDialect::python() {
    // Each statement in parentheses, so that its chain of calls may span lines.
    static const SourceDialect d{
        "hl.Var.outermost()", "hl.MemoryType.", "hl.TailStrategy.", "in_", "(", ")"};
    return d;
}

std::string ScheduleCallPrinter::var(const CallVar &v) const {
    return v.name == kOutermostVar ? m_dialect.outermost : m_varIds.at(v.name);
}

std::string ScheduleCallPrinter::vars(const std::vector<CallVar> &vs) const {
    std::string out;
    for (size_t i = 0; i < vs.size(); ++i)
        out += (i ? ", " : "") + var(vs[i]);
    return out;
}

std::string ScheduleCallPrinter::call(const ScheduleCall &c) const {
    switch (c.kind) {
    case CallKind::ComputeInline:
        return "compute_inline()";
    case CallKind::ComputeRoot:
        return "compute_root()";
    case CallKind::ComputeAt:
        return "compute_at(" + m_funcIds.at(size_t(c.host)) + ", " + var(c.vars.at(0)) + ")";
    case CallKind::StoreIn:
        return std::string("store_in(") + m_dialect.memoryType +
               (c.memory == MemoryType::Shared ? "GPUShared" : "Register") + ")";
    case CallKind::Split:
        return "split(" + vars(c.vars) + ", " + std::to_string(c.factor) + ", " +
               m_dialect.tailStrategy +
               (tailStrategy(c) == Halide::TailStrategy::ShiftInwards ? "ShiftInwards"
                                                                      : "GuardWithIf") +
               ")";
    case CallKind::Fuse:
        return "fuse(" + vars(c.vars) + ")";
    case CallKind::Reorder:
        return "reorder(" + vars(c.vars) + ")";
    case CallKind::GpuBlocks:
        return "gpu_blocks(" + vars(c.vars) + ")";
    case CallKind::GpuThreads:
        return "gpu_threads(" + vars(c.vars) + ")";
    case CallKind::Unroll:
        return "unroll(" + vars(c.vars) + ")";
    case CallKind::StageIn:
        return std::string(m_dialect.stageIn) + "(" + m_funcIds.at(size_t(c.host)) + ")";
    case CallKind::BoundExtent:
        return "bound_extent(" + var(c.vars.at(0)) + ", " + std::to_string(c.factor) + ")";
    }
    return "";
}

void ScheduleCallPrinter::printStatements(std::ostream &os, const std::string &pad,
                                          const std::string &f, const FuncCalls &fc) const {
    int current = -1; // the stage of the open statement
    bool open = false, wrapper = false;
    for (const ScheduleCall &c : fc.calls) {
        const int stage = isStageCall(c.kind) ? c.stage : 0;
        const bool wraps = c.kind == CallKind::StageIn;
        if (wraps || (!wrapper && stage != current)) {
            if (open) os << m_dialect.statementClose << "\n";
            os << pad << m_dialect.statementOpen << f;
            if (stage > 0) os << ".update(" << stage - 1 << ")";
            os << "." << call(c);
            current = stage;
            open = true;
            wrapper = wrapper || wraps;
        } else {
            os << "\n" << pad << "    ." << call(c);
        }
    }
    if (open) os << m_dialect.statementClose << "\n";
}

} // namespace beamscope
