// beamscope-history-memory: what keeping a search's step history costs in memory. Runs a whole
// search of APP the way the GUI's worker does and keeps, per MODE, only the latest step (what the
// GUI kept before it had a history), every step as the StepHistory record the GUI keeps
// ("history"), or every whole step ("whole": candidates, buckets, pruned lists and their
// derivations too). Prints steps, peak RSS (getrusage) and the records' own bytes. MODE replay
// also times what showing an older step costs: SearchReplayer recomputing the middle step and the
// last one from the seed (after the search, as the GUI does). With --trace, opens a
// `beamscope-cli search --trace` file as File > Open trace… does (TraceReader::replay: the search
// run again and every step checked against its line) and keeps every step whole (as the GUI did
// first) or as a StepHistory record (as it does now); prints the open time too.
//   beamscope-history-memory APP latest|history|whole|replay [BEAM] [-p key=value]...
//   beamscope-history-memory --trace FILE history|whole
#include "controllers/SearchReplayer.h"
#include "controllers/StepHistory.h"
#include "pipeline/PipelineSource.h"
#include "search/SearchEngine.h"
#include "search/TraceReader.h"

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <vector>

using namespace beamscope;

namespace {

double peakRssMb() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0;
}

/// --trace FILE MODE: opens the trace as the GUI does and keeps its steps per MODE.
int openTrace(const std::string &path, const std::string &mode) {
    const auto start = std::chrono::steady_clock::now();
    const TraceReader reader(path);
    StepHistory history;
    TraceReplay replay;
    if (mode == "history")
        replay = reader.replay(nullptr, {}, [&history](const SearchStepPtr &step) {
            history.append(StepHistory::record(step, false));
        });
    else
        replay = reader.replay();
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    const size_t steps = mode == "history" ? size_t(history.size()) : replay.steps.size();
    std::printf("trace %s mode %s: %zu steps, opened in %.2f s, peak RSS %.1f MB, history records "
                "%.1f MB\n",
                path.c_str(), mode.c_str(), steps, took.count(), peakRssMb(),
                double(history.ownBytes()) / 1e6);
    return 0;
}

} // namespace

int main(int argc, char **argv) {
    if (argc == 4 && std::strcmp(argv[1], "--trace") == 0) {
        const std::string mode = argv[3];
        if (mode != "history" && mode != "whole") {
            std::fprintf(stderr, "%s: unknown trace mode '%s' (history or whole)\n", argv[0],
                         mode.c_str());
            return 2;
        }
        try {
            return openTrace(argv[2], mode);
        } catch (const std::exception &e) {
            std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
            return 1;
        }
    }
    if (argc < 3) {
        std::fprintf(stderr,
                     "usage: %s APP latest|history|whole|replay [BEAM] [-p key=value]...\n"
                     "       %s --trace FILE history|whole\n",
                     argv[0], argv[0]);
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
        std::printf("%s beam %d mode %s: %d steps, peak RSS %.1f MB, history records %.1f MB\n",
                    source.name.c_str(), options.beamSize, mode.c_str(), latest->index + 1,
                    peakRssMb(), double(history.ownBytes()) / 1e6);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
        return 1;
    }
    return 0;
}
