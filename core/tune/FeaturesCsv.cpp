#include "tune/FeaturesCsv.h"

#include "cost/ScheduleFeatures.h"
#include "util/AtomicFile.h"

#include <ostream>

namespace beamscope {

void writeFeaturesCsv(const std::string &path, const std::vector<LabelledSchedule> &rows) {
    AtomicFile file(path);
    std::ostream &out = file.stream();
    out << "app,record,measured_ms,noise,analytic_ms,polymage";
    for (const std::string &name : scheduleFeatureNames())
        out << "," << name;
    // Last, so that readers counting columns from the front keep their indices.
    out << ",baseline\n";
    out.precision(9);
    for (const LabelledSchedule &s : rows) {
        out << s.app << "," << s.recordId << "," << s.row.measuredMs << "," << s.noise << ","
            << s.row.analyticMs << "," << s.polymageScore;
        for (float f : s.row.features)
            out << "," << f;
        out << "," << s.baseline << "\n";
    }
    file.commit();
}

} // namespace beamscope
