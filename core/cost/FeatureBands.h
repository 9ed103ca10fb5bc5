// FeatureBands: the ranges of one feature that no split of a tree ensemble divides. Every tree
// sends a row left when `value < threshold` (XGBoost's numerical split), so two rows that differ
// only in that feature, with values in the same band, get the same output from every tree: a
// per-kernel model predicts a kernel once per band of its share of the schedule, not once per
// state (LearnedCostModel).
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <vector>

namespace beamscope {

class FeatureBands {
public:
    /// No bands: every value needs its own prediction.
    FeatureBands() = default;
    /// The bands of `feature` in an XGBoost gbtree model (the booster document, as
    /// XGBoosterSaveModelToBuffer writes it). Without bands when the model is not a gbtree, has a
    /// categorical split or is not read as expected, so a caller never shares a score it should
    /// not.
    static FeatureBands read(const nlohmann::json &booster, int feature);

    /// The band of `value`: how many thresholds are at or below it. None for NaN, without bands,
    /// and within one float step of a threshold: read from a model's decimal text, a threshold
    /// can be the float next to the one XGBoost parsed from the same text, so a value there is
    /// predicted on its own rather than risk another band's score.
    std::optional<uint32_t> band(float value) const;
    /// The thresholds in increasing order, each once.
    const std::vector<float> &thresholds() const { return m_thresholds; }
    bool usable() const { return m_usable; }

private:
    bool m_usable = false;
    std::vector<float> m_thresholds;
};

} // namespace beamscope
