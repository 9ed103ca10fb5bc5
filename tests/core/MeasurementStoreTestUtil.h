// Helpers for the measurement database tests: a temporary directory removed at the end, and a
// record with every field set to a distinct value.
#pragma once

#include "store/MeasurementStore.h"

#include <filesystem>
#include <string>
#include <unistd.h>

namespace beamscope::testing {

/// A fresh directory under $TMPDIR (or /tmp), removed with everything in it on destruction.
class TempDir {
public:
    TempDir() {
        const char *base = std::getenv("TMPDIR");
        std::string pattern = std::string(base && *base ? base : "/tmp") + "/beamscope-store-XXXXXX";
        m_path = mkdtemp(pattern.data()) ? pattern : std::string();
    }
    ~TempDir() {
        std::error_code ec;
        if (!m_path.empty()) std::filesystem::remove_all(m_path, ec);
    }
    std::string file(const std::string &name) const { return m_path + "/" + name; }
    const std::string &path() const { return m_path; }

private:
    std::string m_path;
};

/// A record of app `app` (schedule `scheduleValue`) with every field set.
inline MeasurementRecord sampleRecord(const std::string &app = "stencil_chain",
                                      int scheduleValue = 1, double median = 1.5) {
    MeasurementRecord r;
    r.pipeline.app = app;
    r.pipeline.generatorLibrary = "/opt/gen lib/libgen.so";
    r.pipeline.params = {"height=64", "length=2", "width=64"};
    r.pipeline.estimates = {"output=0:64,0:64"};
    r.pipeline.dagHash = "0123456789abcdef";
    r.device = {"opencl", "pthread-skylake", "Portable Computing Language", "", "21.0.0"};
    r.schedule = nlohmann::json::array({{{"name", "f"}, {"tile", {scheduleValue, 32}}}});
    r.scheduleHash = scheduleHash(r.schedule);
    r.gpu = {{"name", "pocl-cpu"}, {"sm_count", 2}};
    r.costModel = "analytic";
    r.predicted = 0.125;
    r.predictedTerms = {{"compute", 0.1}, {"load", 0.025}};
    r.measurement.label = "beam#0";
    r.measurement.predicted = 0.125;
    r.measurement.measuredMs = RunTimes{median, median - 0.25, median + 0.5};
    r.measurement.registers = 40;
    r.measurement.spillBytes = 0;
    r.measurement.correct = true;
    r.measurement.maxError = 1e-6;
    r.measurement.maxRelError = 2e-7;
    r.measurement.compileMs = 812.5;
    r.measurement.target = "host-opencl";
    r.measurement.ptxArch = "sm_70";
    r.measurement.kernels = {{"f_kernel", 40, 0, 0, 16}};
    r.repeats = 5;
    r.origin = "tune";
    r.runId = "run-7";
    r.round = 3;
    r.createdAt = 1700000000;
    r.features = {1.5f, -2.25f, 0.0f, 3.0e9f};
    r.featureSchema = 4;
    return r;
}

} // namespace beamscope::testing
