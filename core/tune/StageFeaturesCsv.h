// StageFeaturesCsv: every measured row's schedule written stage by stage, with its kernel, its
// appendix-A features and the analytic model's terms for that stage, beside the measured time.
// `models --stage-features-csv` writes it; it is what the analytic model's physics was studied
// with against the H100 data (docs/design-notes.md), one line per stage.
#pragma once

#include "tune/TrainingData.h"
#include "util/AtomicFile.h"

#include <ostream>
#include <string>

namespace beamscope {

class StageFeaturesCsv {
public:
    /// Opens `path`.tmp; nothing appears at `path` until finish().
    explicit StageFeaturesCsv(std::string path);
    /// Appends the stages of one row (a DatasetBuilder's StageObserver).
    void add(const FeaturizedRow &row);
    /// Renames the finished file into place; throws Error when it could not be written.
    void finish();

private:
    AtomicFile m_file;
    std::ostream &m_out; ///< m_file's stream
};

} // namespace beamscope
