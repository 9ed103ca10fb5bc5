#include "tune/KernelTimeMatch.h"

#include "dag/FunctionDAG.h"
#include "schedule/ScheduleState.h"

#include <cctype>
#include <regex>

namespace beamscope {

namespace {

/// What the names of `root`'s CUDA kernel look like, the "_kernel_" prefix taken off.
std::regex kernelNamePattern(const KernelRootStage &root) {
    // Halide writes a name's other characters as '_' in a CUDA identifier, so what is left
    // needs no escaping in a pattern.
    std::string func = root.func;
    for (char &c : func)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    static const std::regex lambda("^lambda_[0-9]+$");
    const std::string name = std::regex_match(func, lambda) ? "lambda_[0-9]+" : func;
    return std::regex(name + "(_{1,2}[0-9]+)?_s" + std::to_string(root.stage) + "_.*");
}

bool isKernelNamed(const std::string &cudaName, const std::regex &pattern) {
    static const std::string prefix = "_kernel_";
    const std::string body =
        cudaName.compare(0, prefix.size(), prefix) == 0 ? cudaName.substr(prefix.size()) : cudaName;
    return std::regex_match(body, pattern);
}

} // namespace

std::vector<KernelRootStage>
kernelRootStages(const ScheduleState &state,
                 const std::vector<std::shared_ptr<const KernelFeatures>> &kernels) {
    const auto &nests = state.kernels();
    std::vector<KernelRootStage> roots;
    for (size_t k = 0; k < kernels.size() && k < nests.size(); ++k) {
        KernelRootStage root{state.dag().node(nests[k]->node).name, -1};
        root.launches = !kernels[k]->empty();
        for (const StageFeatureRow &row : *kernels[k])
            if (row.node == nests[k]->node) root.stage = row.stage;
        roots.push_back(root);
    }
    return roots;
}

bool cudaKernelIsOf(const std::string &cudaName, const KernelRootStage &root) {
    return isKernelNamed(cudaName, kernelNamePattern(root));
}

std::vector<double> matchKernelTimes(const std::vector<KernelRootStage> &roots,
                                     const std::vector<KernelTime> &times) {
    size_t launching = 0;
    for (const KernelRootStage &root : roots) {
        if (!root.launches) continue;
        if (root.stage < 0) return {};
        ++launching;
    }
    if (launching != times.size() || launching == 0) return {};
    std::vector<double> ms(roots.size(), 0.0);
    std::vector<bool> taken(times.size(), false);
    for (size_t k = 0; k < roots.size(); ++k) {
        if (!roots[k].launches) continue;
        const std::regex pattern = kernelNamePattern(roots[k]); // once per root, not per name
        int hit = -1;
        for (size_t t = 0; t < times.size(); ++t) {
            if (!isKernelNamed(times[t].name, pattern)) continue;
            if (hit >= 0) return {};
            hit = int(t);
        }
        if (hit < 0 || taken[size_t(hit)]) return {};
        taken[size_t(hit)] = true;
        ms[k] = times[size_t(hit)].ms;
    }
    return ms;
}

} // namespace beamscope
