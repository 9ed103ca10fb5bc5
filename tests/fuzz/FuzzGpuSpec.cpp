// Fuzzes GPU spec JSON (--gpu FILE.json): parsed specs must also be safe to compute with, so
// the occupancy helpers run on every accepted spec (UBSan flags a division by zero or overflow).
#include "FuzzHarness.h"
#include "schedule/GpuSpec.h"

#include <nlohmann/json.hpp>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const auto json = nlohmann::json::parse(beamscope::fuzz::asText(data, size), nullptr, false);
    if (json.is_discarded()) return 0; // not JSON: GpuSpec::load refuses it before fromJson
    beamscope::fuzz::expectParsedOrRefused([&] {
        const beamscope::GpuSpec spec = beamscope::GpuSpec::fromJson(json, "fuzz.json");
        (void)spec.maxActiveThreads();
        for (int threads : {1, 32, 256, 1024})
            (void)spec.occupancy(threads, 4096, 32);
        (void)beamscope::GpuSpec::fromJson(spec.toJson(), "round trip");
    });
    return 0;
}
