// `beamscope-cli compare APP [pipeline and search options] --with BASELINE|FILE [--json]`:
// Beamscope's search against a Halide autoscheduler's schedule (or a schedule file), imported
// into Beamscope's terms: per Func both decisions, whether theirs is representable (and why
// not), both predicted costs with their terms, and what the search did with each imported
// decision (Why not?).
#include "Commands.h"
#include "SearchCliOptions.h"

#include "bench/BaselineImport.h"
#include "search/ImportComparison.h"

#include <iostream>

namespace beamscope::cli {

namespace {

struct CompareArgs {
    PipelineSource source;
    SearchCliOptions search;
    std::string with;
    bool json = false;
};

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
    command->callback([&action, args] {
        action = [args] {
            const SearchOptions options = args->search.build();
            const ForeignSchedule theirs = importForeign(args->with, args->source, options.gpu);
            auto dag = std::make_shared<const FunctionDAG>(loadPipeline(args->source));
            const ImportComparison c = compareWithImport(dag, options, theirs.imported, theirs.what);
            if (args->json) {
                std::cout << comparisonToJson(c).dump(2) << "\n";
            } else {
                printComparison(c, std::cout);
            }
            return 0;
        };
    });
}

} // namespace beamscope::cli
