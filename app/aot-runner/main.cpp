// beamscope-aot-runner JOB.json: runs one Slurm job's shipped artifact (AotNodeRun.h) on a node
// that has no Halide, and prints its Measurement as one JSON line on stdout, as beamscope-worker
// does. Exit 0 when a Measurement was produced (the candidate may still have failed: see its
// "failure"); 1 with {"failure": "..."} when the job could not be run at all; 2 for bad usage.
// --outputs DIR also writes the candidate's outputs there (output-K.raw), for tests and for
// looking at a result. Links neither libHalide nor LLVM: `ldd beamscope-aot-runner` shows libc,
// libstdc++ and libdl.
#include "measure/AotNodeRun.h"

#include <fstream>
#include <iostream>
#include <iterator>

namespace {

int fail(const std::string &message) {
    std::cout << nlohmann::json{{"failure", message}}.dump() << std::endl;
    return 1;
}

} // namespace

int main(int argc, char **argv) {
    std::string outputs;
    if (argc == 4 && std::string(argv[1]) == "--outputs") {
        outputs = argv[2];
        argv += 2;
        argc -= 2;
    }
    if (argc != 2 || std::string(argv[1]) == "--help" || argv[1][0] == '-') {
        std::cerr << "usage: beamscope-aot-runner [--outputs DIR] JOB.json\n";
        return 2;
    }
    std::ifstream in(argv[1]);
    if (!in) return fail("cannot read job file '" + std::string(argv[1]) + "'");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    try {
        const beamscope::Measurement m =
            beamscope::runShippedJob(nlohmann::json::parse(text), outputs);
        std::cout << m.toJson().dump() << std::endl;
        return 0;
    } catch (const nlohmann::json::exception &e) {
        return fail(std::string("bad job JSON: ") + e.what());
    } catch (const std::exception &e) {
        return fail(e.what());
    }
}
