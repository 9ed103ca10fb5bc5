// beamscope-history-memory: what keeping a search's step history costs in memory. Runs a whole
// search of APP the way the GUI's worker does and keeps, per MODE, only the latest step (what the
// GUI kept before it had a history), every step as the StepHistory record the GUI keeps
// ("history"), or every whole step ("whole": candidates, buckets, pruned lists and their
// derivations too). Prints steps, peak RSS (getrusage) and the records' own bytes. MODE replay
// also times what showing an older step costs: SearchReplayer recomputing the middle step and the
// last one from the seed (after the search, as the GUI does).
//   beamscope-history-memory APP latest|history|whole|replay [BEAM] [-p key=value]...
#include "controllers/SearchReplayer.h"
#include "controllers/StepHistory.h"
#include "pipeline/PipelineSource.h"
#include "search/SearchEngine.h"

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <vector>

using namespace beamscope;

int main(int argc, char **argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s APP latest|history|whole|replay [BEAM] [-p key=value]...\n",
                     argv[0]);
        return 2;
    }
    const std::string mode = argv[2];
    if (mode != "latest" && mode != "history" && mode != "whole" && mode != "replay") {
        std::fprintf(stderr, "%s: unknown mode '%s'\n", argv[0], mode.c_str());
        return 2;
    }
    try {
        PipelineSource source;
        source.name = argv[1];
        SearchOptions options;
        options.gpu = GpuSpec::load("v100");
        for (int i = 3; i < argc; ++i) {
            if (std::strcmp(argv[i], "-p") == 0 && i + 1 < argc)
                source.params.push_back(argv[++i]);
            else
                options.beamSize = std::stoi(argv[i]);
        }
        auto dag = std::make_shared<const FunctionDAG>(loadPipeline(source));
        SearchEngine engine(dag, options);
        StepHistory history;
        std::vector<SearchStepPtr> whole;
        SearchStepPtr latest;
        while (!engine.finished()) {
            latest = engine.step();
            if (mode == "history") history.append(StepHistory::record(latest, false));
            if (mode == "whole") whole.push_back(latest);
        }
        if (mode == "replay") {
            const int last = latest->index;
            for (int k : {last / 2, last}) {
                SearchReplayer replayer;
                replayer.reset(dag, options);
                const auto start = std::chrono::steady_clock::now();
                replayer.stepAt(k);
                const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
                std::printf("replaying step %d of %d: %.2f s\n", k + 1, last + 1, took.count());
            }
        }
        rusage usage{};
        getrusage(RUSAGE_SELF, &usage);
        std::printf("%s beam %d mode %s: %d steps, peak RSS %.1f MB, history records %.1f MB\n",
                    source.name.c_str(), options.beamSize, mode.c_str(), latest->index + 1,
                    double(usage.ru_maxrss) / 1024.0, double(history.ownBytes()) / 1e6);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
        return 1;
    }
    return 0;
}
