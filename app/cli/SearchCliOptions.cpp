// Parsing of the shared search options.
#include "SearchCliOptions.h"

#include "CliOption.h"

#include "cost/CostModelFactory.h"
#include "cost/PretrainedModel.h"

namespace beamscope::cli {

void SearchCliOptions::addTo(CLI::App &command, bool gpuFromDevice) {
    if (gpuFromDevice) gpu.clear();
    addOption(command, options::beam, beam);
    addOption(command, options::passes, passes);
    addOption(command, options::seed, seed);
    addOption(command, options::gpu, gpu, gpuFromDevice ? " (default: from the device)" : "");
    command.add_flag("--no-sampling", noSampling,
                     "cost every candidate (no hierarchical sampling)");
    command.add_flag("--no-freezing", noFreezing, "no root/inline pre-pass and freezing");
    addOption(command, options::freezeMinFuncs, freezeMinFuncs);
    command.add_flag("--no-memo", noMemo, "no memoization of featurization per kernel");
    command.add_flag("--wide-tilings", wideTilings,
                     "the authors' tiling space: serial sizes on every dimension, thread "
                     "dimensions chosen");
    command.add_flag("--no-parallel-filter", noParallelFilter,
                     "keep root tilings with fewer than 2x the SMs' blocks or idle cores in the "
                     "last wave (no parallelism filter)");
    addOption(command, options::pins, pins);
    command
        .add_option("--freeze", freezeFuncs,
                    "freeze exactly these Funcs after the pre-pass (comma-separated names) in "
                    "place of the N - log2(N) cheapest: an experiment, e.g. another "
                    "implementation's frozen set")
        ->delimiter(',');
    addOption(command, options::costModel, costModel);
}

SearchOptions SearchCliOptions::build() const {
    SearchOptions options;
    options.beamSize = beam;
    options.passes = passes;
    options.seed = seed;
    if (!gpu.empty()) options.gpu = GpuSpec::load(gpu);
    options.sampling = !noSampling;
    options.freezing = !noFreezing;
    options.freezeMinFuncs = freezeMinFuncs;
    options.memoization = !noMemo;
    options.space.wideTilings = wideTilings;
    options.space.parallelismFilter = !noParallelFilter;
    if (!pins.empty()) options.pins = loadPinFile(pins);
    options.freezeFuncs = freezeFuncs;
    options.costModel = costModel;
    if (costModel == kDefaultModelSpec && options.gpu.smCount)
        options.costModel = defaultCostModelSpec(options.gpu);
    // Fail before any work: an unknown name or an unusable model file is one line.
    if (options.costModel != kDefaultModelSpec)
        makeCostModel(options.costModel,
                      options.gpu.smCount ? options.gpu : GpuSpec::defaultSpec());
    return options;
}

} // namespace beamscope::cli
