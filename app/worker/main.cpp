// beamscope-worker JOB.json | -: runs one benchmark job (BenchJob JSON, from the file or stdin)
// and prints its Measurement as one JSON line on stdout. Exit 0 when a Measurement was
// produced (the candidate may still have failed: see its "failure"); exit 1 with
// {"failure": "..."} when the job could not be run at all; 2 for bad usage. --version prints
// the version.
#include "bench/WorkerTask.h"
#include "util/Error.h"
#include "util/Version.h"

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
    using namespace beamscope;
    if (argc == 2 && std::string(argv[1]) == "--version") {
        std::cout << "beamscope-worker " << versionLine() << "\n";
        return 0;
    }
    if (argc != 2 || std::string(argv[1]) == "--help") {
        std::cerr << "usage: beamscope-worker JOB.json | - | --version\n";
        return 2;
    }
    std::string text;
    const std::string path = argv[1];
    if (path == "-") {
        text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    } else {
        std::ifstream in(path);
        if (!in) return fail("cannot read job file '" + path + "'");
        text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    try {
        const nlohmann::json json = nlohmann::json::parse(text);
        const Measurement m = executeJob(BenchJob::fromJson(json));
        std::cout << m.toJson().dump() << std::endl;
        return 0;
    } catch (const nlohmann::json::exception &e) {
        return fail(std::string("bad job JSON: ") + e.what());
    } catch (const std::exception &e) {
        return fail(e.what());
    } catch (const Halide::Error &e) {
        return fail(std::string("Halide: ") + detail::firstLine(e.what()));
    }
}
