#include "tune/StageFeaturesCsv.h"

#include "cost/StageFeatures.h"
#include "dag/FunctionDAG.h"

namespace beamscope {

StageFeaturesCsv::StageFeaturesCsv(std::string path)
    : m_file(std::move(path)), m_out(m_file.stream()) {
    m_out << "app,record,measured_ms,kernel,kernel_root,node,stage,stage_name";
    for (size_t f = 0; f < size_t(Feature::Count); ++f) m_out << "," << featureName(Feature(f));
    for (size_t t = 0; t < kCostTerms; ++t) m_out << ",analytic_" << costTermName(CostTerm(t));
    m_out << "\n";
    m_out.precision(9);
}

void StageFeaturesCsv::add(const FeaturizedRow &r) {
    const auto kernels = r.state.kernels();
    size_t costIndex = 0;
    for (size_t k = 0; k < r.kernels.size(); ++k) {
        for (const StageFeatureRow &stage : *r.kernels[k]) {
            const bool root = k < kernels.size() && stage.node == kernels[k]->node;
            m_out << r.row.app << "," << r.row.recordId << "," << r.row.row.measuredMs << "," << k
                  << "," << (root ? 1 : 0) << "," << stage.node << "," << stage.stage << ","
                  << r.state.dag().node(stage.node).stages[size_t(stage.stage)].name;
            for (size_t f = 0; f < size_t(Feature::Count); ++f)
                m_out << "," << stage.features[Feature(f)];
            const StageCost *cost =
                costIndex < r.analytic.stages.size() ? &r.analytic.stages[costIndex] : nullptr;
            for (size_t t = 0; t < kCostTerms; ++t) m_out << "," << (cost ? cost->terms[t] : 0.0);
            m_out << "\n";
            ++costIndex;
        }
    }
}

void StageFeaturesCsv::finish() {
    m_file.commit();
}

} // namespace beamscope
