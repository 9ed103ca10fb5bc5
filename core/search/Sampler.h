// Sampler: hierarchical sampling (paper 3.1, 4.4). The children of each parent state are
// bucketed by structural hash (per parent, as the authors' implementation forms them when it
// generates one state's children); floor(log2(B)), at least 1, representatives of a bucket of B
// are drawn with the seeded Rng.
#pragma once

#include "util/Rng.h"

#include <cstdint>
#include <vector>

namespace beamscope {

/// One bucket: the parent whose children it holds, their hash, its members (candidate indices,
/// in enumeration order) and the members drawn as representatives (in the order drawn).
struct Bucket {
    uint64_t hash = 0;
    int parent = -1;
    std::vector<int> members;
    std::vector<int> sampled;
};

/// Representatives to draw from a bucket of `size`: floor(log2(size)), at least 1.
int representativesFor(int size);

/// Groups candidates by (`parents`, `hashes`) (buckets ordered by first appearance) and, when
/// `sample` is on, draws representatives with `rng`; otherwise every member is sampled.
std::vector<Bucket> bucketAndSample(const std::vector<uint64_t> &hashes,
                                    const std::vector<int> &parents, bool sample, Rng &rng);

} // namespace beamscope
