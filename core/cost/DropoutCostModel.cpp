// DropoutCostModel: the inner model's costs, each state kept or pushed back by a seeded draw.
#include "cost/DropoutCostModel.h"

#include <algorithm>
#include <cmath>

namespace beamscope {

DropoutCostModel::DropoutCostModel(std::shared_ptr<CostModel> inner, double percent, int decisions,
                                   std::uint64_t seed)
    : m_inner(std::move(inner)), m_rng(seed) {
    const double p = std::clamp(percent, 0.0, 100.0) / 100.0;
    m_keep = p >= 1.0 ? 1.0 : std::pow(p, 1.0 / std::max(1, decisions));
}

void DropoutCostModel::enqueue(const ScheduleState &state,
                               std::vector<std::shared_ptr<const KernelFeatures>> features,
                               StateCost *out) {
    m_inner->enqueue(state, std::move(features), out);
    m_pending.push_back(out);
}

void DropoutCostModel::evaluateAll() {
    m_inner->evaluateAll();
    for (StateCost *out : m_pending) {
        const double u = double(m_rng.next() >> 11) * (1.0 / 9007199254740992.0);
        if (u >= m_keep) {
            out->total *= kDropFactor;
            ++m_dropped;
        }
    }
    m_pending.clear();
}

} // namespace beamscope
