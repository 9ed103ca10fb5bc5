// Schema DDL (version 3), the v1 -> v2 and v2 -> v3 migrations, and the record <-> row codec:
// identity parts, JSON as TEXT (NULL for JSON null), NaN as NULL, features as a BLOB of native
// float32, and the measurement both as its JSON (read back) and as flat columns (queries, CSV).
#include "store/StoreSchema.h"

#include <cmath>
#include <cstring>

namespace beamscope::store_detail {

const char *const kRecordColumns =
    "pipeline_key, app, generator_library, params, estimates, dag_hash, device_key, device_kind, "
    "device_name, device_platform, device_driver, halide_version, schedule, schedule_hash, "
    "baseline, gpu, cost_model, predicted, predicted_terms, label, measurement, median_ms, "
    "min_ms, max_ms, correct, max_error, failure, repeats, origin, run_id, round, created_at, "
    "features, feature_schema, crash_verdict";

const char *const kRecordPlaceholders =
    "?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, "
    "?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31, ?32, ?33, ?34, ?35";

void createSchema(sqlite::Db &db) {
    db.exec("CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    db.exec(R"sql(CREATE TABLE measurements(
        id INTEGER PRIMARY KEY,
        pipeline_key TEXT NOT NULL, app TEXT NOT NULL, generator_library TEXT NOT NULL,
        params TEXT NOT NULL, estimates TEXT NOT NULL, dag_hash TEXT NOT NULL,
        device_key TEXT NOT NULL, device_kind TEXT NOT NULL, device_name TEXT NOT NULL,
        device_platform TEXT NOT NULL, device_driver TEXT NOT NULL, halide_version TEXT NOT NULL,
        schedule TEXT, schedule_hash TEXT NOT NULL, baseline TEXT NOT NULL, gpu TEXT,
        cost_model TEXT NOT NULL, predicted REAL, predicted_terms TEXT,
        label TEXT NOT NULL, measurement TEXT NOT NULL,
        median_ms REAL, min_ms REAL, max_ms REAL, correct INTEGER, max_error REAL,
        failure TEXT NOT NULL, repeats INTEGER NOT NULL, origin TEXT NOT NULL,
        run_id TEXT NOT NULL DEFAULT '', round INTEGER NOT NULL DEFAULT -1,
        created_at INTEGER NOT NULL,
        features BLOB, feature_schema INTEGER NOT NULL DEFAULT 0,
        crash_verdict TEXT NOT NULL DEFAULT ''))sql");
    db.exec("CREATE INDEX measurements_key ON measurements(pipeline_key, schedule_hash, "
            "device_key)");
    db.exec("CREATE INDEX measurements_device ON measurements(device_key)");
    db.exec("CREATE INDEX measurements_run ON measurements(run_id)");
    db.exec("CREATE TABLE runs(run_id TEXT PRIMARY KEY, state TEXT NOT NULL, "
            "updated_at INTEGER NOT NULL)");
    db.exec("INSERT INTO meta(key, value) VALUES('schema_version', '3')");
}

void migrateV1ToV2(sqlite::Db &db) {
    db.exec("ALTER TABLE measurements ADD COLUMN run_id TEXT NOT NULL DEFAULT ''");
    db.exec("ALTER TABLE measurements ADD COLUMN round INTEGER NOT NULL DEFAULT -1");
    db.exec("ALTER TABLE measurements ADD COLUMN features BLOB");
    db.exec("ALTER TABLE measurements ADD COLUMN feature_schema INTEGER NOT NULL DEFAULT 0");
    db.exec("CREATE INDEX IF NOT EXISTS measurements_device ON measurements(device_key)");
    db.exec("CREATE INDEX measurements_run ON measurements(run_id)");
    db.exec("CREATE TABLE runs(run_id TEXT PRIMARY KEY, state TEXT NOT NULL, "
            "updated_at INTEGER NOT NULL)");
    db.exec("UPDATE meta SET value = '2' WHERE key = 'schema_version'");
}

void migrateV2ToV3(sqlite::Db &db) {
    // Rows measured before crash triage existed have no verdict (their JSON has none either).
    db.exec("ALTER TABLE measurements ADD COLUMN crash_verdict TEXT NOT NULL DEFAULT ''");
    db.exec("UPDATE meta SET value = '3' WHERE key = 'schema_version'");
}

namespace {

std::optional<std::string> jsonText(const nlohmann::json &j) {
    if (j.is_null()) return std::nullopt;
    return j.dump();
}

nlohmann::json parseJson(const sqlite::Db &db, const sqlite::Stmt &stmt, int column,
                         const char *name) {
    if (stmt.isNull(column)) return nullptr;
    try {
        return nlohmann::json::parse(stmt.text(column));
    } catch (const nlohmann::json::exception &) {
        throw StoreError(db.what() + ": record " + std::to_string(stmt.int64(0)) + ": malformed " +
                         name);
    }
}

} // namespace

void bindRecord(sqlite::Stmt &s, const MeasurementRecord &r) {
    const Measurement &m = r.measurement;
    s.bind(1, r.pipeline.key())
        .bind(2, r.pipeline.app)
        .bind(3, r.pipeline.generatorLibrary)
        .bind(4, nlohmann::json(r.pipeline.params).dump())
        .bind(5, nlohmann::json(r.pipeline.estimates).dump())
        .bind(6, r.pipeline.dagHash)
        .bind(7, r.device.key())
        .bind(8, r.device.kind)
        .bind(9, r.device.name)
        .bind(10, r.device.platform)
        .bind(11, r.device.driver)
        .bind(12, r.device.halideVersion)
        .bind(13, jsonText(r.schedule))
        .bind(14, r.scheduleHash)
        .bind(15, r.baseline)
        .bind(16, jsonText(r.gpu))
        .bind(17, r.costModel)
        .bind(18, r.predicted)
        .bind(19, jsonText(r.predictedTerms))
        .bind(20, m.label)
        .bind(21, m.toJson().dump());
    if (m.measuredMs) {
        s.bind(22, m.measuredMs->median).bind(23, m.measuredMs->min).bind(24, m.measuredMs->max);
    } else {
        s.bindNull(22).bindNull(23).bindNull(24);
    }
    if (m.correct) {
        s.bind(25, *m.correct ? 1 : 0);
    } else {
        s.bindNull(25);
    }
    s.bind(26, m.maxError)
        .bind(27, m.failure)
        .bind(28, r.repeats)
        .bind(29, r.origin)
        .bind(30, r.runId)
        .bind(31, r.round)
        .bind(32, r.createdAt)
        .bindBlob(33, r.features.data(), r.features.size() * sizeof(float))
        .bind(34, r.featureSchema)
        .bind(35, m.crashVerdict);
}

MeasurementRecord readRecord(const sqlite::Db &db, const sqlite::Stmt &s) {
    MeasurementRecord r;
    r.id = s.int64(0);
    // Column i + 1 holds bind parameter i (kRecordColumns, after the id).
    r.pipeline.app = s.text(2);
    r.pipeline.generatorLibrary = s.text(3);
    const nlohmann::json params = parseJson(db, s, 4, "params");
    const nlohmann::json estimates = parseJson(db, s, 5, "estimates");
    try {
        r.pipeline.params = params.get<std::vector<std::string>>();
        r.pipeline.estimates = estimates.get<std::vector<std::string>>();
    } catch (const nlohmann::json::exception &) {
        throw StoreError(db.what() + ": record " + std::to_string(r.id) +
                         ": params/estimates are not lists of strings");
    }
    r.pipeline.dagHash = s.text(6);
    // Scalar input values live in the key only (no column of their own: schema 2 unchanged).
    r.pipeline.inputs = PipelineIdentity::inputsOfKey(s.text(1));
    r.device.kind = s.text(8);
    r.device.name = s.text(9);
    r.device.platform = s.text(10);
    r.device.driver = s.text(11);
    r.device.halideVersion = s.text(12);
    r.schedule = parseJson(db, s, 13, "schedule");
    r.scheduleHash = s.text(14);
    r.baseline = s.text(15);
    r.gpu = parseJson(db, s, 16, "gpu");
    r.costModel = s.text(17);
    r.predicted = s.real(18);
    r.predictedTerms = parseJson(db, s, 19, "predicted terms");
    r.measurement = Measurement::fromJson(parseJson(db, s, 21, "measurement"));
    r.repeats = int(s.int64(28));
    r.origin = s.text(29);
    r.runId = s.text(30);
    r.round = int(s.int64(31));
    r.createdAt = s.int64(32);
    const std::vector<unsigned char> blob = s.blob(33);
    r.features.resize(blob.size() / sizeof(float));
    if (!r.features.empty()) std::memcpy(r.features.data(), blob.data(), r.features.size() * 4);
    r.featureSchema = int(s.int64(34));
    return r;
}

} // namespace beamscope::store_detail
