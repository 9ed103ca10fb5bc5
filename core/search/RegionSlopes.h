// RegionSlopes: how the region of a Func fused inside a host's tile moves with the tile, and
// where its size varies from tile to tile (which Halide either rejects or bounds by the whole
// index range).
#pragma once

#include "schedule/ScheduleState.h"

#include <string>
#include <vector>

namespace beamscope {

/// Why `node`'s region within one tile of `host` at `level` may not have one size in every
/// tile, or "" when it has one. The size is the same in every tile when every index on the way
/// from the Func to the host (through the Funcs inlined or computed in between) is an affine
/// function of the host's loops without division or clamp, and all the calls that meet in one
/// dimension of a Func have the same slopes (they differ by constants only): the region is then
/// a box translated with the tile. Otherwise it is not:
///  - data-dependent indices: the size depends on data;
///  - clamps (boundary conditions): tiles near the edge need fewer points;
///  - calls of different slopes, e.g. f(x, y, c) and f(x, y, 3): the hull of c and 3 has
///    |c - 3| + 1 points; f(x, y) and f(y, x) (a transpose beside a pointwise read): the hull
///    spans the distance between the tile and its mirror image;
///  - floor division, e.g. f(x / 2) and f((x + 1) / 2): the number of points depends on the
///    parity of where the tile starts; even where it does not, Halide's simplifier cannot
///    always prove so (nested divisions of pyramids), so only divisions that come out exact
///    ((2x + 1) / 2 = x) are allowed.
std::string regionSizeVaries(const ScheduleState &state, int node, int host, LoopLevel level);

/// Per dimension of `node` (fused at `level` of `host`), whether calls of different slopes meet
/// along it, directly or in a Func on the way: the hull then grows with the tile's position, and
/// Halide sizes the allocation by its bounds over every tile, i.e. the Func's whole extent along
/// that dimension. (Divisions and clamps are not counted: within a block Halide bounds them by
/// interval arithmetic over the block's loops, close to the tile's own need.)
std::vector<bool> dimsWhereSlopesMeet(const ScheduleState &state, int node, int host,
                                      LoopLevel level);

} // namespace beamscope
