// `beamscope-cli compare APP [pipeline and search options] --with BASELINE|FILE [--json]`:
// Beamscope's search against a Halide autoscheduler's schedule (or a schedule file), imported
// into Beamscope's terms: per Func both decisions, whether theirs is representable (and why
// not), both predicted costs with their terms, and what the search did with each imported
// decision (Why not?). With --measure, both schedules (and the plugin's own application of its
// schedule) are compiled and run on the local device as `bench` runs candidates.
#include "Commands.h"
#include "InterruptScope.h"
#include "SearchCliOptions.h"

#include "bench/BaselineImport.h"
#include "bench/BenchRun.h"
#include "search/ImportComparison.h"

#include <cmath>
#include <iomanip>
#include <iostream>

namespace beamscope::cli {

namespace {

struct CompareArgs {
    PipelineSource source;
    SearchCliOptions search;
    std::string with;
    bool json = false;
    bool measure = false;
    std::string device = "auto";
    int repeats = 5;
};

/// Measures ours, theirs as Beamscope applies it, and — when `with` is a baseline — the plugin's
/// own application, as `bench --mode topk` measures candidates (no measurement database).
BenchReport measureBoth(const CompareArgs &args, const SearchOptions &search,
                        const std::shared_ptr<const FunctionDAG> &dag, const ImportComparison &c) {
    BenchOptions options;
    options.source = args.source;
    options.device = parseDevicePreference(args.device);
    options.mode = BenchMode::TopK;
    options.search = search;
    options.dag = dag;
    options.repeats = args.repeats;
    std::vector<BenchCandidate> candidates;
    candidates.push_back({"ours", c.ours, c.oursCost.total, c.searchMs});
    if (c.theirs)
        candidates.push_back({"theirs", c.theirs, c.theirsCost ? c.theirsCost->total : NAN, 0});
    options.candidates = std::move(candidates);
    for (Baseline b : allBaselines())
        if (args.with == baselineName(b)) options.baselines = {b};
    options.progress = [](const std::string &line) { std::cerr << "compare: " << line << "\n"; };
    const InterruptScope interrupt;
    options.cancel = interrupt.token();
    return runBenchmark(options);
}

nlohmann::json measuredJson(const Measurement &m) {
    nlohmann::json j = {{"label", m.label}};
    j["median_ms"] = m.measuredMs && !m.failed() ? nlohmann::json(m.measuredMs->median) : nullptr;
    if (m.correct) j["correct"] = *m.correct;
    if (m.failed()) j["failure"] = m.failure;
    return j;
}

void printMeasured(const BenchReport &report, std::ostream &os) {
    os << "measured on " << report.device.name << " (median):\n";
    const auto row = [&os](const Measurement &m, const std::string &what) {
        os << "  " << std::left << std::setw(44) << what;
        if (m.failed())
            os << "failed: " << m.failure;
        else if (m.measuredMs)
            os << m.measuredMs->median << " ms" << (m.correct && !*m.correct ? " (WRONG)" : "");
        else
            os << "not run";
        os << "\n";
    };
    for (const Measurement &m : report.candidates)
        row(m, m.label == "ours" ? "ours (Beamscope's search)"
                                 : "theirs (imported, applied by Beamscope)");
    for (const Measurement &m : report.baselines)
        row(m, "theirs (" + m.label.substr(m.label.find(':') + 1) + "'s own application)");
}

} // namespace

void addCompareCommand(CLI::App &app, CommandAction &action) {
    auto *command = app.add_subcommand(
        "compare", "search, then compare with a Halide autoscheduler's schedule imported per Func");
    auto args = std::make_shared<CompareArgs>();
    addPipelineOptions(*command, args->source);
    args->search.addTo(*command);
    command
        ->add_option("--with", args->with,
                     "anderson2021, anderson2021-paper, li2018, mullapudi2016, naive, or a JSON "
                     "schedule file")
        ->required();
    command->add_flag("--json", args->json, "print the comparison as JSON");
    command->add_flag("--measure", args->measure,
                      "also compile and run both schedules (and the plugin's own application) on "
                      "the local device");
    command->add_option("--device", args->device, "with --measure: auto, cuda or opencl");
    command->add_option("--repeats", args->repeats, "with --measure: timed runs per schedule")
        ->check(CLI::Range(1, 1000));
    command->callback([&action, args] {
        action = [args] {
            const SearchOptions options = args->search.build();
            const ForeignSchedule theirs = importForeign(args->with, args->source, options.gpu);
            auto dag = std::make_shared<const FunctionDAG>(loadPipeline(args->source));
            const ImportComparison c =
                compareWithImport(dag, options, theirs.imported, theirs.what);
            std::optional<BenchReport> measured;
            if (args->measure) measured = measureBoth(*args, options, dag, c);
            if (args->json) {
                nlohmann::json j = comparisonToJson(c);
                if (theirs.autoschedulerMs > 0)
                    j["autoscheduler"] = {{"ms", theirs.autoschedulerMs},
                                          {"cached", theirs.fromCache}};
                if (measured) {
                    nlohmann::json rows = nlohmann::json::array();
                    for (const Measurement &m : measured->candidates)
                        rows.push_back(measuredJson(m));
                    for (const Measurement &m : measured->baselines)
                        rows.push_back(measuredJson(m));
                    j["measured"] = {{"device", measured->device.name}, {"rows", rows}};
                }
                std::cout << j.dump(2) << "\n";
            } else {
                if (theirs.autoschedulerMs > 0) {
                    std::cout << theirs.what << "'s search took " << theirs.autoschedulerMs / 1000.0
                              << " s"
                              << (theirs.fromCache ? " when it ran (its schedule from the baseline "
                                                     "schedule cache)"
                                                   : "")
                              << "\n";
                }
                printComparison(c, std::cout);
                if (measured) printMeasured(*measured, std::cout);
            }
            return measured && measured->cancelled ? 130 : 0;
        };
    });
}

} // namespace beamscope::cli
