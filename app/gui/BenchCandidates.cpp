// BenchCandidates: the Measure box's choice over core topOfBeam, which names the Beam dock's rows.
#include "BenchCandidates.h"

namespace beamscope {

std::vector<BenchCandidate> benchCandidates(const SearchStep &step, const BenchSettings &settings) {
    const BeamEntry *result = step.best ? &*step.best : nullptr;
    const bool topK = settings.count > 1 || settings.pick == BenchPick::TopK;
    if (!topK && settings.pick == BenchPick::Result && result)
        return topOfBeam(result, {}, 1, Measurement::kUnknown);
    if (!topK) return topOfBeam(nullptr, step.beam, 1, Measurement::kUnknown);
    return topOfBeam(result, step.beam, settings.count, Measurement::kUnknown);
}

} // namespace beamscope
