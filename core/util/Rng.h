// Rng: the project's seeded PRNG (SplitMix64). Same seed, same sequence, on every platform;
// never std::random_device, std::shuffle or time-based seeds.
#pragma once

#include <cstdint>
#include <vector>

namespace beamscope {

class Rng {
public:
    explicit Rng(uint64_t seed) : m_state(seed) {}

    /// Next 64 random bits.
    uint64_t next() {
        uint64_t z = (m_state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }

    /// Uniform integer in [0, bound), bound > 0 (rejection sampling: no modulo bias).
    uint64_t below(uint64_t bound) {
        const uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
        uint64_t x;
        do {
            x = next();
        } while (x >= limit);
        return x % bound;
    }

    /// `count` distinct indices of [0, n), in the order drawn (partial Fisher-Yates).
    std::vector<int> sample(int n, int count) {
        std::vector<int> pool(static_cast<size_t>(n));
        for (int i = 0; i < n; ++i)
            pool[size_t(i)] = i;
        std::vector<int> out;
        for (int i = 0; i < count && i < n; ++i) {
            const int j = i + int(below(uint64_t(n - i)));
            std::swap(pool[size_t(i)], pool[size_t(j)]);
            out.push_back(pool[size_t(i)]);
        }
        return out;
    }

private:
    uint64_t m_state;
};

} // namespace beamscope
