// What a serial loop node unrolls, in words, for the printed loop nest and the GUI.
#pragma once

#include "schedule/LoopNest.h"

namespace beamscope {

struct Stage;

/// "unrolled" (all of the node's loops), "pure loops unrolled" (an update's pure loops inside
/// its RVars, which stay loops: ScheduleCalls) or "" (nothing, or only loops of one iteration
/// beside an RVar).
const char *unrollNote(const LoopNest &serial, const Stage &stage);

} // namespace beamscope
