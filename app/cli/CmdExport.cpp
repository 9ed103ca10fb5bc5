// `beamscope-cli export APP [search options] --out FILE [--lang cpp|python|stmt|ptx]
// [--schedule FILE.json]`: search (or take a given schedule), then write it as a self-contained
// Halide C++ function, a Python module, or what Halide makes of it for the GPU: the lowered
// statement or the CUDA backend's PTX.
#include "Commands.h"
#include "SearchCliOptions.h"

#include "bench/BaselineImport.h"
#include "codegen/ScheduleApplier.h"
#include "codegen/SchedulePythonSource.h"
#include "codegen/ScheduleSource.h"
#include "cost/CostOf.h"
#include "measure/BufferLimits.h"
#include "measure/Compiler.h"
#include "schedule/ScheduleIO.h"
#include "util/AtomicFile.h"
#include "util/Error.h"

#include <filesystem>
#include <fstream>
#include <iostream>

namespace beamscope::cli {

namespace {

struct ExportArgs {
    PipelineSource source;
    SearchCliOptions search;
    std::string out;
    std::string function;
    bool noStaging = false;
    std::string lang = "cpp";
    std::string schedule;
    int64_t maxUnrolledPoints = 0; ///< 0: the schedule file's measurement's, else this build's
};

/// The target Halide lowers for on `gpu`: CUDA at its compute capability (capped where Halide's
/// backend stops), OpenCL for a device without one (pocl-cpu); large buffers where the
/// pipeline needs them, as a bench compiles it.
Halide::Target loweringTarget(const GpuSpec &gpu, const FunctionDAG &dag) {
    const Halide::Target target =
        gpu.computeCapability > 0 ? importTarget(gpu) : Halide::Target("host-opencl");
    return withBufferLimits(target, dag);
}

/// What Halide makes of `state` on `gpu`: its lowered statement (`stmt`) or the PTX of its
/// kernels (`ptx`, NVIDIA presets only), the schedule applied to `instance` (the unscheduled
/// pipeline state.dag() was built from) as a bench applies it.
std::string lowered(const ExportArgs &args, const ScheduleState &state, const GpuSpec &gpu,
                    const ScheduleCallOptions &calls, const PipelineInstance &instance) {
    const Halide::Target target = loweringTarget(gpu, state.dag());
    applySchedule(state, instance, target, calls);
    if (args.lang == "ptx") return compileToPtx(instance, gpu.computeCapability);
    // Halide writes the statement to a file: next to the output, then read back.
    const std::string scratch = args.out + ".lowering";
    std::string text;
    try {
        wrapHalideErrors("lowering " + state.dag().pipelineName(), [&] {
            Halide::Pipeline pipeline = instance.pipeline; // a handle: the same Funcs
            pipeline.compile_to_lowered_stmt(scratch, pipeline.infer_arguments(),
                                             Halide::StmtOutputFormat::Text, target);
        });
        std::ifstream in(scratch);
        text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    } catch (...) {
        std::error_code ignored;
        std::filesystem::remove(scratch, ignored); // whatever Halide left half written
        throw;
    }
    std::filesystem::remove(scratch);
    if (text.empty()) throw Error("Halide wrote no statement for " + state.dag().pipelineName());
    return text;
}

/// One line per kernel of `ptx`: ptxas's registers and spills for `cc` (what the post-compile
/// filter reads), when ptxas is installed; a ptxas failure is a warning (the PTX is written).
void printKernelResources(const std::string &ptx, int cc) {
    if (ptxasPath().empty()) return;
    try {
        const PtxReport report = runPtxas(ptx, cc);
        for (const KernelResources &k : report.kernels) {
            std::cout << "  " << k.name << ": " << k.registers << " registers, "
                      << k.spillStoreBytes + k.spillLoadBytes << " bytes spilled (ptxas "
                      << report.arch << ")\n";
        }
    } catch (const Error &e) {
        std::cerr << "warning: ptxas: " << e.what() << "\n";
    }
}

} // namespace

void addExportCommand(CLI::App &app, CommandAction &action) {
    auto *command = app.add_subcommand(
        "export", "search (or take --schedule) and write the schedule as Halide C++ or Python, "
                  "or Halide's lowered statement or PTX of it");
    auto args = std::make_shared<ExportArgs>();
    addPipelineOptions(*command, args->source);
    args->search.addTo(*command);
    command
        ->add_option("--out", args->out,
                     "the file to write (a C++ header, a .py module, a "
                     "statement or PTX)")
        ->required();
    command
        ->add_option("--lang", args->lang,
                     "cpp (a header), python (Halide's Python bindings), stmt (Halide's lowered "
                     "statement for the --gpu preset's target: CUDA, or OpenCL on pocl-cpu) or "
                     "ptx (the PTX of its kernels, NVIDIA presets), default cpp")
        ->check(CLI::IsMember({"cpp", "python", "stmt", "ptx"}));
    CLI::Option *scheduleOption =
        command->add_option("--schedule", args->schedule,
                            "write this schedule instead of searching: a JSON file as Beamscope "
                            "writes schedules (the measurement database's schedule column, a bench "
                            "report's candidate, a search --json report); a measured one is "
                            "lowered with the unroll limit it ran with");
    command
        ->add_option("--max-unrolled-points", args->maxUnrolledPoints,
                     "lower --schedule with this unroll limit (a measurement's "
                     "max_unrolled_points, for a schedule taken from the database's schedule "
                     "column; default: the file's measurement's, else " +
                         std::to_string(kMaxUnrolledPoints) + ")")
        ->check(CLI::Range(int64_t(1), int64_t(1) << 20))
        ->needs(scheduleOption);
    command->add_option("--function", args->function,
                        "name of the C++ function (default: apply_<app>_schedule)");
    command->add_flag(
        "--no-staging", args->noStaging,
        "do not stage producers in registers at their consumers' threads (paper 4.7)");
    command->callback([&action, args] {
        action = [args] {
            const SearchOptions options = args->search.build();
            if (args->lang == "ptx" && options.gpu.computeCapability <= 0)
                throw UsageError("--lang ptx needs an NVIDIA GPU preset (--gpu " +
                                 options.gpu.name + " has no CUDA compute capability)");
            // One instance: the DAG reads its algorithm, and stmt/ptx schedule its Funcs.
            const PipelineInstance instance = loadPipeline(args->source);
            auto dag = std::make_shared<const FunctionDAG>(instance);
            StatePtr state;
            StateCost cost;
            if (args->schedule.empty()) {
                SearchEngine engine(dag, options);
                engine.run();
                state = engine.best()->state;
                cost = engine.best()->cost;
            } else {
                try {
                    const ScheduleFile file = loadScheduleFile(args->schedule);
                    const int64_t limit = args->maxUnrolledPoints > 0 ? args->maxUnrolledPoints
                                                                      : file.maxUnrolledPoints;
                    if (limit != kMaxUnrolledPoints)
                        std::cerr << "export: lowered as measured, unrolling at most " << limit
                                  << " points per thread (this build: " << kMaxUnrolledPoints
                                  << ")\n";
                    state = scheduleFromJson(dag, file.schedule, limit);
                } catch (const Error &e) {
                    throw Error("--schedule " + args->schedule + ": " + e.what());
                }
                cost = costOf(*state, options.costModel, options.gpu).cost;
            }
            const std::string function = args->function.empty()
                                             ? defaultScheduleFunctionName(dag->pipelineName())
                                             : args->function;
            ScheduleCallOptions calls = ScheduleCallOptions::forGpu(options.gpu);
            calls.stageProducers = !args->noStaging;
            std::string text, what;
            if (args->lang == "stmt" || args->lang == "ptx") {
                text = lowered(*args, *state, options.gpu, calls, instance);
                what = args->lang == "ptx" ? "PTX" : "the lowered statement";
            } else if (args->lang == "python") {
                text = schedulePythonSource(*state, &cost, function, calls);
                what = function + "(pipeline)";
            } else {
                text = scheduleSource(*state, &cost, function, calls);
                what = function + "(Halide::Pipeline)";
            }
            // Written next to the target and renamed, so a failed write never leaves half a file.
            AtomicFile file(args->out);
            file.stream() << text;
            file.commit();
            std::cout << "wrote " << args->out << ": " << what << ", predicted " << cost.total
                      << " ms on " << options.gpu.name << "\n";
            if (args->lang == "ptx") printKernelResources(text, options.gpu.computeCapability);
            return 0;
        };
    });
}

} // namespace beamscope::cli
