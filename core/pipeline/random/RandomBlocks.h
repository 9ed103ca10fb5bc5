// The building blocks of random pipelines (after Adams et al. 2019's training set): each reads
// the builder's current Node (and sometimes an earlier one), defines one or a few Funcs and
// appends the result as the new current Node. A block that does not fit (wrong dimensions,
// type, size or budget) returns false and changes nothing but the Rng.
#pragma once

#include "pipeline/random/RandomBuilder.h"

#include <vector>

namespace beamscope::randompipe {

struct Block {
    const char *name;
    int cost;   ///< Funcs it makes at most
    int weight; ///< how often it is drawn, relative to the others
    bool (*make)(RandomBuilder &);
};

/// Every block, in a fixed order (the draw depends on it).
const std::vector<Block> &randomBlocks();

// Pointwise and structural blocks (RandomPointwise.cpp).
bool pointwiseUnary(RandomBuilder &b);
bool pointwiseBinary(RandomBuilder &b);
bool forkJoin(RandomBuilder &b);
bool transpose(RandomBuilder &b);
bool expandChannels(RandomBuilder &b);
bool freshInput(RandomBuilder &b);
// Stencils and resampling (RandomStencils.cpp).
bool stencil1D(RandomBuilder &b);
bool stencil2D(RandomBuilder &b);
bool stencilRDom(RandomBuilder &b);
bool separableBlur(RandomBuilder &b);
bool windowMax(RandomBuilder &b);
bool downsample(RandomBuilder &b);
bool upsample(RandomBuilder &b);
// Reductions, scans, gathers and contractions (RandomReductions.cpp).
bool reduceLastDim(RandomBuilder &b);
bool histogramEqualize(RandomBuilder &b);
bool scan(RandomBuilder &b);
bool lutGather(RandomBuilder &b);
bool matmulLike(RandomBuilder &b);
bool convLike(RandomBuilder &b);

/// A 1-D stencil of `a` along dimension `dim` with radius `radius` (weights drawn), as a Func
/// named kind; reads `a` with clamped coordinates along dim when `clampEdge`.
Node stencilAlong(RandomBuilder &b, const Node &a, int dim, int radius, bool clampEdge,
                  const std::string &kind);
/// `a` and `b2` combined pointwise (op drawn) on `a`'s extents, as a Func named kind.
Node combine(RandomBuilder &b, const Node &a, const Node &b2, const std::string &kind);

} // namespace beamscope::randompipe
