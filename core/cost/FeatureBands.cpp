// FeatureBands: reads the split thresholds of one feature out of XGBoost's model document.
#include "cost/FeatureBands.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace beamscope {

FeatureBands FeatureBands::read(const nlohmann::json &booster, int feature) {
    FeatureBands bands;
    try {
        const nlohmann::json &model = booster.at("learner").at("gradient_booster");
        if (model.at("name") != "gbtree") return {};
        for (const nlohmann::json &tree : model.at("model").at("trees")) {
            const nlohmann::json &left = tree.at("left_children");
            const nlohmann::json &index = tree.at("split_indices");
            const nlohmann::json &condition = tree.at("split_conditions");
            const nlohmann::json &type = tree.at("split_type");
            if (index.size() != left.size() || condition.size() != left.size() ||
                type.size() != left.size())
                return {};
            for (size_t n = 0; n < left.size(); ++n) {
                if (left[n].get<int64_t>() == -1) continue; // a leaf: its condition is its value
                if (type[n].get<int>() != 0) return {};     // categorical: not a threshold
                if (index[n].get<int64_t>() == feature)
                    bands.m_thresholds.push_back(condition[n].get<float>());
            }
        }
    } catch (const nlohmann::json::exception &) {
        return {};
    }
    std::sort(bands.m_thresholds.begin(), bands.m_thresholds.end());
    bands.m_thresholds.erase(std::unique(bands.m_thresholds.begin(), bands.m_thresholds.end()),
                             bands.m_thresholds.end());
    bands.m_usable = true;
    return bands;
}

std::optional<uint32_t> FeatureBands::band(float value) const {
    if (!m_usable || std::isnan(value)) return std::nullopt;
    const auto above = std::upper_bound(m_thresholds.begin(), m_thresholds.end(), value);
    // Within a float's step of a threshold: the tree's own threshold may be that neighbour.
    constexpr float inf = std::numeric_limits<float>::infinity();
    if (above != m_thresholds.begin() && value <= std::nextafter(*(above - 1), inf))
        return std::nullopt;
    if (above != m_thresholds.end() && value >= std::nextafter(*above, -inf)) return std::nullopt;
    return uint32_t(above - m_thresholds.begin());
}

} // namespace beamscope
