// The search options shared by `search`, `export` and `bench`: beam, passes, seed, GPU, the three
// strategy switches, pins and the cost model, with their parsing into SearchOptions.
#pragma once

#include <CLI/CLI.hpp>

#include "search/SearchEngine.h"

#include <string>

namespace beamscope::cli {

struct SearchCliOptions {
    int beam = 32;
    int passes = 5;
    uint64_t seed = 0;
    std::string gpu = "v100";
    bool noSampling = false, noFreezing = false, noMemo = false;
    bool wideTilings = false, noParallelFilter = false;
    int freezeMinFuncs = SearchOptions::kDefaultFreezeMinFuncs;
    std::string pins;
    std::vector<std::string> freezeFuncs;
    /// "default": the pretrained model where it fits the GPU preset, else analytic.
    std::string costModel = "default";

    /// Adds --beam, --passes, --seed, --gpu, --no-sampling, --no-freezing, --freeze-min-funcs,
    /// --no-memo, --wide-tilings, --no-parallel-filter, --pins, --freeze, --cost-model.
    /// `gpuFromDevice`: --gpu defaults to none, meaning the front end picks the GPU model from
    /// the device it runs on (bench).
    void addTo(CLI::App &command, bool gpuFromDevice = false);
    /// The engine options (loads the GPU spec and the pin file; throws Error on bad ones; checks
    /// that --cost-model names a model or an existing file). With no --gpu (bench), options.gpu
    /// stays unnamed and a default cost model is resolved once the device's GPU is known.
    SearchOptions build() const;
};

} // namespace beamscope::cli
