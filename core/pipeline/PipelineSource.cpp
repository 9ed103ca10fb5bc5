// loadPipeline: dispatches to the catalog, a random pipeline (random:SEED), a generator library,
// a Python generator file or a .hlpipe file (user code first in a process of its own when
// isolation is on), binds scalar inputs, applies estimate overrides, then checks estimates.
#include "pipeline/PipelineSource.h"

#include "pipeline/AppCatalog.h"
#include "pipeline/Estimates.h"
#include "pipeline/GeneratorLibrary.h"
#include "pipeline/PythonGenerator.h"
#include "pipeline/ScalarInputs.h"
#include "pipeline/SerializedPipeline.h"
#include "pipeline/UserCodeIsolation.h"
#include "pipeline/random/RandomPipeline.h"
#include "util/Error.h"

namespace beamscope {

const std::string &userFile(const PipelineSource &source) {
    if (!source.generatorPython.empty()) return source.generatorPython;
    if (!source.pipelineFile.empty()) return source.pipelineFile;
    return source.generatorLibrary;
}

void setUserFile(PipelineSource &source, const std::string &path) {
    const auto endsWith = [&path](const std::string &suffix) {
        return path.size() >= suffix.size() &&
               path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    source.generatorLibrary.clear();
    source.generatorPython.clear();
    source.pipelineFile.clear();
    if (endsWith(".py"))
        source.generatorPython = path;
    else if (endsWith(".hlpipe"))
        source.pipelineFile = path;
    else
        source.generatorLibrary = path;
}

void checkPipelineSource(const PipelineSource &source) {
    const int files = int(!source.generatorLibrary.empty()) + int(!source.generatorPython.empty()) +
                      int(!source.pipelineFile.empty());
    if (files > 1) {
        throw UsageError("give one of --generator-lib, --generator-py and --pipeline-file");
    }
    if (!source.pipelineFile.empty() && !source.params.empty()) {
        throw UsageError("a pipeline file takes no generator params (-p): it is built already");
    }
}

PipelineInstance loadPipeline(const PipelineSource &source) {
    checkPipelineSource(source);
    const UserCodeIsolationOptions isolation = userCodeIsolation();
    PipelineInstance instance;
    if (!source.generatorPython.empty()) {
        // Always in a Python process of its own, whatever the isolation policy.
        instance = buildPythonGenerator(source.generatorPython, source.name,
                                        parseKeyValues(source.params), isolation.timeoutS);
    } else if (!source.pipelineFile.empty()) {
        if (isolation.enabled) buildInChildProcess(source, isolation);
        instance = loadSerializedPipeline(source.pipelineFile, source.name);
    } else if (!source.generatorLibrary.empty()) {
        if (isolation.enabled) buildInChildProcess(source, isolation);
        GeneratorLibrary library = GeneratorLibrary::open(source.generatorLibrary);
        instance = library.build(source.name, parseKeyValues(source.params));
    } else if (isRandomSpec(source.name)) {
        instance = buildRandomPipeline(source.name, parseAppParams(source.params));
    } else {
        instance = buildApp(source.name, parseAppParams(source.params));
    }
    bindScalarInputs(instance, source.inputs);
    applyOutputEstimates(instance, source.estimates);
    requireEstimates(instance);
    return instance;
}

} // namespace beamscope
