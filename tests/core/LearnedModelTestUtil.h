// Helpers of the learned-model tests (LearnedCostModelTest, PerKernelLearnedModelTest,
// PretrainedModelTest): the mean within-group Kendall tau of predictions, whole-file reads,
// per-process temporary paths, the message of an Error, and a model's test metadata.
#pragma once

#include "cost/LearnedCostModel.h"
#include "cost/RankMetrics.h"
#include "util/Error.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

namespace beamscope::testing {

/// Mean over groups of Kendall's tau of `predicted` against the rows' measured times.
inline double meanTau(const std::vector<TrainingRow> &rows, const std::vector<double> &predicted) {
    std::map<std::string, std::pair<std::vector<double>, std::vector<double>>> byGroup;
    for (size_t i = 0; i < rows.size(); ++i) {
        byGroup[rows[i].group].first.push_back(predicted[i]);
        byGroup[rows[i].group].second.push_back(rows[i].measuredMs);
    }
    double sum = 0;
    for (const auto &[group, pm] : byGroup)
        sum += kendallTau(pm.first, pm.second);
    return sum / double(byGroup.size());
}

inline std::string readFile(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

inline void writeFile(const std::string &path, const std::string &text) {
    std::ofstream(path, std::ios::binary) << text;
}

/// A path in the temporary directory named by `prefix`, this process and `name`.
inline std::string tempPath(const std::string &prefix, const std::string &name) {
    return (std::filesystem::temp_directory_path() /
            (prefix + "-" + std::to_string(::getpid()) + "-" + name))
        .string();
}

/// The message of the Error `f` throws ("" if none).
template <typename Fn> std::string errorOf(Fn &&f) {
    try {
        f();
    } catch (const Error &e) {
        return e.what();
    }
    return "";
}

/// Metadata of a model trained on synthetic rows by `test`.
inline ModelMetadata testMetadata(const std::string &test) {
    ModelMetadata meta;
    meta.device = "synthetic";
    meta.gpu = "V100-SXM2-32GB";
    meta.createdWith = test;
    return meta;
}

} // namespace beamscope::testing
