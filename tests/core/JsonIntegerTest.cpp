// Integer fields of user JSON (schedule tile sizes, session and benchmark counts, ptxas
// resources): taken only when they are integers that fit, never converted from a double such as
// 1e67 (undefined behaviour in the JSON library, found by fuzz.parsers in a schedule's sizes).
#include "dag/FunctionDAG.h"
#include "measure/Measurement.h"
#include "pipeline/AppCatalog.h"
#include "schedule/ScheduleIO.h"
#include "store/MeasurementRecord.h"
#include "util/Error.h"
#include "util/JsonNumber.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>

using namespace beamscope;

TEST(JsonInteger, TakesIntegersThatFitAndNothingElse) {
    using J = nlohmann::json;
    EXPECT_EQ(jsonInteger<int>(J(7)), 7);
    EXPECT_EQ(jsonInteger<int>(J(-7)), -7);
    EXPECT_EQ(jsonInteger<int>(J::parse("2147483647")), 2147483647);
    EXPECT_FALSE(jsonInteger<int>(J::parse("2147483648")));
    EXPECT_FALSE(jsonInteger<int>(J::parse("-2147483649")));
    EXPECT_FALSE(jsonInteger<int>(J(2.0)));
    EXPECT_FALSE(jsonInteger<int>(J::parse("1e67")));
    EXPECT_FALSE(jsonInteger<int>(J("7")));
    EXPECT_FALSE(jsonInteger<int>(J()));
    EXPECT_EQ(jsonInteger<std::int64_t>(J::parse("9223372036854775807")), INT64_MAX);
    EXPECT_FALSE(jsonInteger<std::int64_t>(J::parse("9223372036854775808")));
    EXPECT_EQ(jsonInteger<std::uint64_t>(J::parse("18446744073709551615")), UINT64_MAX);
    EXPECT_FALSE(jsonInteger<std::uint64_t>(J(-1)));
    EXPECT_EQ(jsonIntegerOr(J::parse(R"({"n": 3})"), "n", 0), 3);
    EXPECT_EQ(jsonIntegerOr(J::parse(R"({"n": 3.5})"), "n", -1), -1);
    EXPECT_EQ(jsonIntegerOr(J::parse(R"({"m": 3})"), "n", -1), -1);
}

TEST(JsonInteger, AScheduleWithAHugeTileSizeIsRefusedInOneLine) {
    auto dag = std::make_shared<const FunctionDAG>(buildApp("stencil_chain", {{"length", 4}}));
    nlohmann::json schedule = nlohmann::json::array();
    for (int node : dag->outputsFirst()) {
        nlohmann::json stages = nlohmann::json::array();
        for (size_t s = 0; s < dag->node(node).stages.size(); ++s)
            stages.push_back({{"thread", {16, 4}}, {"serial", {1, 1}}});
        schedule.push_back({{"name", dag->node(node).name},
                            {"decision", "root"},
                            {"consumer", nullptr},
                            {"stages", stages}});
    }
    EXPECT_NO_THROW(scheduleFromJson(dag, schedule));
    schedule[1]["stages"][0]["serial"][0] = nlohmann::json::parse("1e67");
    try {
        scheduleFromJson(dag, schedule);
        FAIL() << "a tile size of 1e67 was accepted";
    } catch (const Error &e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("sizes must be integers"), std::string::npos) << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
}

TEST(JsonInteger, AMeasurementKeepsOnlyIntegerResources) {
    const Measurement m = Measurement::fromJson(nlohmann::json::parse(
        R"({"label": "a", "registers": 1e67, "spill_bytes": 12, "timed_runs": 2.5,
            "kernels": [{"name": "k", "registers": 40, "stack_bytes": -3e40}],
            "kernel_times": [{"name": "k", "ms": 0.5, "launches": 1e30}]})"));
    EXPECT_EQ(m.registers, -1); // unknown, as when absent
    EXPECT_EQ(m.spillBytes, 12);
    EXPECT_EQ(m.timedRuns, 0);
    ASSERT_EQ(m.kernels.size(), 1u);
    EXPECT_EQ(m.kernels[0].registers, 40);
    EXPECT_EQ(m.kernels[0].stackBytes, 0);
    ASSERT_EQ(m.kernelTimes.size(), 1u);
    EXPECT_EQ(m.kernelTimes[0].launches, 0);
}

TEST(JsonInteger, AMeasurementRecordKeepsOnlyIntegerCounts) {
    // A database row's JSON (databases are shared between machines and people).
    const MeasurementRecord r = MeasurementRecord::fromJson(nlohmann::json::parse(
        R"({"repeats": 1e67, "round": 2.5, "created_at": -1e300, "feature_schema": 17,
            "measurement": {"label": "a"}})"));
    EXPECT_EQ(r.repeats, 0);
    EXPECT_EQ(r.round, -1);
    EXPECT_EQ(r.createdAt, 0);
    EXPECT_EQ(r.featureSchema, 17);
    EXPECT_EQ(r.measurement.label, "a");
}
