// SharedOptions: the definitions of the options both front ends take, beamscope-cli (CLI11,
// app/cli/CliOption.h) and the beamscope GUI (QCommandLineParser, app/gui/CommandLine.cpp): each
// option's name, value name, help line and, for an integer, its range. A name, a help line or a
// limit is written here once. Plain C++: neither CLI11 nor Qt.
#pragma once

namespace beamscope::options {

struct Definition {
    const char *name;      ///< the long name without its dashes ("beam")
    const char *shortName; ///< a one-letter alias ("p"), or ""
    const char *valueName; ///< what the value is, in the GUI's --help ("N")
    const char *help;      ///< one line, as both front ends' --help show it
    int min = 0, max = 0;  ///< an integer's range; max 0: no range
};

// Where the pipeline comes from (with the app's name: the CLI's APP, the GUI's --app).
inline constexpr Definition generatorLib{
    "generator-lib", "", "PATH",
    "shared library of Halide generators built against Beamscope's Halide"};
inline constexpr Definition generatorPy{
    "generator-py", "", "FILE.py",
    "Python file of @hl.generator classes (Halide's Python bindings)"};
inline constexpr Definition pipelineFile{
    "pipeline-file", "", "FILE.hlpipe",
    "pipeline written by Halide's serialize_pipeline (.hlpipe); give input estimates with "
    "--estimate and scalars with --input"};
inline constexpr Definition param{"param", "p", "key=value", "parameter as key=value (repeatable)"};
inline constexpr Definition estimate{
    "estimate", "", "spec",
    "output (or input buffer) estimate as NAME=MIN:EXTENT[,MIN:EXTENT...] (repeatable), e.g. "
    "output=0:1920,0:1080"};
inline constexpr Definition input{
    "input", "", "NAME=VALUE",
    "scalar input value as NAME=VALUE (repeatable), e.g. amount=0.5; an input not given takes "
    "its estimate, else the generator's default"};

// The search.
inline constexpr Definition beam{"beam", "", "N", "beam size (1: greedy)", 1, 4096};
inline constexpr Definition passes{"passes", "", "N", "passes (hash depth grows per pass)", 1, 16};
inline constexpr Definition seed{"seed", "", "N", "seed of the sampling PRNG"};
inline constexpr Definition gpu{"gpu", "", "NAME",
                                "GPU preset (v100, a100, h100, h200, rtx4090, pocl-cpu) or JSON file"};
inline constexpr Definition pins{"pins", "", "FILE", "JSON pin file"};
inline constexpr Definition freezeMinFuncs{
    "freeze-min-funcs",
    "",
    "N",
    "freeze (the root/inline pre-pass) only pipelines of at least N Funcs (default 10; 0: every "
    "pipeline, as the paper's configuration)",
    0,
    100000};
inline constexpr Definition costModel{
    "cost-model", "", "SPEC",
    "cost model: analytic (appendix B), polymage (PolyMage-GPU's scorer), pretrained (the "
    "learned model shipped for NVIDIA GPUs) or a learned model file (default: pretrained on "
    "NVIDIA presets, else analytic)"};

// Measuring.
/// Each front end appends its default.
inline constexpr Definition database{"db", "", "PATH",
                                     "measurement database to record in and reuse from"};

} // namespace beamscope::options
