// Contents: the size and stage count drawn from the seed; the loop that draws building blocks
// until the stage budget is spent; the output's estimates; the GUI form.
#include "pipeline/random/RandomPipeline.h"

#include "pipeline/random/RandomBlocks.h"
#include "util/Rng.h"
#include "util/Error.h"

namespace beamscope {

using namespace randompipe;

namespace {

/// A block drawn by weight among those whose cost fits the budget left.
const Block &drawBlock(RandomBuilder &b) {
    const std::vector<Block> &blocks = randomBlocks();
    int total = 0;
    for (const Block &block : blocks)
        total += block.cost <= b.remaining() ? block.weight : 0;
    int pick = b.between(0, total - 1);
    for (const Block &block : blocks) {
        if (block.cost > b.remaining()) continue;
        if (pick < block.weight) return block;
        pick -= block.weight;
    }
    return blocks.front();
}

int sizeParam(const AppParams &params) {
    int size = 0;
    for (const auto &[key, value] : params) {
        if (key != "size")
            throw UsageError("random pipelines take one parameter, size (8..4096), not '" + key +
                             "'");
        if (value < 8 || value > 4096)
            throw UsageError("parameter 'size' of a random pipeline must lie in [8, 4096], got " +
                             std::to_string(value));
        size = int(value);
    }
    return size;
}

} // namespace

void checkRandomParams(const AppParams &params) {
    sizeParam(params);
}

PipelineInstance buildRandomPipeline(const std::string &name, const AppParams &params) {
    const RandomSpec spec = parseRandomSpec(name);
    const int sizeGiven = sizeParam(params);
    // Size and stage count from a stream of their own, so that size=N keeps the structure.
    Rng top(spec.seed ^ 0xA5A5A5A5DEADBEEFULL);
    static const int sizes[] = {256, 512, 512, 1024};
    const int drawnSize = sizes[top.below(4)];
    const bool halfHeight = top.below(2) == 1;
    // Skewed towards small pipelines (most of a collection's rows), up to 60 Funcs.
    const int drawnStages =
        kMinRandomStages + int(top.below(top.below(kMaxRandomStages - kMinRandomStages + 1) + 1));
    const int width = sizeGiven ? sizeGiven : drawnSize;
    const int height = halfHeight ? std::max(4, width / 2) : width;
    const int stages = spec.stages ? spec.stages : drawnStages;

    return wrapHalideErrors("building random pipeline '" + name + "'", [&] {
        RandomBuilder b(spec.seed, stages, width, height);
        const int firstDims = b.chance(40) ? 2 : (b.chance(75) ? 3 : 4);
        b.add(b.newInput(firstDims));
        while (b.remaining() > 0) {
            bool made = false;
            for (int attempt = 0; attempt < 8 && !made; ++attempt)
                made = drawBlock(b).make(b);
            if (!made) pointwiseUnary(b);
        }
        const Node &out = b.current();
        Halide::Func output = out.func;
        const std::vector<Halide::Var> v = output.args();
        for (size_t d = 0; d < v.size(); ++d)
            output.set_estimate(v[d], 0, out.extents[d]);
        PipelineInstance instance;
        instance.name = formatRandomSpec(spec);
        instance.pipeline = Halide::Pipeline(output);
        for (const Halide::ImageParam &input : b.inputs())
            instance.inputs.push_back(input.parameter());
        instance.params["seed"] = std::to_string(spec.seed);
        instance.params["stages"] = std::to_string(stages);
        instance.params["size"] = std::to_string(width);
        return instance;
    });
}

AppDefinition randomPipelineDefinition() {
    return {"random",
            "A random pipeline (random:SEED or random:SEED:STAGES on the command line): "
            "stencils, resampling, reductions, scans, gathers and contractions over 2-4-D "
            "uint8/uint16/int32/float buffers",
            {{"seed", 0, 0, (int64_t(1) << 31) - 1, "the pipeline's seed"},
             {"stages", 0, 0, kMaxRandomStages, "Funcs, 4..60 (0: drawn from the seed)"},
             {"size", 0, 0, 4096, "x extent of the input, 8..4096 (0: drawn from the seed)"}},
            [](const AppParams &params) {
                std::vector<std::string> rest;
                return buildRandomPipeline(randomSpecOfForm(params, rest), parseAppParams(rest));
            }};
}

std::string randomSpecOfForm(const AppParams &params, std::vector<std::string> &otherParams) {
    RandomSpec spec;
    auto get = [&params](const char *key) {
        auto it = params.find(key);
        return it == params.end() ? int64_t(0) : it->second;
    };
    spec.seed = std::uint64_t(get("seed"));
    spec.stages = int(get("stages"));
    otherParams.clear();
    if (get("size") != 0) otherParams.push_back("size=" + std::to_string(get("size")));
    std::string text = "random:" + std::to_string(spec.seed);
    if (spec.stages != 0) text += ":" + std::to_string(spec.stages);
    return text;
}

} // namespace beamscope
