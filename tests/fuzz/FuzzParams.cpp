// Fuzzes -p key=value assignments (one per input line): catalog parameters, parsed and used to
// build an app (range checks included), and generator parameters.
#include "FuzzHarness.h"
#include "pipeline/AppCatalog.h"
#include "pipeline/GeneratorLibrary.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const auto assignments = beamscope::fuzz::asLines(data, size);
    beamscope::fuzz::expectParsedOrRefused([&] {
        const beamscope::AppParams params = beamscope::parseAppParams(assignments);
        (void)beamscope::buildApp("unsharp_mask", params);
    });
    beamscope::fuzz::expectParsedOrRefused([&] { (void)beamscope::parseKeyValues(assignments); });
    return 0;
}
