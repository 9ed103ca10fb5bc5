// AotData: the data a shipped artifact runs on, as files in a batch directory shared with the
// cluster (written here by AotArtifact, read on a node by beamscope-aot-runner without Halide):
//   DIR/data.json   {"format": "beamscope-aot-data-1", "key": referenceKey, "target": "...",
//                    "inputs":  [{"name", "type": [code, bits, lanes], "min": [...],
//                                 "extent": [...], "file": "input-0.raw"}, ...],
//                    "scalars": [{"name", "type": [...], "bits": 64-bit value pattern}, ...],
//                    "outputs": [{"name", "type", "min", "extent", "file": "reference-0.raw"}],
//                    "naive_library": "naive.so", "runtime_library": "runtime.so"}
//   DIR/runtime.so  Halide's runtime for the target, which every artifact of the batch (built
//                   with no_runtime) uses: loaded first, RTLD_GLOBAL
//   DIR/*.raw       dense bytes, dimension 0 innermost (the worker's deterministic inputs and
//                   the CPU reference outputs)
//   LIB.so.json     next to each artifact: {"entry": "NAME", "arguments": ["input", "scalar",
//                   ..., "output"]} (the order of NAME_argv's arguments)
// Only HalideRuntime.h: this file is compiled into beamscope-aot-runner too.
#pragma once

#include <HalideRuntime.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace beamscope {

constexpr const char *kAotDataFormat = "beamscope-aot-data-1";
constexpr const char *kAotEntry = "beamscope_pipeline"; ///< NAME of NAME_argv, NAME_metadata

/// A dense host buffer owning its memory, as a halide_buffer_t (move-only: raw.dim and
/// raw.host point into memory it owns).
struct AotBuffer {
    std::string name;
    halide_buffer_t raw{};
    std::unique_ptr<halide_dimension_t[]> dims;
    std::unique_ptr<std::uint8_t[]> host;
    std::size_t bytes = 0;

    /// Zero-filled, dense, over [min, min + extent) per dimension.
    static AotBuffer make(const std::string &name, halide_type_t type, const std::vector<int> &mins,
                          const std::vector<int> &extents);
};

/// {"name", "type", "min", "extent", "file"} for `b` (dense) to be written to DIR/`file`.
nlohmann::json describeBuffer(const std::string &name, const halide_buffer_t *b,
                              const std::string &file);
/// Writes the dense bytes of `b` to `path` (atomically). Throws std::runtime_error.
void writeRawBuffer(const std::string &path, const halide_buffer_t *b);
/// The buffer `desc` describes, zero-filled (outputs) or read from dir/desc.file (when `read`).
/// Throws std::runtime_error with a one-line reason (bad description, missing or short file).
AotBuffer bufferFrom(const nlohmann::json &desc, const std::string &dir, bool read);

/// "float32", "uint8", ... for messages.
std::string typeText(halide_type_t type);

} // namespace beamscope
