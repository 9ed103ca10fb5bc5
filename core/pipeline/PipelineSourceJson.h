// PipelineSource <-> JSON, the form bench jobs and the isolated build of user code carry it in:
// {"app", "generator_lib", "generator_py", "pipeline_file", "params", "estimates", "inputs"}.
#pragma once

#include "pipeline/PipelineSource.h"

#include <nlohmann/json.hpp>

namespace beamscope {

/// The JSON object of `source`; the Python and .hlpipe keys only when set, so the jobs of other
/// pipelines read as before.
nlohmann::json pipelineSourceToJson(const PipelineSource &source);

/// `source` with the files it names (generator library, Python file, .hlpipe) by absolute
/// path, so that a job read in another directory (a Slurm task's) finds them; a file that does
/// not exist keeps its name (its error names it as the user wrote it).
PipelineSource withAbsoluteFiles(PipelineSource source);

/// The source in `j` (as written by pipelineSourceToJson). Throws nlohmann::json exceptions on a
/// missing "app" or a field of the wrong type.
PipelineSource pipelineSourceFromJson(const nlohmann::json &j);

} // namespace beamscope
