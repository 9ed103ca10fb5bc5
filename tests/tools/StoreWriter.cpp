// beamscope-store-writer: a test helper that writes to a measurement database
// from its own process, for the tests of concurrent readers and of a writer
// killed mid-run. Usage: beamscope-store-writer DB N [PAUSE_MS] Adds N records
// (schedule i = 0..N-1 of stencil_chain), each in its own transaction through
// MeasurementStore::add(), and prints each committed row id on its own line of
// stdout, flushed at once, so that a parent knows which rows were committed.
// PAUSE_MS (default 0) sleeps between records. Errors: one line on stderr, exit
// 1 (2 for usage).
#include "../core/MeasurementStoreTestUtil.h"

#include <chrono>
#include <cstdio>
#include <exception>
#include <string>
#include <thread>

int main(int argc, char **argv) {
    if (argc < 3 || argc > 4) {
        std::fprintf(stderr, "usage: beamscope-store-writer DB N [PAUSE_MS]\n");
        return 2;
    }
    try {
        const std::string path = argv[1];
        const long long n = std::stoll(argv[2]);
        const int pauseMs = argc == 4 ? std::stoi(argv[3]) : 0;
        beamscope::MeasurementStore store(path);
        for (long long i = 0; i < n; ++i) {
            beamscope::MeasurementRecord record =
                beamscope::testing::sampleRecord("stencil_chain", int(i), 1.0 + double(i % 7));
            record.measurement.label = "writer#" + std::to_string(i);
            const std::int64_t id = store.add(record);
            std::printf("%lld\n", static_cast<long long>(id));
            std::fflush(stdout);
            if (pauseMs > 0) std::this_thread::sleep_for(std::chrono::milliseconds(pauseMs));
        }
    } catch (const std::exception &e) {
        std::fprintf(stderr, "beamscope-store-writer: %s\n", e.what());
        return 1;
    }
    return 0;
}
