// CommandLine: the GUI's arguments — beamscope [--app APP] [-p key=value]... [--generator-lib
// PATH | --generator-py FILE.py | --pipeline-file FILE.hlpipe] [--beam N] [--passes N] [--seed N]
// [--freeze-min-funcs N] [--gpu NAME] [--pins FILE.json] [--steps N]
// [--dock NAME] [--bench K[,BASELINE...]] [--tune ROUNDS,BATCH] [--db PATH] [--cost-model SPEC]
// [--show-step K] [--compare A,B | --compare-with WITH] [--screenshot FILE.png] [SESSION.json].
// Checked before any window opens; bad input is a UsageError with one line.
#pragma once

#include "pipeline/PipelineSource.h"
#include "search/Pins.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace beamscope {

struct GuiArguments {
    std::optional<PipelineSource> source; ///< --app (with -p and --generator-lib)
    QString session;                      ///< a session file to open
    int steps = 0;                        ///< steps to take once loaded
    QString screenshot;                   ///< save the window here after the steps, then exit
    QString dock;                         ///< a dock to show on top of its tab group
    int benchCount = 0;         ///< --bench K,...: benchmark the beam's top K before the screenshot
    QStringList benchBaselines; ///< the baselines named after K in --bench
    int tuneRounds = 0;         ///< --tune ROUNDS,BATCH: tune before the screenshot
    int tuneBatch = 0;
    int showStep = 0;               ///< --show-step K: go back to step K (1-based) before the shot
    int compareA = 0, compareB = 0; ///< --compare A,B: beam ranks (1-based) side by side
    QString compareWith;            ///< --compare-with: B imported (baseline or file)
    QString database;               ///< --db: the measurement database for this run
    QString costModel;              ///< --cost-model: analytic, polymage or a model file
    std::optional<int> beam, passes;
    std::optional<int> freezeMinFuncs; ///< --freeze-min-funcs
    std::optional<uint64_t> seed;
    QString gpu;           ///< preset name or JSON file
    std::vector<Pin> pins; ///< from --pins (the format of beamscope-cli search --pins)
};

/// Parses `arguments` (argv, program name first). Needs no QCoreApplication, so bad input is
/// reported before Qt starts (and prints its own warnings). Throws UsageError. --help and
/// --version print and exit from inside Qt's parser, which needs the application object: check
/// asksForHelp() first.
GuiArguments parseGuiArguments(const QStringList &arguments);

/// True if `arguments` ask for --help or --version.
bool asksForHelp(const QStringList &arguments);

} // namespace beamscope
