// MeasurementStore on real SQLite files in a temporary directory: every field
// of a record survives add() and comes back through find() and records();
// find() picks the newest, findReusable() skips a row lowered otherwise; the
// filters, feature cache, tune-run state and statistics; CSV export parsed back;
// import adds only what is missing; prune's counts. Migration, bad files and
// processes: MeasurementStoreProcessTest.
#include "MeasurementStoreTestUtil.h"

#include "schedule/UnrollLimit.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <fstream>
#include <iterator>
#include <sstream>
#include <tuple>

namespace beamscope {
namespace {

using testing::sampleRecord;
using testing::TempDir;

/// Field-by-field equality (the id aside); NaN equals NaN.
void expectSameRecord(const MeasurementRecord &got, const MeasurementRecord &want) {
    EXPECT_EQ(got.pipeline, want.pipeline);
    EXPECT_EQ(got.pipeline.key(), want.pipeline.key());
    EXPECT_EQ(got.device, want.device);
    EXPECT_EQ(got.schedule, want.schedule);
    EXPECT_EQ(got.scheduleHash, want.scheduleHash);
    EXPECT_EQ(got.baseline, want.baseline);
    EXPECT_EQ(got.gpu, want.gpu);
    EXPECT_EQ(got.costModel, want.costModel);
    if (std::isnan(want.predicted)) {
        EXPECT_TRUE(std::isnan(got.predicted)) << got.predicted;
    } else {
        EXPECT_EQ(got.predicted, want.predicted);
    }
    EXPECT_EQ(got.predictedTerms, want.predictedTerms);
    const Measurement &gm = got.measurement, &wm = want.measurement;
    EXPECT_EQ(gm.label, wm.label);
    EXPECT_EQ(gm.measuredMs, wm.measuredMs);
    EXPECT_EQ(gm.registers, wm.registers);
    EXPECT_EQ(gm.spillBytes, wm.spillBytes);
    EXPECT_EQ(gm.correct, wm.correct);
    EXPECT_EQ(gm.failure, wm.failure);
    EXPECT_EQ(gm.target, wm.target);
    EXPECT_EQ(gm.ptxArch, wm.ptxArch);
    EXPECT_EQ(gm.kernels, wm.kernels);
    EXPECT_EQ(gm.toJson(), wm.toJson()); // the remaining doubles, NaN as null
    EXPECT_EQ(got.repeats, want.repeats);
    EXPECT_EQ(got.origin, want.origin);
    EXPECT_EQ(got.runId, want.runId);
    EXPECT_EQ(got.round, want.round);
    EXPECT_EQ(got.createdAt, want.createdAt);
    EXPECT_EQ(got.features, want.features);
    EXPECT_EQ(got.featureSchema, want.featureSchema);
}

MeasurementRecord failureRecord() {
    MeasurementRecord r = sampleRecord("stencil_chain", 2);
    r.measurement.measuredMs.reset();
    r.measurement.correct.reset();
    r.measurement.maxError = Measurement::kUnknown;
    r.measurement.failure = "compile: CL_OUT_OF_RESOURCES, \"f\" too large";
    r.measurement.label = "greedy#1, retry";
    r.predicted = Measurement::kUnknown;
    r.predictedTerms = nullptr;
    r.features.clear();
    r.featureSchema = 0;
    return r;
}

MeasurementRecord baselineRecord() {
    MeasurementRecord r = sampleRecord("stencil_chain", 0, 4.0);
    r.schedule = nullptr;
    r.baseline = "li2018";
    r.scheduleHash = "baseline:li2018";
    r.measurement.label = "baseline:li2018";
    r.measurement.predicted = Measurement::kUnknown;
    r.predicted = Measurement::kUnknown;
    r.predictedTerms = nullptr;
    r.gpu = nullptr;
    r.costModel = "";
    r.runId = "";
    r.round = -1;
    r.origin = "bench";
    r.features.clear();
    r.featureSchema = 0;
    return r;
}

TEST(MeasurementStore, EveryFieldRoundTripsThroughAFile) {
    TempDir dir;
    const std::string path = dir.file("sub/dir/m.sqlite"); // parents are created
    const std::vector<MeasurementRecord> want{sampleRecord(), failureRecord(), baselineRecord()};
    std::vector<std::int64_t> ids;
    {
        MeasurementStore store(path);
        EXPECT_EQ(store.schemaVersion(), MeasurementStore::kSchemaVersion);
        for (const MeasurementRecord &r : want)
            ids.push_back(store.add(r));
    }
    EXPECT_LT(ids[0], ids[1]);
    EXPECT_LT(ids[1], ids[2]);
    MeasurementStore reopened(path); // read back by a new connection, from the file
    const std::vector<MeasurementRecord> got = reopened.records();
    ASSERT_EQ(got.size(), 3u);
    for (size_t i = 0; i < 3; ++i) {
        SCOPED_TRACE("record " + std::to_string(i));
        EXPECT_EQ(got[i].id, ids[i]);
        expectSameRecord(got[i], want[i]);
        const auto found =
            reopened.find(want[i].pipeline.key(), want[i].scheduleHash, want[i].device.key());
        ASSERT_TRUE(found.has_value());
        EXPECT_EQ(found->id, ids[i]);
        expectSameRecord(*found, want[i]);
    }
    EXPECT_FALSE(got[1].successful());
    EXPECT_FALSE(reopened.find(want[0].pipeline.key(), "ffffffffffffffff", want[0].device.key()));
}

TEST(MeasurementStore, ReadOnlyReadsEverythingAndWritesNothing) {
    TempDir dir;
    const std::string path = dir.file("ro.sqlite");
    std::int64_t id = 0;
    {
        MeasurementStore store(path);
        id = store.add(sampleRecord());
    }
    std::ifstream before(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(before)), {});
    {
        MeasurementStore store(path, MeasurementStore::Access::ReadOnly);
        EXPECT_TRUE(store.readOnly());
        ASSERT_EQ(store.records().size(), 1u);
        expectSameRecord(store.records()[0], sampleRecord());
        EXPECT_EQ(store.stats().records, 1);
        EXPECT_THROW(store.add(sampleRecord("harris")), StoreError);
        EXPECT_THROW(store.setFeatures(id, 3, {1.0f}), StoreError);
    }
    std::ifstream after(path, std::ios::binary);
    EXPECT_EQ(std::string((std::istreambuf_iterator<char>(after)), {}), bytes);
    // A missing file is an error, not a new database.
    EXPECT_THROW(MeasurementStore(dir.file("missing.sqlite"), MeasurementStore::Access::ReadOnly),
                 StoreError);
    EXPECT_FALSE(std::ifstream(dir.file("missing.sqlite")).good());
}

TEST(MeasurementStore, AddSetsCreatedAtWhenZero) {
    TempDir dir;
    MeasurementStore store(dir.file("m.sqlite"));
    MeasurementRecord r = sampleRecord();
    r.createdAt = 0;
    const std::int64_t before = std::time(nullptr);
    store.add(r);
    const std::int64_t after = std::time(nullptr);
    const auto got = store.records();
    ASSERT_EQ(got.size(), 1u);
    EXPECT_GE(got[0].createdAt, before);
    EXPECT_LE(got[0].createdAt, after);
}

TEST(MeasurementStore, FindReturnsTheNewest) {
    TempDir dir;
    MeasurementStore store(dir.file("m.sqlite"));
    MeasurementRecord newer = sampleRecord("stencil_chain", 1, 2.0);
    newer.createdAt = 2000;
    MeasurementRecord older = sampleRecord("stencil_chain", 1, 3.0);
    older.createdAt = 1000;
    const std::int64_t newerId = store.add(newer);
    store.add(older); // added later but created earlier
    const auto key = std::make_tuple(newer.pipeline.key(), newer.scheduleHash, newer.device.key());
    auto found = store.find(std::get<0>(key), std::get<1>(key), std::get<2>(key));
    ASSERT_TRUE(found);
    EXPECT_EQ(found->id, newerId);
    EXPECT_EQ(found->measurement.measuredMs->median, 2.0);
    MeasurementRecord sameTime = sampleRecord("stencil_chain", 1, 5.0);
    sameTime.createdAt = 2000; // a tie on time: the later row wins
    const std::int64_t tieId = store.add(sameTime);
    found = store.find(std::get<0>(key), std::get<1>(key), std::get<2>(key));
    ASSERT_TRUE(found);
    EXPECT_EQ(found->id, tieId);
    EXPECT_EQ(found->measurement.measuredMs->median, 5.0);
}

TEST(MeasurementStore, FindReusableSkipsARowLoweredWithAnotherUnrollLimit) {
    // A 2 x 8 serial tile measured by a build that unrolled fewer than 16 points ran rolled;
    // this build unrolls it, so bench, tune and collect --resume measure it again.
    TempDir dir;
    MeasurementStore store(dir.file("m.sqlite"));
    MeasurementRecord legacy = sampleRecord("stencil_chain", 1, 2.0);
    legacy.schedule = nlohmann::json::parse(
        R"([{"name": "output", "stages": [{"serial": [2, 8], "threads": [16, 4]}]}])");
    legacy.scheduleHash = scheduleHash(legacy.schedule);
    legacy.measurement.maxUnrolledPoints = kLegacyMaxUnrolledPoints;
    store.add(legacy);
    const std::string pipeline = legacy.pipeline.key(), device = legacy.device.key();
    ASSERT_TRUE(store.find(pipeline, legacy.scheduleHash, device));
    EXPECT_FALSE(store.findReusable(pipeline, legacy.scheduleHash, device));

    MeasurementRecord current = legacy;
    current.measurement.maxUnrolledPoints = kMaxUnrolledPoints;
    current.createdAt = legacy.createdAt + 1;
    const std::int64_t id = store.add(current);
    const auto found = store.findReusable(pipeline, legacy.scheduleHash, device);
    ASSERT_TRUE(found);
    EXPECT_EQ(found->id, id);
}

TEST(MeasurementStore, RecordFilterSelectsByEachField) {
    TempDir dir;
    MeasurementStore store(dir.file("m.sqlite"));
    MeasurementRecord a = sampleRecord("stencil_chain", 1);
    a.createdAt = 30;
    MeasurementRecord b = sampleRecord("unsharp_mask", 1);
    b.createdAt = 10;
    b.runId = "run-8";
    MeasurementRecord c = failureRecord();
    c.createdAt = 20;
    c.device.name = "other-device";
    const std::int64_t ia = store.add(a), ib = store.add(b), ic = store.add(c);
    auto ids = [&](const RecordFilter &f) {
        std::vector<std::int64_t> out;
        for (const MeasurementRecord &r : store.records(f))
            out.push_back(r.id);
        return out;
    };
    using V = std::vector<std::int64_t>;
    auto by = [](std::string RecordFilter::*field, const std::string &value) {
        RecordFilter f;
        f.*field = value;
        return f;
    };
    RecordFilter successful = by(&RecordFilter::app, "stencil_chain");
    successful.successfulOnly = true;
    RecordFilter anySuccessful;
    anySuccessful.successfulOnly = true;
    EXPECT_EQ(ids(RecordFilter()), (V{ib, ic, ia})); // oldest first
    EXPECT_EQ(ids(by(&RecordFilter::pipelineKey, a.pipeline.key())), (V{ic, ia}));
    EXPECT_EQ(ids(by(&RecordFilter::deviceKey, c.device.key())), (V{ic}));
    EXPECT_EQ(ids(by(&RecordFilter::deviceKey, a.device.key())), (V{ib, ia}));
    EXPECT_EQ(ids(by(&RecordFilter::app, "unsharp_mask")), (V{ib}));
    EXPECT_EQ(ids(by(&RecordFilter::runId, "run-7")), (V{ic, ia}));
    EXPECT_EQ(ids(by(&RecordFilter::runId, "run-8")), (V{ib}));
    EXPECT_EQ(ids(successful), (V{ia}));
    EXPECT_EQ(ids(anySuccessful), (V{ib, ia}));
    EXPECT_TRUE(ids(by(&RecordFilter::app, "nope")).empty());
}

TEST(MeasurementStore, SetFeaturesCachesAVector) {
    TempDir dir;
    MeasurementStore store(dir.file("m.sqlite"));
    const std::int64_t id = store.add(baselineRecord());
    EXPECT_TRUE(store.records()[0].features.empty());
    const std::vector<float> features{0.5f, -1.0f, 1e-30f, 7.0f, 123456.75f};
    store.setFeatures(id, 9, features);
    const auto got = store.records();
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].features, features);
    EXPECT_EQ(got[0].featureSchema, 9);
    EXPECT_THROW(store.setFeatures(id + 100, 9, features), StoreError);
}

TEST(MeasurementStore, RunStateIsReplacedAndReadBack) {
    TempDir dir;
    const std::string path = dir.file("m.sqlite");
    {
        MeasurementStore store(path);
        EXPECT_FALSE(store.run("run-1"));
        store.upsertRun("run-1", {{"round", 1}, {"best", 2.5}});
        store.upsertRun("run-1", {{"round", 2}, {"best", 1.5}});
        store.upsertRun("run-2", {{"round", 0}});
    }
    MeasurementStore store(path);
    EXPECT_EQ(store.run("run-1"), (nlohmann::json{{"round", 2}, {"best", 1.5}}));
    EXPECT_EQ(store.run("run-2"), (nlohmann::json{{"round", 0}}));
    EXPECT_FALSE(store.run("run-3"));
}

TEST(MeasurementStore, StatsCountRecordsPipelinesAndDevices) {
    TempDir dir;
    MeasurementStore store(dir.file("m.sqlite"));
    EXPECT_EQ(store.stats().records, 0);
    store.add(sampleRecord("stencil_chain", 1));
    store.add(sampleRecord("stencil_chain", 2));
    store.add(sampleRecord("unsharp_mask", 1));
    store.add(failureRecord()); // stencil_chain, failed
    MeasurementRecord unchecked = sampleRecord("unsharp_mask", 3);
    unchecked.measurement.correct.reset(); // measured but not checked: not successful
    unchecked.device.name = "gpu-2";
    store.add(unchecked);
    const StoreStats s = store.stats();
    EXPECT_EQ(s.records, 5);
    EXPECT_EQ(s.successful, 3);
    EXPECT_EQ(s.failed, 2);
    EXPECT_EQ(s.pipelines, 2);
    EXPECT_EQ(s.devices, 2);
    const std::string sc = sampleRecord("stencil_chain").pipeline.key();
    const std::string um = sampleRecord("unsharp_mask").pipeline.key();
    const std::string dev = sampleRecord().device.key(), dev2 = unchecked.device.key();
    std::vector<std::tuple<std::string, std::string, std::int64_t>> want{
        {sc, dev, 3}, {um, dev, 1}, {um, dev2, 1}};
    std::sort(want.begin(), want.end());
    EXPECT_EQ(s.groups, want);
}

/// Rows of an RFC 4180 CSV file (quoted fields may hold commas, quotes and line
/// breaks).
std::vector<std::vector<std::string>> readCsv(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string text = buffer.str();
    std::vector<std::vector<std::string>> rows(1);
    std::string field;
    bool quoted = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            rows.back().push_back(field);
            field.clear();
        } else if (c == '\n') {
            rows.back().push_back(field);
            field.clear();
            rows.emplace_back();
        } else {
            field += c;
        }
    }
    EXPECT_FALSE(quoted) << "unterminated quoted field";
    if (rows.back().empty()) rows.pop_back();
    return rows;
}

TEST(MeasurementStore, ExportCsvWritesAHeaderAndOneRowPerRecord) {
    TempDir dir;
    MeasurementStore store(dir.file("m.sqlite"));
    MeasurementRecord crashed = failureRecord();
    crashed.measurement.failure = "crash: worker killed by signal 11";
    crashed.measurement.crashVerdict = "device compiler crashed";
    const std::vector<MeasurementRecord> want{sampleRecord(), crashed, baselineRecord()};
    std::vector<std::int64_t> ids;
    for (const MeasurementRecord &r : want)
        ids.push_back(store.add(r));
    const std::string csvPath = dir.file("out.csv");
    store.exportCsv(csvPath);
    const auto rows = readCsv(csvPath);
    ASSERT_EQ(rows.size(), 4u);
    const std::vector<std::string> &header = rows[0];
    auto column = [&](const std::string &name) {
        const auto it = std::find(header.begin(), header.end(), name);
        EXPECT_NE(it, header.end()) << name;
        return size_t(it - header.begin());
    };
    for (size_t i = 0; i < 3; ++i) {
        SCOPED_TRACE("row " + std::to_string(i));
        const std::vector<std::string> &row = rows[i + 1];
        ASSERT_EQ(row.size(), header.size());
        const MeasurementRecord &r = want[i];
        EXPECT_EQ(row[column("id")], std::to_string(ids[i]));
        EXPECT_EQ(row[column("created_at")], std::to_string(r.createdAt));
        EXPECT_EQ(row[column("app")], r.pipeline.app);
        EXPECT_EQ(row[column("generator_library")], "/opt/gen lib/libgen.so");
        EXPECT_EQ(row[column("params")], "height=64 length=2 width=64");
        EXPECT_EQ(row[column("pipeline_key")], r.pipeline.key());
        EXPECT_EQ(row[column("device_key")], r.device.key());
        EXPECT_EQ(row[column("schedule_hash")], r.scheduleHash);
        EXPECT_EQ(row[column("label")], r.measurement.label);
        EXPECT_EQ(row[column("failure")], r.measurement.failure);
        EXPECT_EQ(row[column("baseline")], r.baseline);
        EXPECT_EQ(row[column("round")], std::to_string(r.round));
        const std::string schedule = row[column("schedule")];
        if (r.schedule.is_null()) {
            EXPECT_EQ(schedule, "");
        } else {
            EXPECT_EQ(nlohmann::json::parse(schedule), r.schedule);
        }
    }
    EXPECT_EQ(std::stod(rows[1][column("median_ms")]), 1.5);
    EXPECT_EQ(std::stod(rows[1][column("min_ms")]), 1.25);
    EXPECT_EQ(std::stod(rows[1][column("predicted_ms")]), 0.125);
    EXPECT_EQ(rows[1][column("correct")], "true");
    EXPECT_EQ(rows[2][column("median_ms")], ""); // failed: not measured
    EXPECT_EQ(rows[2][column("correct")], "");
    EXPECT_EQ(rows[1][column("crash_verdict")], ""); // ran: no verdict
    EXPECT_EQ(rows[2][column("crash_verdict")], "device compiler crashed");
    EXPECT_EQ(rows[2][column("predicted_ms")], "");
    EXPECT_EQ(nlohmann::json::parse(rows[1][column("predicted_terms")]), want[0].predictedTerms);
    EXPECT_THROW(store.exportCsv(dir.file("no/such/dir/out.csv")), StoreError);
}

TEST(MeasurementStore, ImportAddsOnlyMissingRecordsAndRuns) {
    TempDir dir;
    const std::string from = dir.file("from.sqlite"), to = dir.file("to.sqlite");
    const MeasurementRecord shared = sampleRecord("stencil_chain", 1);
    {
        MeasurementStore source(from);
        source.add(shared);
        source.add(sampleRecord("stencil_chain", 2));
        source.add(failureRecord());
        source.upsertRun("run-7", {{"round", 3}});
    }
    MeasurementStore target(to);
    target.add(shared); // same pipeline, schedule, device, time and label
    target.add(sampleRecord("unsharp_mask", 1));
    target.upsertRun("run-9", {{"round", 1}});
    EXPECT_EQ(target.importFrom(from), 2);
    EXPECT_EQ(target.stats().records, 4);
    EXPECT_EQ(target.importFrom(from), 0);
    EXPECT_EQ(target.stats().records, 4);
    EXPECT_EQ(target.run("run-7"), (nlohmann::json{{"round", 3}}));
    EXPECT_EQ(target.run("run-9"), (nlohmann::json{{"round", 1}}));
    const auto failed = target.find(failureRecord().pipeline.key(), failureRecord().scheduleHash,
                                    failureRecord().device.key());
    ASSERT_TRUE(failed);
    expectSameRecord(*failed, failureRecord());
    EXPECT_THROW(target.importFrom(dir.file("missing.sqlite")), StoreError);
}

TEST(MeasurementStore, PruneCountsWhatItDeletes) {
    TempDir dir;
    MeasurementStore store(dir.file("m.sqlite"));
    const std::int64_t now = std::time(nullptr);
    for (int i = 0; i < 3; ++i) { // three of one (pipeline, schedule, device)
        MeasurementRecord r = sampleRecord("stencil_chain", 1, 1.0 + i);
        r.createdAt = now - 100 + i;
        store.add(r);
    }
    MeasurementRecord old = sampleRecord("unsharp_mask", 1);
    old.createdAt = now - 10 * 86400;
    store.add(old);
    MeasurementRecord failed = failureRecord();
    failed.createdAt = now;
    store.add(failed);
    MeasurementRecord unchecked = sampleRecord("unsharp_mask", 2);
    unchecked.measurement.correct = false;
    unchecked.createdAt = now;
    store.add(unchecked);
    EXPECT_EQ(store.stats().records, 6);

    auto prune = [&](bool failed, std::int64_t olderThanDays, bool duplicates) {
        PruneOptions options;
        options.failed = failed;
        options.olderThanDays = olderThanDays;
        options.duplicates = duplicates;
        return store.prune(options);
    };
    EXPECT_EQ(prune(true, -1, false), 2);
    EXPECT_EQ(store.stats().records, 4);
    EXPECT_EQ(prune(false, 5, false), 1);
    EXPECT_EQ(store.stats().records, 3);
    EXPECT_EQ(prune(false, -1, true), 2);
    const auto left = store.records();
    ASSERT_EQ(left.size(), 1u);
    EXPECT_EQ(left[0].measurement.measuredMs->median,
              3.0); // the newest of the three
    EXPECT_EQ(prune(true, 5, true), 0);
}

} // namespace
} // namespace beamscope
