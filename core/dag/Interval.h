// Interval and Box: closed integer ranges used for loop extents and required regions.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace beamscope {

/// A closed integer range [min, max]; empty when max < min.
struct Interval {
    int64_t min = 0;
    int64_t max = -1;

    int64_t extent() const { return max >= min ? max - min + 1 : 0; }
    bool empty() const { return max < min; }
    /// The smallest interval containing both.
    void unite(const Interval &other) {
        if (other.empty()) return;
        if (empty()) {
            *this = other;
            return;
        }
        min = std::min(min, other.min);
        max = std::max(max, other.max);
    }
    bool operator==(const Interval &) const = default;
};

/// One interval per dimension.
using Box = std::vector<Interval>;

/// Product of extents (number of points); 0 for an empty box.
inline int64_t boxVolume(const Box &box) {
    int64_t v = 1;
    for (const Interval &i : box) v *= i.extent();
    return v;
}

} // namespace beamscope
