// What the independent references of the catalog apps share (tests/core/references): a
// deterministic input generator, the trivial CPU realization of an app (every Func at root),
// output buffers shaped by the estimates, and Lazy, the plain C++ stand-in for a Func over an
// unbounded domain (evaluated on demand and remembered), so that a reference follows an app's
// boundary behaviour (repeat_edge, pyramids read beyond the image) without a fixed margin.
#pragma once

#include "pipeline/PipelineInstance.h"

#include <Halide.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

namespace beamscope::references {

/// Fixed-seed 64-bit LCG (Knuth's MMIX constants), so every run sees the same inputs.
class Lcg {
public:
    explicit Lcg(uint64_t seed) : m_state(seed) {}
    /// Uniform in [0, 1).
    double next() {
        m_state = m_state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<double>(m_state >> 11) * (1.0 / 9007199254740992.0);
    }
    /// Uniform integer in [0, maxValue].
    int64_t upTo(int64_t maxValue) {
        return std::min<int64_t>(maxValue, static_cast<int64_t>(next() * double(maxValue + 1)));
    }

private:
    uint64_t m_state;
};

/// Fills `buffer` with pseudo-random values: floats in [0, 1), 8-bit in [0, 255], 16-bit in
/// [0, uint16Max]. Throws std::runtime_error for another type.
void fillRandom(Halide::Buffer<> &buffer, Lcg &rng, int64_t uint16Max = 65535);

/// A buffer shaped by an input's estimates (min and extent of every dimension).
Halide::Buffer<> bufferForInput(const Halide::Parameter &input);

/// One buffer per output value, over the output's estimated box.
std::vector<Halide::Buffer<>> outputBuffers(const Halide::Pipeline &pipeline);

/// Schedules `instance` trivially (every non-output Func compute_root: an unscheduled pipeline
/// inlines everything, and a fully inlined pyramid takes exponential time to compile) and
/// realizes it into `outputs` on the host, with IEEE float semantics when `strictFloat`.
/// Returns "" or Halide's error.
std::string realizeOnCpu(PipelineInstance &instance, std::vector<Halide::Buffer<>> &outputs,
                         bool strictFloat);

/// Integer coordinates of a point of a Func (unused trailing ones are 0).
using Coord = std::array<int, 5>;

struct CoordHash {
    size_t operator()(const Coord &c) const {
        uint64_t h = 1469598103934665603ULL;
        for (int v : c)
            h = (h ^ static_cast<uint32_t>(v)) * 1099511628211ULL;
        return static_cast<size_t>(h);
    }
};

/// A function over all integer coordinates, computed on demand by `body` and remembered: a
/// reference's counterpart of a Func, whose body may call other Lazy functions.
template <typename T> class LazyOf {
public:
    using Body = std::function<T(int, int, int, int, int)>;
    LazyOf() = default;
    explicit LazyOf(Body body) : m_body(std::move(body)) {}
    T operator()(int a, int b = 0, int c = 0, int d = 0, int e = 0) const {
        const Coord key{a, b, c, d, e};
        if (auto it = m_values.find(key); it != m_values.end()) return it->second;
        const T value = m_body(a, b, c, d, e);
        m_values.emplace(key, value);
        return value;
    }

private:
    Body m_body;
    mutable std::unordered_map<Coord, T, CoordHash> m_values;
};
using Lazy = LazyOf<float>;

/// `buffer` read through repeat_edge in every dimension (Halide's BoundaryConditions).
template <typename T> T clampedAt(const Halide::Buffer<T> &buffer, std::vector<int> at) {
    for (size_t d = 0; d < at.size(); ++d) {
        at[d] = std::clamp(at[d], buffer.dim(int(d)).min(), buffer.dim(int(d)).max());
    }
    return buffer(at.data());
}

} // namespace beamscope::references
