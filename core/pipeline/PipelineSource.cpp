// loadPipeline: dispatches to the catalog or a generator library, binds scalar inputs, then
// checks estimates.
#include "pipeline/PipelineSource.h"

#include "pipeline/AppCatalog.h"
#include "pipeline/Estimates.h"
#include "pipeline/GeneratorLibrary.h"
#include "pipeline/ScalarInputs.h"

namespace beamscope {

PipelineInstance loadPipeline(const PipelineSource &source) {
    PipelineInstance instance;
    if (source.generatorLibrary.empty()) {
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
