// Qt metatypes of the core values that cross threads and signals: snapshots travel as
// std::shared_ptr<const T> (never copied, never mutated after they are published).
#pragma once

#include "dag/FunctionDAG.h"
#include "search/SearchStep.h"

#include <QMetaType>

#include <memory>

namespace beamscope {
using DagPtr = std::shared_ptr<const FunctionDAG>;
} // namespace beamscope

Q_DECLARE_METATYPE(beamscope::SearchStepPtr)
Q_DECLARE_METATYPE(beamscope::DagPtr)
Q_DECLARE_METATYPE(beamscope::SearchCounters)

namespace beamscope {
/// Registers the metatypes above for queued connections and QSignalSpy (idempotent).
inline void registerControllerMetaTypes() {
    qRegisterMetaType<SearchStepPtr>();
    qRegisterMetaType<DagPtr>();
    qRegisterMetaType<SearchCounters>();
}
} // namespace beamscope
