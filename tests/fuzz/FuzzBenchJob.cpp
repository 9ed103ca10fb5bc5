// Fuzzes the benchmark job JSON a worker reads (beamscope-worker JOB.json).
#include "FuzzHarness.h"
#include "measure/BenchJob.h"

#include <nlohmann/json.hpp>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const auto json = nlohmann::json::parse(beamscope::fuzz::asText(data, size), nullptr, false);
    if (json.is_discarded()) return 0; // the worker reports invalid JSON before fromJson
    beamscope::fuzz::expectParsedOrRefused([&] {
        const beamscope::BenchJob job = beamscope::BenchJob::fromJson(json);
        (void)beamscope::BenchJob::fromJson(job.toJson());
    });
    return 0;
}
