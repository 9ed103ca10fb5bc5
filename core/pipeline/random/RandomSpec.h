// RandomSpec: the pipeline name `random:SEED` or `random:SEED:STAGES` that every command and the
// GUI take for a generated random pipeline (RandomPipeline.h), parsed and written back.
#pragma once

#include <cstdint>
#include <string>

namespace beamscope {

inline constexpr int kMinRandomStages = 4;
inline constexpr int kMaxRandomStages = 60;

/// A random pipeline: its seed and its number of Funcs (0: drawn from the seed).
struct RandomSpec {
    std::uint64_t seed = 0;
    int stages = 0;
};

/// True when `name` asks for a random pipeline ("random" or "random:..."), well formed or not.
bool isRandomSpec(const std::string &name);

/// Parses "random:SEED" or "random:SEED:STAGES" (SEED a decimal integer below 2^63, STAGES in
/// [kMinRandomStages, kMaxRandomStages]). Throws UsageError with a one-line message otherwise.
RandomSpec parseRandomSpec(const std::string &name);

/// The canonical text of `spec` ("random:11", "random:11:24").
std::string formatRandomSpec(const RandomSpec &spec);

} // namespace beamscope
