// Fuzzes session files (File > Open session…).
#include "FuzzHarness.h"
#include "session/SessionFile.h"

#include <nlohmann/json.hpp>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const auto json = nlohmann::json::parse(beamscope::fuzz::asText(data, size), nullptr, false);
    if (json.is_discarded()) return 0; // SessionController refuses invalid JSON first
    beamscope::fuzz::expectParsedOrRefused([&] {
        const beamscope::Session session = beamscope::sessionFromJson(json);
        (void)beamscope::sessionFromJson(beamscope::sessionToJson(session));
    });
    return 0;
}
