// beamscope-worker JOB.json | -: runs one benchmark job (BenchJob JSON, from the file or stdin)
// and prints its Measurement as one JSON line on stdout. Exit 0 when a Measurement was
// produced (the candidate may still have failed: see its "failure"); exit 1 with
// {"failure": "..."} when the job could not be run at all; 2 for bad usage. --version prints
// the version.
//   beamscope-worker --triage JOB.json KERNEL.cl: crash triage of a job (CrashTriage.h): the
//     schedule on the host with bounds checks, then its OpenCL kernels written to KERNEL.cl;
//     each finding is a JSON line on stdout.
//   beamscope-worker --build-pipeline SOURCE_JSON: builds a user's pipeline (PipelineSource as
//     JSON) and nothing else; exit 0 with {"built": true}, 1 with {"failure": ...}. The front ends
//     run it first (UserCodeIsolation.h), so user code that crashes or hangs kills only this.
//   beamscope-worker --build-opencl KERNEL.cl: builds that source alone on the OpenCL device;
//     exit 0 with {"built": true, ...}, 1 with {"failure": ...}; a compiler crash kills it.
//   beamscope-worker --import WITH SOURCE_JSON GPU_JSON: imports the schedule WITH names (a
//     Halide autoscheduler or a schedule file, BaselineImport.h) for a pipeline (PipelineSource as
//     JSON) and a GPU spec (JSON); exit 0 with the ForeignSchedule as one JSON line
//     (ForeignScheduleJson.h), 1 with {"failure": ...}. The GUI runs imports this way so that a
//     plugin searching for minutes can be stopped.
#include "bench/ForeignScheduleJson.h"
#include "measure/CrashTriage.h"
#include "measure/OpenClBuild.h"
#include "measure/WorkerTask.h"
#include "pipeline/GeneratorLibrary.h"
#include "pipeline/PipelineSourceJson.h"
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

bool readFile(const std::string &path, std::string &text) {
    std::ifstream in(path);
    if (!in) return false;
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return true;
}

int buildOpenCl(const std::string &path) {
    std::string source;
    if (!readFile(path, source)) return fail("cannot read kernel file '" + path + "'");
    const beamscope::OpenClBuildResult result = beamscope::buildOpenClProgram(source);
    if (!result.built) return fail(result.error);
    std::cout << nlohmann::json{{"built", true}, {"device", result.device}}.dump() << std::endl;
    return 0;
}

/// Runs one job body; what it throws becomes the one-line {"failure": ...} the runners read.
template <typename Body> int guarded(Body body) {
    try {
        return body();
    } catch (const nlohmann::json::exception &e) {
        return fail(std::string("bad job JSON: ") + e.what());
    } catch (const std::exception &e) {
        return fail(e.what());
    } catch (const Halide::Error &e) {
        return fail(std::string("Halide: ") + beamscope::detail::firstLine(e.what()));
    }
}

int buildPipeline(const std::string &sourceJson) {
    using namespace beamscope;
    return guarded([&] {
        const PipelineSource source = pipelineSourceFromJson(nlohmann::json::parse(sourceJson));
        if (source.name.empty() && !source.generatorLibrary.empty()) { // open it, build nothing
            const GeneratorLibrary library = GeneratorLibrary::open(source.generatorLibrary);
            std::cout << nlohmann::json{{"built", true}, {"generators", library.generators()}}
                      << std::endl;
            return 0;
        }
        const PipelineInstance instance = loadPipeline(source);
        std::cout << nlohmann::json{{"built", true},
                                    {"outputs", instance.pipeline.outputs().size()}}
                  << std::endl;
        return 0;
    });
}

int importSchedule(const std::string &with, const std::string &sourceJson,
                   const std::string &gpuJson) {
    using namespace beamscope;
    return guarded([&] {
        const PipelineSource source = pipelineSourceFromJson(nlohmann::json::parse(sourceJson));
        const GpuSpec gpu = GpuSpec::fromJson(nlohmann::json::parse(gpuJson));
        std::cout << foreignScheduleToJson(importForeign(with, source, gpu)).dump() << std::endl;
        return 0;
    });
}

int triage(const std::string &jobPath, const std::string &kernelPath) {
    using namespace beamscope;
    std::string text;
    if (!readFile(jobPath, text)) return fail("cannot read job file '" + jobPath + "'");
    return guarded([&] {
        triageOnHost(BenchJob::fromJson(nlohmann::json::parse(text)), kernelPath,
                     [](const nlohmann::json &finding) {
                         std::cout << finding.dump() << std::endl; // flushed: a crash keeps it
                     });
        return 0;
    });
}

} // namespace

int main(int argc, char **argv) {
    using namespace beamscope;
    if (argc == 2 && std::string(argv[1]) == "--version") {
        std::cout << "beamscope-worker " << versionLine() << "\n";
        return 0;
    }
    if (argc == 3 && std::string(argv[1]) == "--build-opencl") return buildOpenCl(argv[2]);
    if (argc == 3 && std::string(argv[1]) == "--build-pipeline") return buildPipeline(argv[2]);
    if (argc == 4 && std::string(argv[1]) == "--triage") return triage(argv[2], argv[3]);
    if (argc == 5 && std::string(argv[1]) == "--import")
        return importSchedule(argv[2], argv[3], argv[4]);
    if (argc != 2 || std::string(argv[1]) == "--help") {
        std::cerr << "usage: beamscope-worker JOB.json | - | --version | --triage JOB.json "
                     "KERNEL.cl | --build-opencl KERNEL.cl | --build-pipeline SOURCE_JSON | "
                     "--import WITH "
                     "SOURCE_JSON GPU_JSON\n";
        return 2;
    }
    std::string text;
    const std::string path = argv[1];
    if (path == "-") {
        text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    } else if (!readFile(path, text)) {
        return fail("cannot read job file '" + path + "'");
    }
    return guarded([&] {
        const Measurement m = executeJob(BenchJob::fromJson(nlohmann::json::parse(text)));
        std::cout << m.toJson().dump() << std::endl;
        return 0;
    });
}
