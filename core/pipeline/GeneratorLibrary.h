// User pipelines: a shared library of Halide generators (HALIDE_REGISTER_GENERATOR), built
// against the same libHalide as Beamscope, loaded at run time; one generator built by name.
#pragma once

#include "pipeline/PipelineInstance.h"

#include <map>
#include <string>
#include <vector>

namespace beamscope {

/// A loaded generator library. Loading is process-wide and never undone (generators register
/// themselves in Halide's global registry when the library is opened).
class GeneratorLibrary {
public:
    /// Opens the library at `path`; throws Error if it is unreadable, not a shared library, or
    /// registers no Halide generator.
    static GeneratorLibrary open(const std::string &path);

    /// The path it was opened from.
    const std::string &path() const { return m_path; }

    /// Names of the generators this library registered, sorted.
    const std::vector<std::string> &generators() const { return m_generators; }

    /// Builds generator `name` with generator params `params` (name -> text value) for a
    /// host target. Throws UsageError for an unknown generator or param, Error if the
    /// generator throws while building.
    PipelineInstance build(const std::string &name,
                           const std::map<std::string, std::string> &params) const;

private:
    std::string m_path;
    std::vector<std::string> m_generators;
};

/// Parses "key=value" strings into a map; throws UsageError on malformed input.
std::map<std::string, std::string> parseKeyValues(const std::vector<std::string> &assignments);

} // namespace beamscope
