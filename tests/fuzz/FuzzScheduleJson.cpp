// Fuzzes schedule JSON (in sessions, bench jobs and the database) replayed onto a real DAG (the
// stencil chain); an accepted schedule must write back to JSON that replays to the same JSON.
#include "FuzzHarness.h"
#include "dag/FunctionDAG.h"
#include "pipeline/AppCatalog.h"
#include "schedule/ScheduleIO.h"

#include <nlohmann/json.hpp>

namespace {
std::shared_ptr<const beamscope::FunctionDAG> g_dag;
}

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
    g_dag = std::make_shared<const beamscope::FunctionDAG>(
        beamscope::buildApp("stencil_chain", {{"length", 4}}));
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const auto json = nlohmann::json::parse(beamscope::fuzz::asText(data, size), nullptr, false);
    if (json.is_discarded()) return 0;
    beamscope::fuzz::expectParsedOrRefused([&] {
        const auto state = beamscope::scheduleFromJson(g_dag, json);
        const nlohmann::json written = beamscope::scheduleToJson(*state);
        const auto again = beamscope::scheduleFromJson(g_dag, written);
        if (beamscope::scheduleToJson(*again) != written)
            beamscope::fuzz::reject("schedule JSON does not round-trip", written.dump().c_str());
    });
    return 0;
}
