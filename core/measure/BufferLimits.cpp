// BufferLimits: when a pipeline's buffers need Halide's LargeBuffers target feature.
#include "measure/BufferLimits.h"

#include <algorithm>
#include <limits>

namespace beamscope {

int64_t largestRootBuffer(const FunctionDAG &dag, std::string *name) {
    int64_t largest = 0;
    for (const Node &node : dag.nodes()) {
        int elementBytes = 0;
        for (const Halide::Type &t : node.types)
            elementBytes = std::max(elementBytes, t.bytes());
        // Volume times bytes, saturating: a region that overflows int64 needs large buffers.
        int64_t bytes = elementBytes;
        for (const Interval &i : node.region) {
            const int64_t extent = i.extent();
            if (extent > 0 && bytes > std::numeric_limits<int64_t>::max() / extent) {
                bytes = std::numeric_limits<int64_t>::max();
                break;
            }
            bytes *= extent;
        }
        if (bytes > largest) {
            largest = bytes;
            if (name) *name = node.name;
        }
    }
    return largest;
}

bool needsLargeBuffers(const FunctionDAG &dag) {
    return largestRootBuffer(dag) > kLargeBufferThreshold;
}

Halide::Target withBufferLimits(const Halide::Target &target, const FunctionDAG &dag) {
    if (target.bits != 64 || target.has_feature(Halide::Target::LargeBuffers) ||
        !needsLargeBuffers(dag)) {
        return target;
    }
    return target.with_feature(Halide::Target::LargeBuffers);
}

Halide::Target withBufferLimits(const Halide::Target &target, const PipelineSource &source) {
    if (target.bits != 64 || target.has_feature(Halide::Target::LargeBuffers)) return target;
    return withBufferLimits(target, FunctionDAG(loadPipeline(source)));
}

} // namespace beamscope
