// PretrainedModel: the learned cost model shipped with Beamscope (resources/models, installed
// beside the GPU presets), trained on real GPU measurements. It is the default cost model
// wherever it fits the GPU model in use (its device class: NVIDIA GPUs, i.e. a preset with a
// CUDA compute capability); elsewhere, or when its file is missing or unusable, the default is
// the analytic model (with one line on stderr saying why).
#pragma once

#include "cost/LearnedCostModel.h"
#include "schedule/GpuSpec.h"

#include <memory>
#include <string>

namespace beamscope {

/// The name of the shipped model wherever a cost model is named.
inline constexpr const char *kPretrainedName = "pretrained";
/// The spec that means "the default for this GPU" (pretrained where it fits, else analytic).
inline constexpr const char *kDefaultModelSpec = "default";

/// The shipped model file: $BEAMSCOPE_PRETRAINED_MODEL when set (to try another file), else
/// <data>/models/pretrained.json. Throws Error when the data directory is not found.
std::string pretrainedModelPath();

/// True when the shipped model's device class covers `gpu`: an NVIDIA GPU (a preset or file
/// with a CUDA compute capability), not a CPU device such as pocl-cpu.
bool pretrainedFits(const GpuSpec &gpu);

/// Loads the shipped model with `gpu` as its analytic prior, named "pretrained". Throws Error
/// (one line) for a missing, corrupt or other-schema file.
std::shared_ptr<LearnedCostModel> loadPretrained(const GpuSpec &gpu);

/// "pretrained" when it fits `gpu` and loads, else "analytic"; when it fits but cannot be
/// loaded, prints one line on stderr (once per process) saying so and why.
std::string defaultCostModelSpec(const GpuSpec &gpu);

/// A learned model by spec: "pretrained" (the shipped one) or a model file's path.
std::shared_ptr<LearnedCostModel> loadLearnedModel(const std::string &spec, const GpuSpec &gpu);

} // namespace beamscope
