// BenchCandidates: the Measure box's choice over core topOfBeam, relabelled by Beam dock row.
#include "BenchCandidates.h"

#include <string>

namespace beamscope {

std::vector<BenchCandidate> benchCandidates(const SearchStep &step, const BenchSettings &settings) {
    const BeamEntry *result = step.best ? &*step.best : nullptr;
    const bool topK = settings.count > 1 || settings.pick == BenchPick::TopK;
    std::vector<BenchCandidate> candidates;
    if (!topK && settings.pick == BenchPick::Result && result)
        candidates = topOfBeam(result, {}, 1, Measurement::kUnknown);
    else if (!topK)
        candidates = topOfBeam(nullptr, step.beam, 1, Measurement::kUnknown);
    else
        candidates = topOfBeam(result, step.beam, settings.count, Measurement::kUnknown);
    for (BenchCandidate &c : candidates) {
        if (result && c.state == result->state) {
            c.label = "result";
            continue;
        }
        for (size_t rank = 0; rank < step.beam.size(); ++rank) {
            if (step.beam[rank].state == c.state) c.label = "beam #" + std::to_string(rank + 1);
        }
    }
    return candidates;
}

} // namespace beamscope
