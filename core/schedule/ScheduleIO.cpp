// Writing and replaying schedules as JSON.
#include "schedule/ScheduleIO.h"

#include "util/Error.h"
#include "util/JsonNumber.h"

#include <fstream>
#include <optional>

namespace beamscope {

nlohmann::json scheduleToJson(const ScheduleState &state) {
    const FunctionDAG &dag = state.dag();
    nlohmann::json funcs = nlohmann::json::array();
    for (int node : dag.outputsFirst()) {
        const FuncPlacement &p = state.placement(node);
        nlohmann::json stages = nlohmann::json::array();
        for (const StageTiling &t : p.tilings)
            stages.push_back({{"thread", t.threads}, {"serial", t.serial}});
        funcs.push_back({{"name", dag.node(node).name},
                         {"decision", computeKindName(p.kind)},
                         {"consumer", p.host >= 0 ? nlohmann::json(dag.node(p.host).name)
                                                  : nlohmann::json(nullptr)},
                         {"stages", stages}});
    }
    return funcs;
}

StatePtr scheduleFromJson(std::shared_ptr<const FunctionDAG> dag, const nlohmann::json &json,
                          int64_t maxUnrolledPoints) {
    if (!json.is_array()) throw Error("a schedule is a JSON array of Funcs");
    std::map<std::string, const nlohmann::json *> byName;
    for (const auto &f : json) {
        if (!f.is_object() || !f.contains("name") || !f["name"].is_string()) {
            throw Error("every Func of a schedule needs a name");
        }
        byName[f["name"].get<std::string>()] = &f;
    }
    StatePtr state = ScheduleState::initial(dag, maxUnrolledPoints);
    for (int node : dag->outputsFirst()) {
        const Node &n = dag->node(node);
        auto it = byName.find(n.name);
        if (it == byName.end()) throw Error("the schedule does not place '" + n.name + "'");
        const nlohmann::json &f = *it->second;
        try {
            const std::string decision = f.at("decision").get<std::string>();
            const nlohmann::json &stages = f.value("stages", nlohmann::json::array());
            auto sizes = [&](size_t s, const char *key) {
                std::vector<int64_t> out;
                for (const nlohmann::json &v : stages.at(s).at(key)) {
                    const std::optional<int64_t> size = jsonInteger<int64_t>(v);
                    if (!size) throw Error(std::string(key) + " sizes must be integers");
                    out.push_back(*size);
                }
                return out;
            };
            if (decision == "inline") {
                state = state->withInline(node);
            } else if (decision == "root") {
                std::vector<StageTiling> tilings;
                for (size_t s = 0; s < n.stages.size(); ++s) {
                    std::vector<int64_t> threads = sizes(s, "thread"), serial = sizes(s, "serial");
                    // One size per loop of the stage (makeTiling indexes them by loop).
                    if (threads.size() != n.stages[s].loops.size() ||
                        serial.size() != threads.size()) {
                        throw Error("stage " + std::to_string(s) + " has " +
                                    std::to_string(n.stages[s].loops.size()) +
                                    " loops: as many thread and serial sizes are needed");
                    }
                    tilings.push_back(ScheduleState::makeTiling(n.stages[s], threads, serial));
                }
                state = state->withRootTiling(node, tilings);
            } else if (decision == "block" || decision == "thread") {
                const int host = dag->find(f.at("consumer").get<std::string>());
                if (host < 0) throw Error("unknown consumer");
                state = decision == "block" ? state->withBlock(node, host, sizes(0, "serial"))
                                            : state->withThread(node, host);
            } else {
                throw Error("unknown decision '" + decision + "'");
            }
        } catch (const nlohmann::json::exception &e) {
            throw Error("schedule of '" + n.name + "' is malformed: " + e.what());
        } catch (const Error &e) {
            throw Error("schedule of '" + n.name + "': " + e.what());
        }
    }
    return state;
}

namespace {

/// scheduleToJson's form of `search --json`'s "funcs" (each with its stages' tiles).
nlohmann::json fromSearchReport(const nlohmann::json &funcs) {
    nlohmann::json out = nlohmann::json::array();
    if (!funcs.is_array()) throw Error("\"funcs\" is not a list of Funcs");
    for (const nlohmann::json &f : funcs) {
        nlohmann::json stages = nlohmann::json::array();
        for (const nlohmann::json &t : f.value("stage_tiles", nlohmann::json::array()))
            stages.push_back({{"serial", t.at("serial")}, {"thread", t.at("thread")}});
        out.push_back({{"name", f.at("name")},
                       {"decision", f.at("decision")},
                       {"consumer", f.value("consumer", nlohmann::json())},
                       {"stages", stages}});
    }
    return out;
}

} // namespace

ScheduleFile loadScheduleFile(const std::string &path) {
    std::ifstream in(path);
    if (!in) throw Error("cannot read '" + path + "'");
    nlohmann::json json;
    try {
        json = nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception &e) {
        std::string what = e.what();
        throw Error("'" + path + "' is not JSON: " + what.substr(0, what.find('\n')));
    }
    ScheduleFile file;
    if (json.is_object() && json.contains("schedule")) {
        // A bench report's candidate carries its measurement's fields beside the schedule, a
        // measurement record under "measurement".
        const auto measurement = json.find("measurement");
        const nlohmann::json &m =
            measurement != json.end() && measurement->is_object() ? *measurement : json;
        if (m.contains("measured_ms") || m.contains("max_unrolled_points")) {
            file.maxUnrolledPoints =
                jsonIntegerOr(m, "max_unrolled_points", kLegacyMaxUnrolledPoints);
            if (file.maxUnrolledPoints < 1)
                throw Error("'" + path + "': max_unrolled_points must be at least 1");
        }
        json = json["schedule"];
    }
    try {
        if (json.is_object() && json.contains("funcs")) json = fromSearchReport(json["funcs"]);
    } catch (const nlohmann::json::exception &e) {
        std::string what = e.what();
        throw Error("'" + path + "' is not a search report: " + what.substr(0, what.find('\n')));
    } catch (const Error &e) {
        throw Error("'" + path + "' is not a search report: " + e.what());
    }
    file.schedule = std::move(json);
    return file;
}

nlohmann::json readScheduleFile(const std::string &path) {
    return loadScheduleFile(path).schedule;
}

} // namespace beamscope
