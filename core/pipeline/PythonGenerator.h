// PythonGenerator: a user's Python file of `@hl.generator` classes (Halide's Python bindings,
// the PyPI wheel) built into a PipelineInstance. The user's Python never runs in Beamscope's
// process: a Python interpreter builds the generator and writes its pipeline with
// hl.serialize_pipeline, with a manifest of what the file format drops (input estimates, scalar
// defaults and ranges); Beamscope reads both back (SerializedPipeline.h).
#pragma once

#include "pipeline/PipelineInstance.h"

#include <map>
#include <string>
#include <vector>

namespace beamscope {

/// The Python program run on the user's file (PythonRunnerScript.cpp).
const char *pythonRunnerScript();

/// The Python that runs users' generators: the interpreter of the virtual environment whose
/// halide wheel provides the libHalide this process has loaded (the build tree's .venv: the same
/// Halide, found the way the build finds it), else `python3` on PATH (an installed package: the
/// user's own Python, which needs the halide wheel of the same major version). Throws Error
/// when neither exists.
std::string pythonInterpreter();

/// Builds generator `name` of the Python file `path` with generator params `params`, in a Python
/// process limited to `timeoutS` seconds. Throws UsageError when the file has no generator of
/// that name (naming the ones it has) or is missing; Error with one line for an exception in the
/// user's code (file, line, message), a crash or hang of the Python process, or no usable
/// Python.
PipelineInstance buildPythonGenerator(const std::string &path, const std::string &name,
                                      const std::map<std::string, std::string> &params,
                                      double timeoutS);

/// The names of the generators the Python file `path` defines, sorted (run like
/// buildPythonGenerator). Throws Error with one line when the file cannot be run.
std::vector<std::string> listPythonGenerators(const std::string &path, double timeoutS);

} // namespace beamscope
