// TermsJson: a cost's terms as a JSON object keyed by the cost model's term names (reports of
// Why not? and of imported schedules).
#pragma once

#include "cost/CostModel.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace beamscope {

inline nlohmann::json termsJson(const CostTerms &terms, const std::vector<std::string> &names) {
    nlohmann::json j = nlohmann::json::object();
    for (size_t t = 0; t < names.size() && t < terms.size(); ++t)
        j[names[t]] = terms[t];
    return j;
}

} // namespace beamscope
