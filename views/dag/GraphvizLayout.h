// GraphvizLayout: runs dot on a FunctionDAG. Graphviz is not thread-safe, so every Graphviz call
// in the process happens inside graphvizMutex() (kgraphviewer's rule); callers run this on a
// worker thread (DagLayouter), never on the GUI thread.
#pragma once

#include "views/dag/DagLayout.h"

#include <mutex>

namespace beamscope {

/// The one process-wide lock around every Graphviz call.
std::mutex &graphvizMutex();

/// Lays `request` out with dot (takes graphvizMutex()). Throws std::runtime_error if Graphviz
/// fails.
DagLayout computeDagLayout(const DagLayoutRequest &request);

} // namespace beamscope
