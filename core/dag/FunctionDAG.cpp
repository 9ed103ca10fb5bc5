// Construction of the FunctionDAG from Halide's internal representation.
// Contents: symbol constants from input estimates; call-site collection; stage loops;
// region propagation (outputs first); edge summaries; simple accessors.
#include "dag/FunctionDAG.h"

#include "pipeline/ScalarInputs.h"
#include "util/Error.h"

#include <algorithm>
#include <set>

namespace beamscope {

using namespace Halide;
using namespace Halide::Internal;

using HInterval = Halide::Internal::Interval;

namespace {

/// Every call in a stage's definition, grouped by callee (Funcs and input buffers).
class CallCollector : public IRVisitor {
public:
    explicit CallCollector(std::string self) : m_self(std::move(self)) {}
    std::map<std::string, std::vector<const Call *>> calls;
    std::map<std::string, Parameter> params;
    std::map<std::string, Buffer<>> buffers;

private:
    using IRVisitor::visit;
    void visit(const Call *op) override {
        IRVisitor::visit(op);
        if (op->call_type == Call::Halide && op->name != m_self) {
            calls[op->name].push_back(op);
        } else if (op->call_type == Call::Image) {
            calls[op->name].push_back(op);
            if (op->param.defined()) params[op->name] = op->param;
            if (op->image.defined()) buffers[op->name] = op->image;
        }
    }
    std::string m_self;
};

/// Values, left-hand side arguments and predicate of a definition, with lets substituted so
/// that every call's arguments are expressed in loop variables.
std::vector<Expr> definitionExprs(const Definition &def) {
    std::vector<Expr> exprs = def.values();
    for (const Expr &a : def.args())
        exprs.push_back(a);
    if (def.predicate().defined()) exprs.push_back(def.predicate());
    for (Expr &e : exprs)
        e = substitute_in_all_lets(e);
    return exprs;
}

/// Whether every call of `self` in an update's values reads the point the update writes.
class SelfCallsAtOwnPoint : public IRVisitor {
public:
    SelfCallsAtOwnPoint(std::string self, const std::vector<Expr> &lhs)
        : m_self(std::move(self)), m_lhs(lhs) {}
    bool atOwnPoint = true;

private:
    using IRVisitor::visit;
    void visit(const Call *op) override {
        IRVisitor::visit(op);
        if (op->call_type != Call::Halide || op->name != m_self) return;
        if (op->args.size() != m_lhs.size()) {
            atOwnPoint = false;
            return;
        }
        for (size_t a = 0; a < op->args.size(); ++a) {
            if (!equal(op->args[a], m_lhs[a])) atOwnPoint = false;
        }
    }
    std::string m_self;
    const std::vector<Expr> &m_lhs;
};

/// An update that writes the point named by its pure Vars (f(x, y) += ..., not f(r, y) or
/// f(g(r)) += ...) and reads f only there.
bool writesAndReadsItsOwnPoint(const Function &f, const Definition &update) {
    const std::vector<std::string> pure = f.args();
    const std::vector<Expr> &lhs = update.args();
    if (lhs.size() != pure.size()) return false;
    for (size_t a = 0; a < lhs.size(); ++a) {
        const Variable *v = lhs[a].as<Variable>();
        if (!v || v->name != pure[a]) return false;
    }
    SelfCallsAtOwnPoint check(f.name(), lhs);
    for (const Expr &e : definitionExprs(update))
        e.accept(&check);
    return check.atOwnPoint;
}

/// The dimensions an update writes at a coordinate other than its own pure Var (any
/// expression but another dimension's pure Var), when it writes its own point in the others
/// and reads f only where it writes; nullopt when it does not.
std::optional<std::vector<int>> scatteredDimsOf(const Function &f, const Definition &update) {
    const std::vector<std::string> pure = f.args();
    const std::vector<Expr> &lhs = update.args();
    if (lhs.size() != pure.size()) return std::nullopt;
    std::vector<int> scattered;
    for (size_t a = 0; a < lhs.size(); ++a) {
        const Variable *v = lhs[a].as<Variable>();
        if (v && v->name == pure[a]) continue;
        if (v && std::find(pure.begin(), pure.end(), v->name) != pure.end()) return std::nullopt;
        scattered.push_back(int(a));
    }
    SelfCallsAtOwnPoint check(f.name(), lhs);
    for (const Expr &e : definitionExprs(update))
        e.accept(&check);
    if (!check.atOwnPoint) return std::nullopt;
    return scattered;
}

int64_t bytesOf(const std::vector<Type> &types) {
    int64_t bytes = 0;
    for (const Type &t : types)
        bytes += t.bytes();
    return bytes;
}

} // namespace

/// Builds a FunctionDAG; a friend so it can fill the private members in one pass.
class FunctionDAGBuilder {
public:
    FunctionDAGBuilder(FunctionDAG &dag, const PipelineInstance &instance)
        : m_dag(dag), m_instance(instance) {}

    void build() {
        m_dag.m_name = m_instance.name;
        m_dag.m_scalarInputs = scalarInputAssignments(m_instance);
        std::vector<Function> outputs;
        for (const Func &f : m_instance.pipeline.outputs())
            outputs.push_back(f.function());
        std::map<std::string, Function> env = build_environment(outputs);
        std::vector<std::string> order = realization_order(outputs, env).first;

        m_valueBounds = compute_function_value_bounds(order, env);
        collectInputs(env);
        for (const Parameter &p : m_instance.inputs)
            addParameterSymbols(p);
        for (const std::string &name : order)
            addFuncNode(env.at(name), outputs);
        for (const Function &f : outputs)
            initOutputRegion(f);

        // Consumers before producers: a Func's region is final when it is processed.
        for (auto it = order.rbegin(); it != order.rend(); ++it)
            processFunc(m_index.at(*it));
        finishInputs();
        summarizeEdges();
        for (auto it = order.rbegin(); it != order.rend(); ++it) {
            m_dag.m_outputsFirst.push_back(m_index.at(*it));
        }
    }

private:
    void collectInputs(const std::map<std::string, Function> &env) {
        std::map<std::string, std::pair<Parameter, Buffer<>>> inputs;
        for (const auto &[name, f] : env) {
            std::vector<Definition> defs{f.definition()};
            for (const Definition &u : f.updates())
                defs.push_back(u);
            for (const Definition &def : defs) {
                CallCollector c(name);
                for (const Expr &e : definitionExprs(def))
                    e.accept(&c);
                for (const auto &[n, p] : c.params)
                    inputs[n].first = p;
                for (const auto &[n, b] : c.buffers)
                    inputs[n].second = b;
            }
        }
        for (const auto &[name, source] : inputs) {
            Node node;
            node.index = int(m_dag.m_nodes.size());
            node.halideName = name;
            node.name = displayName(name, false);
            node.isInput = true;
            if (source.first.defined()) {
                node.dimensions = source.first.dimensions();
                node.types = {source.first.type()};
                addParameterSymbols(source.first);
            } else {
                node.dimensions = source.second.dimensions();
                node.types = {source.second.type()};
                for (int d = 0; d < node.dimensions; ++d) {
                    m_symbols[name + ".min." + std::to_string(d)] = source.second.dim(d).min();
                    m_symbols[name + ".extent." + std::to_string(d)] =
                        source.second.dim(d).extent();
                }
            }
            node.bytesPerPoint = int(bytesOf(node.types));
            node.region.assign(size_t(node.dimensions), Interval{});
            m_index[name] = node.index;
            m_dag.m_nodes.push_back(std::move(node));
        }
    }

    void addParameterSymbols(const Parameter &p) {
        if (!p.is_buffer()) return;
        for (int d = 0; d < p.dimensions(); ++d) {
            std::optional<int64_t> min = as_const_int(p.min_constraint_estimate(d));
            std::optional<int64_t> extent = as_const_int(p.extent_constraint_estimate(d));
            if (min) m_symbols[p.name() + ".min." + std::to_string(d)] = *min;
            if (extent) m_symbols[p.name() + ".extent." + std::to_string(d)] = *extent;
        }
    }

    std::optional<int64_t> symbol(const std::string &name) const {
        auto it = m_symbols.find(name);
        if (it != m_symbols.end()) return it->second;
        return std::nullopt;
    }

    /// The user's name: Halide appends "$n" when a name is reused in the process, and numbers
    /// the Funcs it names itself ("lambda_12", "f3") with process-wide counters. Those are
    /// renumbered in pipeline order so that names do not depend on what was built before. Funcs
    /// of one name (two BoundaryConditions::repeat_edge make two "repeat_edge") are told apart
    /// in realization order: "repeat_edge", "repeat_edge#2", ...; the exported schedule
    /// (ScheduleSource) numbers them the same way to find them.
    std::string displayName(const std::string &halideName, bool isFunc) {
        const size_t dollar = halideName.find('$');
        std::string name = dollar == std::string::npos ? halideName : halideName.substr(0, dollar);
        for (const char *prefix : {"lambda_", "f"}) {
            const std::string p = prefix;
            if (name.size() > p.size() && name.compare(0, p.size(), p) == 0 &&
                name.find_first_not_of("0123456789", p.size()) == std::string::npos) {
                name = p + std::to_string(m_generatedNames[p]++);
                break;
            }
        }
        if (isFunc) {
            const int uses = ++m_funcNameUses[name];
            if (uses > 1) name += "#" + std::to_string(uses);
        }
        for (const Node &n : m_dag.m_nodes) {
            if (n.name == name) return halideName; // a Func named like an input
        }
        return name;
    }

    void addFuncNode(const Function &f, const std::vector<Function> &outputs) {
        Node node;
        node.index = int(m_dag.m_nodes.size());
        node.halideName = f.name();
        node.name = displayName(f.name(), true);
        node.dimensions = f.dimensions();
        node.args = f.args();
        node.types = f.output_types();
        node.bytesPerPoint = int(bytesOf(node.types));
        node.function = f;
        for (const Function &o : outputs)
            node.isOutput |= o.same_as(f);
        node.region.assign(size_t(node.dimensions), Interval{});
        m_index[node.halideName] = node.index;
        m_dag.m_nodes.push_back(std::move(node));
    }

    void initOutputRegion(const Function &f) {
        Node &node = m_dag.m_nodes[size_t(m_index.at(f.name()))];
        for (const Bound &b : f.schedule().estimates()) {
            auto it = std::find(node.args.begin(), node.args.end(), b.var);
            const std::optional<int64_t> min = as_const_int(b.min);
            const std::optional<int64_t> extent = as_const_int(b.extent);
            if (it == node.args.end() || !min || !extent) continue;
            node.region[size_t(it - node.args.begin())] = {*min, *min + *extent - 1};
        }
        for (int d = 0; d < node.dimensions; ++d) {
            if (node.region[size_t(d)].empty()) {
                throw Error("missing estimate for output '" + node.name + "' dimension " +
                            std::to_string(d) + " (" + node.args[size_t(d)] + ")");
            }
        }
    }

    /// Builds the stages of Func `index` and pushes its demands onto its producers.
    void processFunc(int index) {
        Node &node = m_dag.m_nodes[size_t(index)];
        for (int d = 0; d < node.dimensions; ++d) {
            if (node.region[size_t(d)].empty()) {
                throw Error("Func '" + node.name + "' is never used over a known region");
            }
        }
        std::vector<Definition> defs{node.function.definition()};
        for (const Definition &u : node.function.updates())
            defs.push_back(u);
        node.pointwiseUpdates =
            defs.size() > 1 && std::all_of(defs.begin() + 1, defs.end(), [&](const Definition &u) {
                return writesAndReadsItsOwnPoint(node.function, u);
            });
        if (defs.size() > 1 && !node.pointwiseUpdates) {
            std::set<int> scattered;
            bool scatters = true;
            for (size_t u = 1; u < defs.size() && scatters; ++u) {
                const auto dims = scatteredDimsOf(node.function, defs[u]);
                scatters = dims.has_value();
                if (dims) scattered.insert(dims->begin(), dims->end());
            }
            if (scatters) node.scatteredDims.assign(scattered.begin(), scattered.end());
        }
        for (size_t s = 0; s < defs.size(); ++s) {
            Stage stage;
            stage.node = index;
            stage.index = int(s);
            stage.name = s == 0 ? node.name : node.name + ".update(" + std::to_string(s - 1) + ")";
            stage.loops = stageLoops(node, defs[s], s == 0);
            stage.undefined = allUndef(defs[s].values());
            m_dag.m_nodes[size_t(index)].stages.push_back(std::move(stage));
            addStageEdges(index, int(s), defs[s]);
        }
    }

    static bool allUndef(const std::vector<Expr> &values) {
        for (const Expr &v : values) {
            const auto *call = v.as<Halide::Internal::Call>();
            if (!call || !call->is_intrinsic(Halide::Internal::Call::undef)) return false;
        }
        return !values.empty();
    }

    std::vector<LoopVar> stageLoops(const Node &node, const Definition &def, bool pure) {
        std::vector<LoopVar> loops;
        if (pure) {
            for (int d = 0; d < node.dimensions; ++d) {
                loops.push_back({node.args[size_t(d)], false, d, node.region[size_t(d)]});
            }
            return loops;
        }
        for (const Dim &dim : def.schedule().dims()) {
            if (dim.var == Var::outermost().name()) continue;
            LoopVar loop;
            loop.name = dim.var;
            const std::vector<Expr> &args = def.args();
            for (size_t a = 0; a < args.size(); ++a) {
                const Variable *v = args[a].as<Variable>();
                if (v && v->name == dim.var && !dim.is_rvar()) loop.funcDim = int(a);
            }
            if (loop.funcDim >= 0) {
                loop.estimate = node.region[size_t(loop.funcDim)];
            } else {
                loop.isReduction = true;
                loop.estimate = reductionRange(node, def, dim.var);
            }
            loops.push_back(loop);
        }
        return loops;
    }

    Interval reductionRange(const Node &node, const Definition &def, const std::string &var) {
        const ConstantOf constants = [this](const std::string &n) { return symbol(n); };
        for (const ReductionVariable &rv : def.schedule().rvars()) {
            if (rv.var != var) continue;
            std::optional<int64_t> min = evaluateConstant(rv.min, constants);
            std::optional<int64_t> extent = evaluateConstant(rv.extent, constants);
            if (!min || !extent) {
                throw Error("the extent of reduction variable '" + var + "' of '" + node.name +
                            "' is not known from the estimates");
            }
            return {*min, *min + *extent - 1};
        }
        throw Error("loop '" + var + "' of '" + node.name + "' is neither pure nor reduction");
    }

    void addStageEdges(int index, int stageIndex, const Definition &def) {
        const Node &node = m_dag.m_nodes[size_t(index)];
        const Stage &stage = node.stages[size_t(stageIndex)];
        CallCollector collector(node.halideName);
        const std::vector<Expr> exprs = definitionExprs(def); // owns the Calls collected below
        for (const Expr &e : exprs)
            e.accept(&collector);

        const Box loopBox = stage.fullLoopBox();
        Scope<HInterval> scope;
        for (size_t l = 0; l < stage.loops.size(); ++l) {
            scope.push(stage.loops[l].name,
                       HInterval(Expr(int(loopBox[l].min)), Expr(int(loopBox[l].max))));
        }
        const LoopIndexOf loopIndexOf = [&stage](const std::string &n) {
            for (size_t l = 0; l < stage.loops.size(); ++l) {
                if (stage.loops[l].name == n) return int(l);
            }
            return -1;
        };
        const ConstantOf constants = [this](const std::string &n) { return symbol(n); };

        for (const auto &[producerName, calls] : collector.calls) {
            auto found = m_index.find(producerName);
            if (found == m_index.end()) continue;
            Edge edge;
            edge.producer = found->second;
            edge.consumer = index;
            edge.consumerStage = stageIndex;
            for (const Call *call : calls) {
                CallSite site;
                for (const Expr &arg : call->args) {
                    CallArg callArg;
                    callArg.affine = analyzeAffine(arg, stage.loops.size(), loopIndexOf, constants);
                    if (!callArg.affine) {
                        callArg.fallback = boundOverWholeStage(arg, scope, edge.producer);
                        callArg.bounded = analyzeIndexBounds(arg, loopIndexOf, constants);
                    }
                    site.args.push_back(callArg);
                }
                edge.calls.push_back(std::move(site));
            }
            for (size_t i = 0; i < calls.size(); ++i) {
                bool repeated = false;
                for (size_t j = 0; j < i && !repeated; ++j)
                    repeated = equal(Expr(calls[i]), Expr(calls[j]));
                edge.distinctCalls += repeated ? 0 : 1;
            }
            const int edgeIndex = int(m_dag.m_edges.size());
            const Box required = edge.requiredRegion(loopBox);
            Node &producer = m_dag.m_nodes[size_t(edge.producer)];
            for (size_t d = 0; d < required.size() && d < producer.region.size(); ++d) {
                producer.region[d].unite(required[d]);
            }
            producer.outgoing.push_back(edgeIndex);
            m_dag.m_nodes[size_t(index)].stages[size_t(stageIndex)].incoming.push_back(edgeIndex);
            m_dag.m_edges.push_back(std::move(edge));
        }
        Stage &built = m_dag.m_nodes[size_t(index)].stages[size_t(stageIndex)];
        const ArgLoopDependence pattern = [&built](const std::vector<Expr> &args) {
            return classifyAccess(args, built);
        };
        built.features =
            computeAlgorithmFeatures(def.values(), def.args(), node.halideName, pattern);
    }

    /// Range of a non-affine argument over the whole consumer stage, by Halide's bounds
    /// inference; the producer's type range or estimates when that is unbounded.
    Interval boundOverWholeStage(const Expr &arg, const Scope<HInterval> &scope, int producer) {
        Expr e = arg;
        for (const auto &[name, value] : m_symbols) {
            e = substitute(name, Expr(int(value)), e);
        }
        HInterval range = bounds_of_expr_in_scope(e, scope, m_valueBounds);
        std::optional<int64_t> lo, hi;
        if (range.has_lower_bound()) lo = as_const_int(simplify(range.min));
        if (range.has_upper_bound()) hi = as_const_int(simplify(range.max));
        if (lo && hi) return {*lo, *hi};
        const Node &p = m_dag.m_nodes[size_t(producer)];
        throw Error("cannot bound the region of '" + p.name +
                    "' read through a data-dependent index; clamp the index");
    }

    static AccessPattern classifyAccess(const std::vector<Expr> &args, const Stage &stage) {
        std::vector<int> loopOfArg;
        for (const Expr &a : args) {
            const Variable *v = a.as<Variable>();
            int which = -2;
            if (v) {
                which = -1;
                for (size_t l = 0; l < stage.loops.size(); ++l) {
                    if (stage.loops[l].name == v->name) which = int(l);
                }
            } else if (is_const(a)) {
                which = -3;
            }
            loopOfArg.push_back(which);
        }
        bool allVars = true, inOrder = true, anyConst = false;
        std::set<int> used;
        for (size_t i = 0; i < loopOfArg.size(); ++i) {
            if (loopOfArg[i] == -3) {
                anyConst = true;
                continue;
            }
            if (loopOfArg[i] < 0) {
                allVars = false;
                continue;
            }
            if (loopOfArg[i] != int(i)) inOrder = false;
            used.insert(loopOfArg[i]);
        }
        if (!allVars) return AccessPattern::Other;
        if (anyConst) return AccessPattern::Slice;
        if (used.size() < stage.loops.size()) return AccessPattern::Broadcast;
        return inOrder ? AccessPattern::Pointwise : AccessPattern::Transpose;
    }

    void finishInputs() {
        for (Node &node : m_dag.m_nodes) {
            if (!node.isInput) continue;
            for (int d = 0; d < node.dimensions; ++d) {
                if (!node.region[size_t(d)].empty()) continue;
                const std::string prefix = node.name;
                std::optional<int64_t> min = symbol(prefix + ".min." + std::to_string(d));
                std::optional<int64_t> extent = symbol(prefix + ".extent." + std::to_string(d));
                node.region[size_t(d)] = {min.value_or(0),
                                          min.value_or(0) + extent.value_or(1) - 1};
            }
        }
    }

    void summarizeEdges() {
        for (Edge &edge : m_dag.m_edges) {
            const Node &producer = m_dag.m_nodes[size_t(edge.producer)];
            const Stage &stage =
                m_dag.m_nodes[size_t(edge.consumer)].stages[size_t(edge.consumerStage)];
            edge.pointwise = stage.index == 0 && !producer.isInput;
            for (const CallSite &site : edge.calls) {
                for (size_t d = 0; d < site.args.size(); ++d) {
                    const CallArg &arg = site.args[d];
                    if (!arg.affine) {
                        edge.allAffine = false;
                        edge.pointwise = false;
                        continue;
                    }
                    bool identity = false;
                    for (size_t l = 0; l < stage.loops.size(); ++l) {
                        if (stage.loops[l].funcDim == int(d) && arg.affine->isIdentity(l))
                            identity = true;
                    }
                    if (!identity) edge.pointwise = false;
                }
                if (site.args.size() != stage.loops.size()) edge.pointwise = false;
            }
        }
        for (Node &node : m_dag.m_nodes) {
            if (node.isInput || node.isOutput || node.stages.size() != 1 || node.outgoing.empty())
                continue;
            node.pointwiseUsesOnly =
                std::all_of(node.outgoing.begin(), node.outgoing.end(),
                            [&](int e) { return m_dag.m_edges[size_t(e)].pointwise; });
        }
        // The authors' implementation inlines without search a pointwise Func whose producers
        // are pointwise and whose single consumer is pointwise: long chains of pointwise Funcs.
        // (It also accepts a consumer that is a repeat_edge boundary condition, but defines
        // those as pointwise, so the clause adds nothing.) A Func is pointwise when it has no
        // update and reads every Func producer (not an input buffer) at its own coordinates.
        std::vector<char> pointwise(m_dag.m_nodes.size(), 0);
        for (const Node &node : m_dag.m_nodes) {
            if (node.isInput || node.stages.size() != 1) continue;
            bool all = true;
            for (int e : node.stages[0].incoming) {
                const Edge &edge = m_dag.m_edges[size_t(e)];
                if (!m_dag.m_nodes[size_t(edge.producer)].isInput) all &= edge.pointwise;
            }
            pointwise[size_t(node.index)] = all;
        }
        for (Node &node : m_dag.m_nodes) {
            if (node.isInput || node.isOutput || node.stages.size() != 1) continue;
            if (!pointwise[size_t(node.index)] || node.outgoing.size() != 1) continue;
            bool producers = true;
            for (int e : node.stages[0].incoming) {
                const int p = m_dag.m_edges[size_t(e)].producer;
                if (!m_dag.m_nodes[size_t(p)].isInput) producers &= pointwise[size_t(p)] != 0;
            }
            const int consumer = m_dag.m_edges[size_t(node.outgoing[0])].consumer;
            node.inlinedWithoutSearch = producers && pointwise[size_t(consumer)] != 0;
        }
    }

    FunctionDAG &m_dag;
    const PipelineInstance &m_instance;
    std::map<std::string, int> m_index;
    std::map<std::string, int64_t> m_symbols;
    FuncValueBounds m_valueBounds; ///< value ranges of Funcs, for data-dependent indices
    std::map<std::string, int> m_generatedNames; ///< renumbering of Halide's generated names
    std::map<std::string, int> m_funcNameUses;   ///< Funcs so far per name, to number repeats
};

Box Edge::requiredRegion(const Box &loops) const {
    Box region;
    for (const CallSite &site : calls) {
        if (region.size() < site.args.size()) region.resize(site.args.size());
        for (size_t d = 0; d < site.args.size(); ++d) {
            const CallArg &arg = site.args[d];
            if (arg.affine) {
                region[d].unite(arg.affine->over(loops));
            } else if (arg.bounded) {
                const Interval r = arg.bounded->over(loops);
                region[d].unite(
                    {std::max(r.min, arg.fallback.min), std::min(r.max, arg.fallback.max)});
            }
        }
    }
    // A data-dependent index touches at most one element per point of the box, however many
    // dimensions it spreads over. Where in its range is unknown: the window is put next to
    // the affine accesses of the same dimension, if any, which is where stencils read.
    const int64_t points = std::max<int64_t>(1, boxVolume(loops));
    const Box affineOnly = region;
    for (const CallSite &site : calls) {
        int64_t remaining = points;
        for (size_t d = 0; d < site.args.size(); ++d) {
            const CallArg &arg = site.args[d];
            if (arg.affine || arg.bounded) continue;
            const int64_t extent = std::max<int64_t>(1, std::min(arg.fallback.extent(), remaining));
            remaining = std::max<int64_t>(1, remaining / extent);
            int64_t start = affineOnly[d].empty() ? arg.fallback.min : affineOnly[d].min;
            start = std::clamp(start, arg.fallback.min,
                               std::max(arg.fallback.min, arg.fallback.max - extent + 1));
            region[d].unite({start, start + extent - 1});
        }
    }
    return region;
}

Box Stage::fullLoopBox() const {
    Box box;
    box.reserve(loops.size());
    for (const LoopVar &l : loops)
        box.push_back(l.estimate);
    return box;
}

FunctionDAG::FunctionDAG(const PipelineInstance &instance) {
    wrapHalideErrors("analyzing pipeline '" + instance.name + "'", [&] {
        FunctionDAGBuilder(*this, instance).build();
        return 0;
    });
}

int FunctionDAG::find(const std::string &name) const {
    for (const Node &n : m_nodes) {
        if (n.name == name) return n.index;
    }
    return -1;
}

int FunctionDAG::funcCount() const {
    return int(
        std::count_if(m_nodes.begin(), m_nodes.end(), [](const Node &n) { return !n.isInput; }));
}

int FunctionDAG::stageCount() const {
    int total = 0;
    for (const Node &n : m_nodes)
        total += int(n.stages.size());
    return total;
}

} // namespace beamscope
