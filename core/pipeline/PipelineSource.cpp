// loadPipeline: dispatches to the catalog, a random pipeline (random:SEED) or a generator library, binds scalar inputs, then
// checks estimates.
#include "pipeline/PipelineSource.h"

#include "pipeline/AppCatalog.h"
#include "pipeline/Estimates.h"
#include "pipeline/GeneratorLibrary.h"
#include "pipeline/ScalarInputs.h"
#include "pipeline/random/RandomPipeline.h"

namespace beamscope {

PipelineInstance loadPipeline(const PipelineSource &source) {
    PipelineInstance instance;
    if (source.generatorLibrary.empty() && isRandomSpec(source.name)) {
        instance = buildRandomPipeline(source.name, parseAppParams(source.params));
    } else if (source.generatorLibrary.empty()) {
        instance = buildApp(source.name, parseAppParams(source.params));
    } else {
        GeneratorLibrary library = GeneratorLibrary::open(source.generatorLibrary);
        instance = library.build(source.name, parseKeyValues(source.params));
    }
    bindScalarInputs(instance, source.inputs);
    applyOutputEstimates(instance, source.estimates);
    requireEstimates(instance);
    return instance;
}

} // namespace beamscope
