// FunctionDAG: the analysis of a Halide pipeline that the search, cost model and views read.
// Nodes are Funcs (and input buffers) with their stages; edges go producer -> consumer stage and
// carry every call site as affine forms over the consumer's loops. Immutable once built.
#pragma once

#include "dag/Affine.h"
#include "dag/IndexBounds.h"
#include "dag/AlgorithmFeatures.h"
#include "dag/Interval.h"
#include "pipeline/PipelineInstance.h"

#include <Halide.h>

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace beamscope {

/// One loop of a stage: a pure variable of the Func or a reduction variable of an RDom.
struct LoopVar {
    std::string name;
    bool isReduction = false;
    int funcDim = -1;  ///< the Func dimension a pure loop iterates over; -1 for RVars
    Interval estimate; ///< estimated range when the Func is computed over its whole region
};

/// One argument of one call: an affine form over the consumer stage's loops, or not affine.
struct CallArg {
    std::optional<AffineForm> affine;
    Interval fallback; ///< conservative range over the whole consumer (for non-affine args)
    /// A non-affine argument that reads no data (x / 2 - 1 + 2 * (x % 2)): its range over any
    /// box of loops, as Halide bounds it. Absent for data-dependent and clamped arguments.
    std::optional<IndexBounds> bounded;
};

/// One call site: producer(args...) somewhere in the consumer stage's definition.
struct CallSite {
    std::vector<CallArg> args; ///< one per producer dimension
};

/// producer -> consumer stage, with every call site.
struct Edge {
    int producer = -1;      ///< node index
    int consumer = -1;      ///< node index
    int consumerStage = -1; ///< stage index within the consumer
    std::vector<CallSite> calls; ///< every occurrence in the definition, lets substituted
    /// Calls with different arguments: a call repeated where a let's variable was used
    /// (fast_exp's argument, 19 times) is one load after Halide's CSE.
    int distinctCalls = 0;
    bool allAffine = true;  ///< every argument of every call is affine
    bool pointwise = false; ///< every call is exactly the consumer's pure variables

    /// Region of the producer needed to compute the consumer stage over `loops`
    /// (one interval per consumer loop, in the stage's loop order).
    Box requiredRegion(const Box &loops) const;
};

/// A definition of a Func: pure (index 0) or an update.
struct Stage {
    int node = -1;
    int index = 0;
    std::string name;           ///< "f" or "f.update(0)"
    std::vector<LoopVar> loops; ///< innermost first, as Halide orders them
    std::vector<int> incoming;  ///< edge indices of the producers this stage calls
    AlgorithmFeatures features;
    /// Every value is `undef` (iir_blur's `blur(x, y, c) = undef<float>()`): Halide lowers no
    /// loop for it, so it computes, stores and launches nothing; its tiling does not matter.
    bool undefined = false;

    /// Estimated loop ranges when the whole Func is computed (the stage's full box).
    Box fullLoopBox() const;
    /// Product of the full loop extents: points this stage computes at root.
    int64_t points() const { return boxVolume(fullLoopBox()); }
};

/// A Func of the pipeline, or an input buffer (isInput, no stages).
struct Node {
    int index = -1;
    std::string name;       ///< as the user wrote it (Halide's "$n" uniquifying suffix removed)
    std::string halideName; ///< Halide's unique name of the Function or buffer
    int dimensions = 0;
    std::vector<std::string> args;   ///< pure argument names
    std::vector<Halide::Type> types; ///< one per tuple element
    int bytesPerPoint = 0;           ///< sum of tuple element sizes
    bool isInput = false;
    bool isOutput = false;
    Box region; ///< estimated region when all outputs are computed
    std::vector<Stage> stages;
    std::vector<int> outgoing;           ///< edge indices to consumer stages
    Halide::Internal::Function function; ///< undefined for inputs

    /// A single-stage Func whose every use reads it pointwise: the simple schedules of
    /// core/measure (naive GPU, CPU reference) inline these and compute the rest at root.
    bool pointwiseUsesOnly = false;
    /// Inlined without search, as the authors' implementation prunes long pointwise chains: a
    /// pointwise Func (no update, every Func producer read at its own coordinates) whose
    /// producers are pointwise and whose single consumer is pointwise.
    bool inlinedWithoutSearch = false;
    /// Has updates, and every update writes the point its pure loops name (each left-hand
    /// argument is the pure Var of its dimension) and reads the Func only at that point: over
    /// any box of points its updates touch that box alone, so it can be computed per thread
    /// tile of a consumer, its accumulators in registers (matmul's and conv_layer's sums).
    bool pointwiseUpdates = false;
    /// Has updates that each write, in the dimensions listed here, a coordinate computed from
    /// the data (a histogram's bin: histogram(x, y, zi, c) += ...) and in every other dimension
    /// the point its pure Var names, reading the Func only at the point they write. Threads
    /// over the update's pure loops then never write the same point, so the Func can be
    /// computed at a consumer's block level, over its whole range in these dimensions (the
    /// range Halide's bounds inference gives a data-dependent write). Empty otherwise.
    std::vector<int> scatteredDims;
};

class FunctionDAG {
public:
    /// Analyzes `instance`'s pipeline. Throws Error if an estimate needed for bounds is missing.
    explicit FunctionDAG(const PipelineInstance &instance);

    const std::string &pipelineName() const { return m_name; }
    /// The values its scalar inputs were bound to, "NAME=VALUE" in input order.
    const std::vector<std::string> &scalarInputs() const { return m_scalarInputs; }
    const std::vector<Node> &nodes() const { return m_nodes; }
    const std::vector<Edge> &edges() const { return m_edges; }
    const Node &node(int i) const { return m_nodes[size_t(i)]; }
    const Edge &edge(int i) const { return m_edges[size_t(i)]; }
    /// Index of the node called `name`, or -1.
    int find(const std::string &name) const;
    /// Non-input nodes, consumers before producers (outputs first): the search order.
    const std::vector<int> &outputsFirst() const { return m_outputsFirst; }
    /// Number of Funcs (non-input nodes) and of their stages.
    int funcCount() const;
    int stageCount() const;

    /// Human-readable description of every node, stage and edge, for debugging and tests.
    void dump(std::ostream &os) const;

private:
    std::string m_name;
    std::vector<std::string> m_scalarInputs;
    std::vector<Node> m_nodes;
    std::vector<Edge> m_edges;
    std::vector<int> m_outputsFirst;
    friend class FunctionDAGBuilder;
};

} // namespace beamscope
