// LoopNest printing and small queries.
#include "schedule/LoopNest.h"
#include "schedule/UnrollNote.h"

#include "dag/FunctionDAG.h"

namespace beamscope {

const char *loopLevelName(LoopLevel level) {
    switch (level) {
    case LoopLevel::Root: return "root";
    case LoopLevel::Block: return "block";
    case LoopLevel::Thread: return "thread";
    case LoopLevel::Serial: return "serial";
    }
    return "?";
}

const char *memoryTypeName(MemoryType type) {
    switch (type) {
    case MemoryType::Global: return "global";
    case MemoryType::Shared: return "shared";
    case MemoryType::Register: return "register";
    case MemoryType::None: return "none";
    }
    return "?";
}

Unrolled unrolledLoops(const LoopNest &serial, const Stage &stage) {
    if (!serial.unrolled) return Unrolled::Nothing;
    bool reductionLoop = false, pureLoop = false;
    for (size_t l = 0; l < serial.extents.size() && l < stage.loops.size(); ++l) {
        if (serial.extents[l] <= 1) continue;
        (stage.loops[l].isReduction ? reductionLoop : pureLoop) = true;
    }
    // Only the pure loops are unrolled (ScheduleCalls): RVar loops stay serial.
    if (!reductionLoop) return Unrolled::AllLoops;
    return pureLoop ? Unrolled::PureLoops : Unrolled::Nothing;
}

int64_t LoopNest::iterations() const {
    int64_t n = 1;
    for (int64_t e : extents) n *= e;
    return n;
}

void LoopNest::print(std::ostream &os, const FunctionDAG &dag, int indent) const {
    const std::string pad(size_t(indent) * 2, ' ');
    const MemoryType memory = level == LoopLevel::Root     ? MemoryType::Global
                              : level == LoopLevel::Block  ? MemoryType::Shared
                              : level == LoopLevel::Thread ? MemoryType::Register
                                                           : MemoryType::None;
    for (int f : stored) {
        os << pad << "allocate " << dag.node(f).name << " @" << memoryTypeName(memory) << "\n";
    }
    int childIndent = indent;
    if (level != LoopLevel::Root) {
        const Stage &s = dag.node(node).stages[size_t(stage)];
        os << pad << "for " << s.name << " ";
        for (size_t l = 0; l < extents.size(); ++l) {
            os << (l ? ", " : "") << s.loops[l].name << ":" << extents[l];
        }
        os << " @" << loopLevelName(level);
        switch (unrolledLoops(*this, s)) {
        case Unrolled::AllLoops:
            os << ", unrolled";
            break;
        case Unrolled::PureLoops:
            os << ", pure loops unrolled";
            break;
        case Unrolled::Nothing:
            break;
        }
        os << "\n";
        childIndent = indent + 1;
    }
    for (const LoopNestPtr &child : children) child->print(os, dag, childIndent);
    if (computesHere) {
        const std::string inner(size_t(childIndent) * 2, ' ');
        os << inner << "compute " << dag.node(node).stages[size_t(stage)].name;
        if (!inlined.empty()) {
            os << " (inlined:";
            for (const InlinedCall &c : inlined) os << " " << dag.node(c.node).name << "x" << c.calls;
            os << ")";
        }
        os << "\n";
    }
}

} // namespace beamscope
