// The measurement database as a file other programs touch: a v1 file written
// with raw SQL is migrated to v3 (through v2) and its rows stay readable; a v2
// file gains the crash_verdict column; a newer-schema
// file and a file of random bytes are refused with one line; a writer process
// (beamscope-store-writer) adding rows while this process reads never shows an
// error or a shrinking count; a writer killed with SIGKILL loses nothing it
// reported committed and leaves a sound file.
#include "MeasurementStoreTestUtil.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <fstream>
#include <random>
#include <set>
#include <thread>

extern char **environ;

namespace beamscope {
namespace {

using testing::sampleRecord;
using testing::TempDir;

/// Runs `sql` on the file at `path` through the sqlite3 C API (not through the
/// store).
void rawExec(const std::string &path, const std::string &sql) {
    sqlite3 *db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    char *error = nullptr;
    const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
    EXPECT_EQ(rc, SQLITE_OK) << (error ? error : "") << "\n" << sql;
    sqlite3_free(error);
    sqlite3_close(db);
}

/// The first column of the first row of `sql` as text ("" when there is no
/// row).
std::string rawQuery(const std::string &path, const std::string &sql) {
    sqlite3 *db = nullptr;
    EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    sqlite3_stmt *stmt = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr), SQLITE_OK)
        << sqlite3_errmsg(db);
    std::string out;
    if (stmt && sqlite3_step(stmt) == SQLITE_ROW) {
        const unsigned char *text = sqlite3_column_text(stmt, 0);
        out = text ? reinterpret_cast<const char *>(text) : "";
    }
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return out;
}

/// Single quotes doubled, for an SQL string literal.
std::string quoted(const std::string &text) {
    std::string out = "'";
    for (char c : text)
        out += c == '\'' ? std::string("''") : std::string(1, c);
    return out + "'";
}

TEST(MeasurementStoreFile, MigratesAVersion1File) {
    TempDir dir;
    const std::string path = dir.file("v1.sqlite");
    const MeasurementRecord r = sampleRecord();
    const std::string measurement =
        R"({"label":"beam#0","predicted":0.125,"measured_ms":{"median":2.5,"min":2.0,"max":3.0},)"
        R"("registers":40,"spill_bytes":0,"correct":true,"max_error":1e-06,"failure":""})";
    // Version 1 as StoreSchema.h describes it: today's measurements table without
    // run_id, round, features and feature_schema, and no runs table.
    rawExec(path, R"sql(
        CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE measurements(
            id INTEGER PRIMARY KEY,
            pipeline_key TEXT NOT NULL, app TEXT NOT NULL, generator_library TEXT NOT NULL,
            params TEXT NOT NULL, estimates TEXT NOT NULL, dag_hash TEXT NOT NULL,
            device_key TEXT NOT NULL, device_kind TEXT NOT NULL, device_name TEXT NOT NULL,
            device_platform TEXT NOT NULL, device_driver TEXT NOT NULL,
            halide_version TEXT NOT NULL, schedule TEXT, schedule_hash TEXT NOT NULL,
            baseline TEXT NOT NULL, gpu TEXT, cost_model TEXT NOT NULL, predicted REAL,
            predicted_terms TEXT, label TEXT NOT NULL, measurement TEXT NOT NULL,
            median_ms REAL, min_ms REAL, max_ms REAL, correct INTEGER, max_error REAL,
            failure TEXT NOT NULL, repeats INTEGER NOT NULL, origin TEXT NOT NULL,
            created_at INTEGER NOT NULL);
        CREATE INDEX measurements_key ON measurements(pipeline_key, schedule_hash, device_key);
        INSERT INTO meta(key, value) VALUES('schema_version', '1');
    )sql");
    rawExec(path, "INSERT INTO measurements(pipeline_key, app, generator_library, params, "
                  "estimates, dag_hash, device_key, device_kind, device_name, "
                  "device_platform, "
                  "device_driver, halide_version, schedule, schedule_hash, baseline, gpu, "
                  "cost_model, predicted, predicted_terms, label, measurement, median_ms, "
                  "min_ms, "
                  "max_ms, correct, max_error, failure, repeats, origin, created_at) "
                  "VALUES(" +
                      quoted(r.pipeline.key()) + ", " + quoted(r.pipeline.app) + ", " +
                      quoted(r.pipeline.generatorLibrary) + ", " +
                      quoted(nlohmann::json(r.pipeline.params).dump()) + ", " +
                      quoted(nlohmann::json(r.pipeline.estimates).dump()) + ", " +
                      quoted(r.pipeline.dagHash) + ", " + quoted(r.device.key()) +
                      ", 'opencl', 'pthread-skylake', 'Portable Computing Language', '', "
                      "'21.0.0', " +
                      quoted(r.schedule.dump()) + ", " + quoted(r.scheduleHash) + ", '', " +
                      quoted(r.gpu.dump()) + ", 'analytic', 0.125, NULL, 'beam#0', " +
                      quoted(measurement) +
                      ", 2.5, 2.0, 3.0, 1, 1e-6, '', 5, 'bench', 1600000000)");

    {
        MeasurementStore store(path);
        EXPECT_EQ(store.schemaVersion(), 3);
        const auto rows = store.records();
        ASSERT_EQ(rows.size(), 1u);
        const MeasurementRecord &got = rows[0];
        EXPECT_EQ(got.pipeline, r.pipeline);
        EXPECT_EQ(got.device, r.device);
        EXPECT_EQ(got.schedule, r.schedule);
        EXPECT_EQ(got.gpu, r.gpu);
        EXPECT_EQ(got.predicted, 0.125);
        EXPECT_TRUE(got.predictedTerms.is_null());
        EXPECT_EQ(got.measurement.label, "beam#0");
        EXPECT_EQ(got.measurement.measuredMs, (RunTimes{2.5, 2.0, 3.0}));
        EXPECT_EQ(got.measurement.correct, true);
        EXPECT_TRUE(got.successful());
        EXPECT_EQ(got.repeats, 5);
        EXPECT_EQ(got.createdAt, 1600000000);
        EXPECT_EQ(got.runId, ""); // the defaults of the new columns
        EXPECT_EQ(got.round, -1);
        EXPECT_TRUE(got.features.empty());
        EXPECT_EQ(got.featureSchema, 0);
        ASSERT_TRUE(store.find(r.pipeline.key(), r.scheduleHash, r.device.key()));
        // The new columns and table work on the migrated file.
        store.setFeatures(got.id, 3, {1.0f, 2.0f});
        store.add(sampleRecord("unsharp_mask"));
        store.upsertRun("run-7", {{"round", 1}});
    }
    EXPECT_EQ(rawQuery(path, "SELECT value FROM meta WHERE key = 'schema_version'"), "3");
    EXPECT_EQ(rawQuery(path, "SELECT crash_verdict FROM measurements WHERE id = 1"), "");
    MeasurementStore again(path); // a second open finds v3 and migrates nothing
    EXPECT_EQ(again.schemaVersion(), 3);
    EXPECT_EQ(again.records().size(), 2u);
    RecordFilter run7;
    run7.runId = "run-7";
    EXPECT_EQ(again.records(run7).size(), 1u);
    EXPECT_EQ(again.records()[0].features, (std::vector<float>{1.0f, 2.0f}));
    EXPECT_EQ(again.run("run-7"), (nlohmann::json{{"round", 1}}));
}

TEST(MeasurementStoreFile, RefusesANewerSchemaInOneLine) {
    TempDir dir;
    const std::string path = dir.file("new.sqlite");
    { MeasurementStore store(path); }
    rawExec(path, "UPDATE meta SET value = '4' WHERE key = 'schema_version'");
    try {
        MeasurementStore store(path);
        FAIL() << "a schema-4 file was opened";
    } catch (const StoreError &e) {
        const std::string what = e.what();
        EXPECT_EQ(what.find('\n'), std::string::npos) << what;
        EXPECT_NE(what.find(path), std::string::npos) << what;
        EXPECT_NE(what.find("schema version 4"), std::string::npos) << what;
    }
    EXPECT_EQ(rawQuery(path, "SELECT value FROM meta WHERE key = 'schema_version'"), "4");
}

TEST(MeasurementStoreFile, V2FileGainsTheCrashVerdictColumn) {
    TempDir dir;
    const std::string path = dir.file("v2.sqlite");
    {
        MeasurementStore store(path);
        store.add(sampleRecord("stencil_chain"));
    }
    // Back to version 2 as it was: no crash_verdict column.
    rawExec(path, "ALTER TABLE measurements DROP COLUMN crash_verdict");
    rawExec(path, "UPDATE meta SET value = '2' WHERE key = 'schema_version'");
    MeasurementStore store(path);
    EXPECT_EQ(store.schemaVersion(), 3);
    EXPECT_EQ(store.records().size(), 1u);
    MeasurementRecord crashed = sampleRecord("unsharp_mask");
    crashed.measurement.failure = "crash: signal 11 (Segmentation fault); triage: device "
                                  "compiler crashed (...)";
    crashed.measurement.crashVerdict = "device compiler crashed";
    const std::int64_t id = store.add(crashed);
    EXPECT_EQ(
        rawQuery(path, "SELECT crash_verdict FROM measurements WHERE id = " + std::to_string(id)),
        "device compiler crashed");
    EXPECT_EQ(store.records().back().measurement.crashVerdict, "device compiler crashed");
}

TEST(MeasurementStoreFile, CorruptFileIsOneLineNotADatabase) {
    TempDir dir;
    const std::string path = dir.file("corrupt.sqlite");
    {
        std::mt19937 random(12345);
        std::ofstream out(path, std::ios::binary);
        for (int i = 0; i < 8192; ++i)
            out.put(char(random() & 0xff));
    }
    try {
        MeasurementStore store(path);
        FAIL() << "random bytes were opened as a database";
    } catch (const StoreError &e) {
        const std::string what = e.what();
        EXPECT_EQ(what.find('\n'), std::string::npos) << what;
        EXPECT_NE(what.find("not a database"), std::string::npos) << what;
        EXPECT_NE(what.find(path), std::string::npos) << what;
    }
}

/// A beamscope-store-writer process and the read end of its stdout.
struct Writer {
    pid_t pid = -1;
    int out = -1;
    std::string pending; ///< bytes after the last complete line
    std::vector<std::int64_t> ids;

    Writer(const std::string &db, long long n, int pauseMs) {
        int fds[2];
        EXPECT_EQ(pipe(fds), 0);
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
        posix_spawn_file_actions_addclose(&actions, fds[0]);
        posix_spawn_file_actions_addclose(&actions, fds[1]);
        std::string exe = BEAMSCOPE_TEST_STORE_WRITER, count = std::to_string(n),
                    pause = std::to_string(pauseMs), path = db;
        char *argv[] = {exe.data(), path.data(), count.data(), pause.data(), nullptr};
        EXPECT_EQ(posix_spawn(&pid, exe.c_str(), &actions, nullptr, argv, environ), 0) << exe;
        posix_spawn_file_actions_destroy(&actions);
        close(fds[1]);
        out = fds[0];
    }
    ~Writer() {
        if (pid > 0) {
            kill(pid, SIGKILL);
            waitpid(pid, nullptr, 0);
        }
        if (out >= 0) close(out);
    }
    /// Reads what is there (blocking until something is, or EOF); false at EOF.
    bool readSome() {
        char buffer[4096];
        const ssize_t got = read(out, buffer, sizeof buffer);
        if (got <= 0) return got < 0 && errno == EAGAIN;
        pending.append(buffer, size_t(got));
        for (size_t end; (end = pending.find('\n')) != std::string::npos;) {
            ids.push_back(std::stoll(pending.substr(0, end)));
            pending.erase(0, end + 1);
        }
        return true;
    }
    /// Waits for the process; its wait status.
    int wait() {
        int status = 0;
        waitpid(pid, &status, 0);
        pid = -1;
        return status;
    }
};

TEST(MeasurementStoreProcess, ReaderSeesAWriterProcessCommitRowByRow) {
    TempDir dir;
    const std::string path = dir.file("shared.sqlite");
    MeasurementStore reader(path);
    const std::int64_t n = 300;
    Writer writer(path, n, 2);
    fcntl(writer.out, F_SETFL, fcntl(writer.out, F_GETFL) | O_NONBLOCK);
    std::int64_t last = 0;
    int reads = 0, intermediate = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    bool open = true;
    while (open && std::chrono::steady_clock::now() < deadline) {
        open = writer.readSome();
        try {
            const auto rows = reader.records();
            const StoreStats stats = reader.stats();
            ASSERT_GE(std::int64_t(rows.size()), last) << "the count went down";
            ASSERT_GE(stats.records, std::int64_t(rows.size())) << "the count went down";
            for (const MeasurementRecord &r : rows)
                ASSERT_EQ(r.measurement.label.rfind("writer#", 0), 0u) << r.measurement.label;
            last = stats.records;
            intermediate += last > 0 && last < n;
            ++reads;
        } catch (const std::exception &e) {
            FAIL() << "read " << reads << " while the writer wrote: " << e.what();
        }
        if (open) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ASSERT_FALSE(open) << "the writer did not finish in 120 s";
    const int status = writer.wait();
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
    EXPECT_GT(intermediate, 0) << "no read fell between the first and the last row";
    EXPECT_EQ(writer.ids.size(), size_t(n));
    EXPECT_EQ(reader.stats().records, n);
    std::set<std::int64_t> stored;
    for (const MeasurementRecord &r : reader.records())
        stored.insert(r.id);
    EXPECT_EQ(stored, std::set<std::int64_t>(writer.ids.begin(), writer.ids.end()));
}

TEST(MeasurementStoreProcess, AKilledWriterLosesNothingCommitted) {
    TempDir dir;
    const std::string path = dir.file("killed.sqlite");
    Writer writer(path, 100000000, 0);
    while (writer.ids.size() < 20 && writer.readSome()) {
    }
    ASSERT_GE(writer.ids.size(), 20u) << "the writer stopped early";
    ASSERT_EQ(kill(writer.pid, SIGKILL), 0);
    const int status = writer.wait();
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << status;
    while (writer.readSome()) { // ids printed before the kill
    }
    std::set<std::int64_t> stored;
    {
        MeasurementStore store(path);
        for (const MeasurementRecord &r : store.records()) {
            EXPECT_TRUE(r.successful());
            stored.insert(r.id);
        }
        for (std::int64_t id : writer.ids)
            EXPECT_TRUE(stored.count(id)) << "committed row " << id << " is lost";
        // At most the row in flight was committed without being printed.
        EXPECT_LE(stored.size(), writer.ids.size() + 1);
        store.add(sampleRecord("unsharp_mask"));
        EXPECT_EQ(store.stats().records, std::int64_t(stored.size()) + 1);
    }
    EXPECT_EQ(rawQuery(path, "PRAGMA integrity_check"), "ok");
}

} // namespace
} // namespace beamscope
