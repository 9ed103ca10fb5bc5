#include "tune/PredictionsCsv.h"

#include "util/AtomicFile.h"

#include <algorithm>
#include <numeric>
#include <ostream>

namespace beamscope {

namespace {

/// 1-based ranks of `predicted` (lowest first; ties keep the rows' order).
std::vector<size_t> ranks(const std::vector<double> &predicted) {
    std::vector<size_t> order(predicted.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return predicted[a] < predicted[b]; });
    std::vector<size_t> rank(predicted.size());
    for (size_t r = 0; r < order.size(); ++r)
        rank[order[r]] = r + 1;
    return rank;
}

} // namespace

void writePredictionsCsv(const std::string &path, const ModelComparison &comparison) {
    AtomicFile file(path);
    std::ostream &out = file.stream();
    std::vector<std::string> names;
    if (!comparison.pipelines.empty()) {
        for (const ModelScore &score : comparison.pipelines.front().scores)
            names.push_back(score.model);
    }
    out << "app,gpu,record,measured_ms";
    for (const std::string &name : names)
        out << "," << name;
    for (const std::string &name : names)
        out << "," << name << "_rank";
    out << "\n";
    out.precision(9);
    for (const PipelineComparison &p : comparison.pipelines) {
        std::vector<std::vector<size_t>> rank;
        for (const std::vector<double> &predicted : p.predicted)
            rank.push_back(ranks(predicted));
        for (size_t i = 0; i < p.records.size(); ++i) {
            out << p.pipeline << "," << p.gpu << "," << p.records[i] << "," << p.measured[i];
            for (const std::vector<double> &predicted : p.predicted)
                out << "," << predicted[i];
            for (const std::vector<size_t> &r : rank)
                out << "," << r[i];
            out << "\n";
        }
    }
    file.commit();
}

} // namespace beamscope
