// Fuzzes pin files (--pins FILE): parsing, then the feasibility check against a real DAG (the
// stencil chain), which is what a search runs before its first step.
#include "FuzzHarness.h"
#include "dag/FunctionDAG.h"
#include "pipeline/AppCatalog.h"
#include "search/Pins.h"

#include <nlohmann/json.hpp>

namespace {
const beamscope::FunctionDAG *g_dag = nullptr;
}

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
    static const beamscope::FunctionDAG dag(beamscope::buildApp("stencil_chain", {{"length", 4}}));
    g_dag = &dag;
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const auto json = nlohmann::json::parse(beamscope::fuzz::asText(data, size), nullptr, false);
    if (json.is_discarded()) return 0; // loadPinFile refuses invalid JSON before pinsFromJson
    beamscope::fuzz::expectParsedOrRefused([&] {
        const auto pins = beamscope::pinsFromJson(json);
        (void)beamscope::resolvePins(pins, *g_dag, beamscope::GpuSpec::defaultSpec());
    });
    return 0;
}
