// `beamscope-cli why APP [search options] --func NAME --location L [--host F] [--threads A,B]
// [--serial A,B] [--json]`: runs the search and says what happened to the described decision
// (not reached, pruned, not sampled, cut from the beam, or chosen).
#include "Commands.h"
#include "SearchCliOptions.h"

#include "search/WhyNot.h"
#include "util/Error.h"

#include <iostream>

namespace beamscope::cli {

namespace {

struct WhyArgs {
    PipelineSource source;
    SearchCliOptions search;
    std::string func, location, host;
    std::vector<int64_t> threads, serial;
    bool json = false;
};

ComputeKind kindFromName(const std::string &s) {
    if (s == "root") return ComputeKind::Root;
    if (s == "inline") return ComputeKind::Inline;
    if (s == "block") return ComputeKind::Block;
    return ComputeKind::Thread;
}

} // namespace

void addWhyCommand(CLI::App &app, CommandAction &action) {
    auto *command =
        app.add_subcommand("why", "run the search and say what happened to a decision (why not?)");
    auto args = std::make_shared<WhyArgs>();
    addPipelineOptions(*command, args->source);
    args->search.addTo(*command);
    command->add_option("--func", args->func, "the Func the decision is about")->required();
    command->add_option("--location", args->location, "root, inline, block or thread")
        ->required()
        ->check(CLI::IsMember({"root", "inline", "block", "thread"}));
    command->add_option("--host", args->host, "the consumer hosting a block or thread placement");
    command
        ->add_option("--threads", args->threads,
                     "thread tile sizes per dimension (root), e.g. 32,8")
        ->delimiter(',')
        ->check(CLI::PositiveNumber);
    command->add_option("--serial", args->serial, "serial tile sizes per dimension (root or block)")
        ->delimiter(',')
        ->check(CLI::PositiveNumber);
    command->add_flag("--json", args->json, "print the answer as JSON");
    command->callback([&action, args] {
        action = [args] {
            const SearchOptions options = args->search.build();
            auto dag = std::make_shared<const FunctionDAG>(loadPipeline(args->source));
            Pin decision;
            decision.func = args->func;
            decision.location = kindFromName(args->location);
            decision.host = args->host;
            decision.threads = args->threads;
            decision.serial = args->serial;
            const WhyResult result = whyNot(dag, options, decision);
            if (args->json) {
                std::cout << whyToJson(result).dump(2) << "\n";
            } else {
                printWhy(result, std::cout);
            }
            return 0;
        };
    });
}

} // namespace beamscope::cli
