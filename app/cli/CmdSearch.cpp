// `beamscope-cli search APP [options]`: run the beam search and print the best schedule.
#include "Commands.h"
#include "SearchCliOptions.h"

#include "cost/PolyMageCostModel.h"
#include "search/SearchReport.h"
#include "search/TraceReader.h"
#include "util/Error.h"

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <iostream>

namespace beamscope::cli {

namespace {

struct SearchArgs {
    PipelineSource source;
    SearchCliOptions search;
    std::string trace;
    bool json = false;
    bool features = false;
    std::string format = "text";
};

void printFeatures(const SearchEngine &engine, std::ostream &os) {
    Featurizer featurizer(engine.options().gpu, false);
    const ScheduleState &state = *engine.best()->state;
    for (const auto &kernel : featurizer.featurize(state)) {
        for (const StageFeatureRow &row : *kernel) {
            os << "features of " << state.dag().node(row.node).stages[size_t(row.stage)].name << ":\n";
            row.features.dump(os, "  ");
        }
    }
}

void printText(const SearchEngine &engine, std::ostream &os) {
    const BeamEntry *best = engine.best();
    const FunctionDAG &dag = engine.dag();
    os << "pipeline " << dag.pipelineName() << " on " << engine.options().gpu.name << "\n";
    const std::vector<std::string> names = engine.costModel().termNames();
    // PolyMage's scorer is unitless; the analytic and learned models predict milliseconds.
    const bool unitless = dynamic_cast<const PolyMageCostModel *>(&engine.costModel()) != nullptr;
    os << "predicted cost " << std::setprecision(6) << best->cost.total
       << (unitless ? " (" : " ms (");
    for (size_t t = 0; t < names.size(); ++t) {
        os << (t ? ", " : "") << names[t] << " " << best->cost.terms[t];
    }
    os << ")\n";
    const SearchCounters &c = engine.counters();
    os << "enumerated " << c.enumerated << ", pruned " << c.pruned << ", evaluated " << c.evaluated
       << ", featurizations " << c.featurizations << ", memo hits " << c.memoHits << ", frozen "
       << engine.frozen().size()
       << (engine.freezes() ? std::string() : " (freezing " + engine.freezingSummary() + ")")
       << ", " << std::setprecision(4) << engine.elapsedMs() << " ms\n\n";
    os << std::left << std::setw(28) << "stage";
    // Columns are 13 wide, wider where a term's name needs it.
    std::vector<int> widths;
    for (const std::string &name : names)
        widths.push_back(std::max(13, int(name.size()) + 1));
    for (size_t t = 0; t < names.size(); ++t)
        os << std::right << std::setw(widths[t]) << names[t];
    os << "\n";
    for (const StageCost &sc : best->cost.stages) {
        os << std::left << std::setw(28) << dag.node(sc.node).stages[size_t(sc.stage)].name;
        for (size_t t = 0; t < names.size(); ++t)
            os << std::right << std::setw(widths[t]) << std::setprecision(4) << sc.terms[t];
        os << "\n";
    }
    os << "\n";
    best->state->printLoopNest(os);
}

} // namespace

void addSearchCommand(CLI::App &app, CommandAction &action) {
    auto *command = app.add_subcommand("search", "run the GPU beam search and print the best schedule");
    auto args = std::make_shared<SearchArgs>();
    addPipelineOptions(*command, args->source);
    args->search.addTo(*command);
    command->add_option("--trace", args->trace,
                        "write one JSON line per step to this file (the first line also carries "
                        "the search; the GUI opens it)");
    command->add_flag("--json", args->json, "print the result as JSON");
    command->add_flag("--features", args->features, "also print every stage's features (text format)");
    command->add_option("--format", args->format, "text or json")->check(CLI::IsMember({"text", "json"}));
    command->callback([&action, args] {
        action = [args] {
            const SearchOptions options = args->search.build();
            auto dag = std::make_shared<const FunctionDAG>(loadPipeline(args->source));
            SearchEngine engine(dag, options);
            std::ofstream trace;
            if (!args->trace.empty()) {
                trace.open(args->trace);
                if (!trace) throw Error("cannot write trace file '" + args->trace + "'");
            }
            while (!engine.finished()) {
                SearchStepPtr step = engine.step();
                if (!trace.is_open()) continue;
                nlohmann::json line = stepToJson(*step, *dag);
                // The first line carries the search, so that the GUI can replay the trace.
                if (step->index == 0) line["search"] = traceSearchToJson(args->source, options);
                trace << line.dump() << "\n";
            }
            if (args->json || args->format == "json") {
                std::cout << searchResultToJson(engine).dump(2) << "\n";
            } else {
                printText(engine, std::cout);
                if (args->features) printFeatures(engine, std::cout);
            }
            return 0;
        };
    });
}

} // namespace beamscope::cli
