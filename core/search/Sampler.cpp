// Bucketing by parent and hash, and drawing representatives.
#include "search/Sampler.h"

#include <algorithm>
#include <map>
#include <utility>

namespace beamscope {

int representativesFor(int size) {
    int log2 = 0;
    while ((2 << log2) <= size)
        ++log2;
    return std::max(1, log2);
}

std::vector<Bucket> bucketAndSample(const std::vector<uint64_t> &hashes,
                                    const std::vector<int> &parents, bool sample, Rng &rng) {
    std::vector<Bucket> buckets;
    // Ordered map: iteration order never matters here, buckets keep their first appearance.
    std::map<std::pair<int, uint64_t>, size_t> index;
    for (size_t i = 0; i < hashes.size(); ++i) {
        const int parent = i < parents.size() ? parents[i] : -1;
        auto [it, added] = index.emplace(std::make_pair(parent, hashes[i]), buckets.size());
        if (added) buckets.push_back({hashes[i], parent, {}, {}});
        buckets[it->second].members.push_back(int(i));
    }
    for (Bucket &b : buckets) {
        const int n = int(b.members.size());
        if (!sample) {
            b.sampled = b.members;
            continue;
        }
        for (int pick : rng.sample(n, representativesFor(n)))
            b.sampled.push_back(b.members[size_t(pick)]);
    }
    return buckets;
}

} // namespace beamscope
