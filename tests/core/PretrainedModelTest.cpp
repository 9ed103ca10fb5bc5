// The pretrained cost model shipped in resources/models (found through the build tree's data
// directory, as an installed binary finds it): the default on NVIDIA presets and not on
// pocl-cpu, the same predictions as recorded when it was trained, refused on another feature
// schema, and a corrupt file falls back to the analytic model with one line on stderr.
#include "LearnedModelTestUtil.h"
#include "ScheduleTestUtil.h"

#include "cost/CostModelFactory.h"
#include "cost/Featurizer.h"
#include "cost/PretrainedModel.h"
#include "util/Error.h"

#include <gtest/gtest.h>

#include <ios>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace beamscope;
using namespace beamscope::testing;

namespace {

std::string tempPath(const std::string &name) {
    return beamscope::testing::tempPath("beamscope-pretrained", name);
}

/// Points the pretrained model at another file for the life of the object.
struct PretrainedFileOverride {
    explicit PretrainedFileOverride(const std::string &path) {
        ::setenv("BEAMSCOPE_PRETRAINED_MODEL", path.c_str(), 1);
    }
    ~PretrainedFileOverride() { ::unsetenv("BEAMSCOPE_PRETRAINED_MODEL"); }
};

/// A fixed kernel row: feature i is sin(i + shift) + 0.5 i / width (no meaning, only
/// reproducible), the kernel's analytic time `ms`.
KernelFeatureRow fixedKernel(double shift, double ms) {
    const size_t width = kernelFeatureNames().size();
    KernelFeatureRow k;
    k.features.resize(width);
    for (size_t i = 0; i < width; ++i)
        k.features[i] = float(std::sin(double(i) + shift) + 0.5 * double(i) / double(width));
    k.analyticMs = ms;
    return k;
}

/// A schedule of the given fixed kernels.
TrainingRow fixedSchedule(std::vector<KernelFeatureRow> kernels) {
    TrainingRow row;
    row.kernels = std::move(kernels);
    return row;
}

} // namespace

TEST(PretrainedModel, IsTheDefaultOnNvidiaPresetsAndNotOnPocl) {
    for (const char *preset : {"h100", "h200", "a100", "v100", "rtx4090"}) {
        const GpuSpec gpu = GpuSpec::load(preset);
        EXPECT_EQ(defaultCostModelSpec(gpu), "pretrained") << preset;
        EXPECT_EQ(makeCostModel("default", gpu)->name(), "pretrained") << preset;
    }
    const GpuSpec pocl = GpuSpec::load("pocl-cpu");
    EXPECT_EQ(defaultCostModelSpec(pocl), "analytic");
    EXPECT_EQ(makeCostModel("default", pocl)->name(), "analytical-gpu");
    // Named, it is used on any GPU model.
    EXPECT_EQ(makeCostModel("pretrained", pocl)->name(), "pretrained");
}

TEST(PretrainedModel, CarriesItsMetadata) {
    const auto model = loadPretrained(GpuSpec::load("h100"));
    EXPECT_EQ(model->metadata().featureSchema, kScheduleFeatureSchema);
    // Fitted to each kernel's own time: the rows with CUPTI's kernel times, the H200's (the
    // H100's have none; `--every-device` loads them, they do not train).
    EXPECT_EQ(model->metadata().gpu, "H200-SXM5-141GB");
    EXPECT_EQ(model->metadata().extra.at("training").value("objective", ""), "kernel-times");
    EXPECT_EQ(model->metadata().device, "every device");
    EXPECT_GT(model->metadata().trainingRows, 400);
    EXPECT_EQ(model->metadata().extra.value("device_class", ""), "nvidia-gpu");
    EXPECT_TRUE(model->metadata().extra.contains("training_set"));
    // Trained on the minimum of each row's repeats (tune/TrainingData.h says why).
    EXPECT_EQ(model->metadata().extra.value("measured_time", ""), "min");
}

TEST(PretrainedModel, PredictsTheValuesRecordedWhenItWasTrained) {
    const auto model = loadPretrained(GpuSpec::load("h100"));
    // The shipped model corrects each kernel (the paper's structure).
    EXPECT_EQ(model->structure(), ModelStructure::Kernels);
    // Recorded from this file when it was trained (docs/pretrained.md): bit for bit.
    const double expected[] = {0x1.6824fe1b1d259p-2, 0x1.31222358bda9cp-1};
    const TrainingRow one = fixedSchedule({fixedKernel(0, 1.0)});
    const TrainingRow two = fixedSchedule({fixedKernel(0, 1.0), fixedKernel(1, 0.25)});
    // On a retrained file, the message gives the new values to record.
    EXPECT_EQ(model->predictMs(one), expected[0]) << std::hexfloat << model->predictMs(one);
    EXPECT_EQ(model->predictMs(two), expected[1]) << std::hexfloat << model->predictMs(two);

    // A real schedule featurized and costed twice, by two loads: the same bits.
    const GpuSpec gpu = GpuSpec::load("h100");
    const StatePtr state = placeRest(ScheduleState::initial(stencilChainDag(3)));
    double first = 0;
    for (int run = 0; run < 2; ++run) {
        auto costModel = makeCostModel("pretrained", gpu);
        Featurizer featurizer(gpu, false);
        StateCost cost;
        costModel->enqueue(*state, featurizer.featurize(*state), &cost);
        costModel->evaluateAll();
        ASSERT_GT(cost.total, 0.0);
        if (run == 0) first = cost.total;
        EXPECT_EQ(std::memcmp(&first, &cost.total, sizeof first), 0);
    }
}

TEST(PretrainedModel, IsRefusedOnAnotherFeatureSchema) {
    nlohmann::json doc = nlohmann::json::parse(readFile(pretrainedModelPath()));
    doc["feature_schema"] = kScheduleFeatureSchema - 1;
    const std::string path = tempPath("old-schema.json");
    std::ofstream(path, std::ios::binary) << doc.dump();
    PretrainedFileOverride override(path);
    try {
        loadPretrained(GpuSpec::load("h100"));
        ADD_FAILURE() << "a model of another feature schema was loaded";
    } catch (const Error &e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("feature schema " + std::to_string(kScheduleFeatureSchema - 1)),
                  std::string::npos)
            << message;
        EXPECT_EQ(message.find('\n'), std::string::npos);
    }
    std::filesystem::remove(path);
}

TEST(PretrainedModel, ACorruptFileFallsBackToAnalyticWithOneLine) {
    const std::string path = tempPath("corrupt.json");
    const std::string good = readFile(pretrainedModelPath());
    std::ofstream(path, std::ios::binary) << good.substr(0, good.size() / 2);
    PretrainedFileOverride override(path);
    ::testing::internal::CaptureStderr();
    const std::string spec = defaultCostModelSpec(GpuSpec::load("h100"));
    const std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(spec, "analytic");
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
    EXPECT_NE(err.find("pretrained"), std::string::npos) << err;
    EXPECT_EQ(makeCostModel("default", GpuSpec::load("h100"))->name(), "analytical-gpu");
    std::filesystem::remove(path);
}
