// DropoutCostModel: random dropout for bench's greedy samples (paper section 6) as a CostModel
// decorator, so the search engine itself is unchanged: a dropped state's cost is pushed behind
// every kept one.
#pragma once

#include "cost/CostModel.h"
#include "util/Rng.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace beamscope {

/// Random dropout as in Anderson et al.'s autoscheduler (its `random_dropout` parameter):
/// `percent` is the chance that a whole search of `decisions` decisions drops nothing, so
/// each evaluated state is kept with probability (percent / 100)^(1 / decisions). A dropped
/// state's total cost is multiplied by kDropFactor: it ranks behind every kept state but
/// dropped states keep their relative order, so a step whose states were all dropped still
/// picks the cheapest one. Per-stage costs are left as they are.
class DropoutCostModel : public CostModel {
public:
    static constexpr double kDropFactor = 1e6;

    DropoutCostModel(std::shared_ptr<CostModel> inner, double percent, int decisions,
                     std::uint64_t seed);
    std::string name() const override { return m_inner->name() + "+dropout"; }
    /// The inner model's terms.
    std::vector<std::string> termNames() const override { return m_inner->termNames(); }
    void enqueue(const ScheduleState &state,
                 std::vector<std::shared_ptr<const KernelFeatures>> features,
                 StateCost *out) override;
    void evaluateAll() override;
    /// Probability that one evaluated state is kept.
    double keepProbability() const { return m_keep; }
    /// States dropped so far.
    std::int64_t dropped() const { return m_dropped; }

private:
    std::shared_ptr<CostModel> m_inner;
    double m_keep;
    Rng m_rng;
    std::vector<StateCost *> m_pending;
    std::int64_t m_dropped = 0;
};

} // namespace beamscope
