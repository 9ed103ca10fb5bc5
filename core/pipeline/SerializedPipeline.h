// SerializedPipeline: a pipeline written by Halide's serialize_pipeline (a .hlpipe file), read
// back with deserialize_parameters / deserialize_pipeline into a PipelineInstance.
// Checked with Halide 21: the file keeps the Funcs, their definitions and the outputs' estimates,
// but every input Parameter comes back without its estimates, default value and range. A
// manifest (what a Python generator declared, PythonGenerator.h) puts them back; a bare .hlpipe
// file needs them from the user (--estimate for input buffers, --input for scalars).
#pragma once

#include "pipeline/PipelineInstance.h"

#include <string>
#include <utility>
#include <vector>

namespace beamscope {

/// An input as its generator declared it.
struct DeclaredInput {
    std::string name;
    bool isBuffer = false;
    /// Buffers: (min, extent) per dimension; empty when the generator gave none.
    std::vector<std::pair<int64_t, int64_t>> estimates = {};
    /// Scalars: estimate, default value and range, constants of the input's type; undefined when
    /// not given.
    Halide::Expr scalarEstimate = {}, scalarDefault = {}, scalarMin = {}, scalarMax = {};
};

/// What a serialized pipeline's producer knows beyond the file.
struct PipelineManifest {
    std::vector<DeclaredInput> inputs;              ///< in declaration order
    std::map<std::string, std::string> params = {}; ///< generator params used, as text
};

/// Reads the .hlpipe file at `path` as pipeline `name`, then gives its inputs what `manifest`
/// declares (inputs in the manifest's order, else in Halide's argument order). Throws Error with
/// one line for a missing or unreadable file.
PipelineInstance loadSerializedPipeline(const std::string &path, const std::string &name,
                                        const PipelineManifest &manifest = {});

} // namespace beamscope
