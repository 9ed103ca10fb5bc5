// What a serial loop node unrolls, for the printed loop nest and the GUI to put in words.
#pragma once

#include "schedule/LoopNest.h"

namespace beamscope {

struct Stage;

/// All of the node's loops; only an update's pure loops, inside its RVars, which stay loops
/// (ScheduleCalls); or nothing (not unrolled, or only loops of one iteration beside an RVar).
enum class Unrolled { Nothing, AllLoops, PureLoops };

Unrolled unrolledLoops(const LoopNest &serial, const Stage &stage);

} // namespace beamscope
