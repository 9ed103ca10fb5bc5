// Fuzzes --estimate NAME=MIN:EXTENT[,...] values (one per input line) on a real pipeline.
#include "FuzzHarness.h"
#include "pipeline/AppCatalog.h"
#include "pipeline/Estimates.h"

namespace {
const beamscope::PipelineInstance *g_instance = nullptr;
}

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
    static const beamscope::PipelineInstance instance = beamscope::buildApp("unsharp_mask");
    g_instance = &instance;
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const auto specs = beamscope::fuzz::asLines(data, size);
    beamscope::fuzz::expectParsedOrRefused(
        [&] { beamscope::applyOutputEstimates(*g_instance, specs); });
    return 0;
}
