// MeasurementStore: opening (directories, WAL, busy timeout, the schema version and its
// migrations), adding and finding records, feature caching and tune-run state. Statistics,
// CSV export, import and pruning are in StoreMaintenance.cpp; the row codec in StoreSchema.cpp.
#include "store/MeasurementStore.h"

#include "store/StoreSchema.h"

#include <cstdlib>
#include <ctime>
#include <filesystem>

namespace beamscope {

using store_detail::kRecordColumns;

static int storedVersionOf(sqlite::Db &db);

std::string MeasurementStore::defaultPath() {
    const char *xdg = std::getenv("XDG_DATA_HOME");
    std::filesystem::path base;
    // The XDG base directory spec ignores a relative XDG_DATA_HOME.
    if (xdg && *xdg && std::filesystem::path(xdg).is_absolute()) {
        base = xdg;
    } else if (const char *home = std::getenv("HOME"); home && *home) {
        base = std::filesystem::path(home) / ".local" / "share";
    } else {
        throw StoreError("measurement database: neither XDG_DATA_HOME nor HOME is set; "
                         "give --db PATH");
    }
    return (base / "beamscope" / "measurements.sqlite").string();
}

MeasurementStore::MeasurementStore(const std::string &path)
    : MeasurementStore(path, Access::ReadWrite) {}

MeasurementStore::MeasurementStore(const std::string &path, Access access)
    : m_path(path), m_what("measurement database " + path),
      m_readOnly(access == Access::ReadOnly) {
    if (path.empty()) throw StoreError("measurement database: empty path");
    namespace fs = std::filesystem;
    std::error_code ec;
    if (m_readOnly) {
        if (!fs::exists(path, ec)) throw StoreError(m_what + ": no such file");
        if (fs::is_directory(path, ec)) throw StoreError(m_what + ": is a directory");
        m_db = std::make_unique<sqlite::Db>(path, m_what, /*create=*/false, /*readOnly=*/true);
        m_db->busyTimeout(5000);
        m_version = storedVersionOf(*m_db);
        if (m_version != kSchemaVersion)
            throw StoreError(m_what + ": schema version " + std::to_string(m_version) +
                             " (this Beamscope reads " + std::to_string(kSchemaVersion) +
                             "; open it writable once to migrate it)");
        return;
    }
    const fs::path parent = fs::path(path).parent_path();
    if (!parent.empty() && !fs::is_directory(parent, ec)) {
        fs::create_directories(parent, ec);
        if (ec)
            throw StoreError(m_what + ": cannot create " + parent.string() + ": " + ec.message());
    }
    if (fs::is_directory(path, ec)) throw StoreError(m_what + ": is a directory");
    m_db = std::make_unique<sqlite::Db>(path, m_what);
    if (m_db->readOnly()) throw StoreError(m_what + ": file is not writable");
    m_db->busyTimeout(5000);
    // The first statement reads the header: a file that is not SQLite fails here.
    m_db->exec("PRAGMA journal_mode=WAL");
    m_db->exec("PRAGMA synchronous=NORMAL");
    m_db->exec("PRAGMA foreign_keys=ON");
    migrate();
}

MeasurementStore::~MeasurementStore() = default;

int MeasurementStore::schemaVersion() const {
    return m_version;
}

const std::string &MeasurementStore::path() const {
    return m_path;
}

/// The version recorded in meta; 0 for an empty file. Throws for a foreign database.
static int storedVersionOf(sqlite::Db &db) {
    sqlite::Stmt tables(db, "SELECT name FROM sqlite_master WHERE type = 'table'");
    bool any = false, meta = false;
    while (tables.step()) {
        any = true;
        meta = meta || tables.text(0) == "meta";
    }
    if (!any) return 0;
    if (!meta) throw StoreError(db.what() + ": not a Beamscope measurement database");
    sqlite::Stmt version(db, "SELECT value FROM meta WHERE key = 'schema_version'");
    if (!version.step()) throw StoreError(db.what() + ": no schema version");
    const std::string text = version.text(0);
    int v = 0;
    try {
        v = std::stoi(text);
    } catch (const std::exception &) {
        v = 0;
    }
    if (v < 1) throw StoreError(db.what() + ": bad schema version '" + text + "'");
    return v;
}

void MeasurementStore::migrate() {
    m_version = storedVersionOf(*m_db);
    if (m_version == kSchemaVersion) return;
    // Creating or migrating: under a write lock, looking again (another process may have
    // done it meanwhile).
    sqlite::Transaction transaction(*m_db);
    m_version = storedVersionOf(*m_db);
    if (m_version > kSchemaVersion) {
        throw StoreError(m_what + ": schema version " + std::to_string(m_version) +
                         " is newer than this Beamscope's (" + std::to_string(kSchemaVersion) +
                         ")");
    }
    if (m_version == 0) store_detail::createSchema(*m_db);
    if (m_version == 1) store_detail::migrateV1ToV2(*m_db);
    if (m_version == 1 || m_version == 2) store_detail::migrateV2ToV3(*m_db);
    transaction.commit();
    m_version = kSchemaVersion;
}

std::int64_t MeasurementStore::add(MeasurementRecord record) {
    std::lock_guard lock(m_mutex);
    if (record.createdAt == 0) record.createdAt = std::int64_t(std::time(nullptr));
    sqlite::Transaction transaction(*m_db);
    sqlite::Stmt insert(*m_db, std::string("INSERT INTO measurements(") + kRecordColumns +
                                   ") VALUES(" + store_detail::kRecordPlaceholders + ")");
    store_detail::bindRecord(insert, record);
    insert.run();
    const std::int64_t id = m_db->lastInsertId();
    transaction.commit();
    return id;
}

std::optional<MeasurementRecord> MeasurementStore::find(const std::string &pipelineKey,
                                                        const std::string &scheduleHash,
                                                        const std::string &deviceKey) const {
    std::lock_guard lock(m_mutex);
    sqlite::Stmt select(*m_db, std::string("SELECT id, ") + kRecordColumns +
                                   " FROM measurements WHERE pipeline_key = ?1 AND "
                                   "schedule_hash = ?2 AND device_key = ?3 "
                                   "ORDER BY created_at DESC, id DESC LIMIT 1");
    select.bind(1, pipelineKey).bind(2, scheduleHash).bind(3, deviceKey);
    if (!select.step()) return std::nullopt;
    return store_detail::readRecord(*m_db, select);
}

std::optional<MeasurementRecord>
MeasurementStore::findReusable(const std::string &pipelineKey, const std::string &scheduleHash,
                               const std::string &deviceKey) const {
    std::optional<MeasurementRecord> found = find(pipelineKey, scheduleHash, deviceKey);
    if (found && !found->loweredAsThisBuildWould()) return std::nullopt;
    return found;
}

std::vector<MeasurementRecord> MeasurementStore::records(const RecordFilter &filter) const {
    std::lock_guard lock(m_mutex);
    // Fixed SQL per filter field; the values are bound (an empty value matches everything).
    sqlite::Stmt select(
        *m_db, std::string("SELECT id, ") + kRecordColumns +
                   " FROM measurements WHERE (?1 = '' OR pipeline_key = ?1) AND "
                   "(?2 = '' OR device_key = ?2) AND (?3 = '' OR app = ?3) AND "
                   "(?4 = '' OR run_id = ?4) AND (?5 = 0 OR (correct = 1 AND median_ms IS NOT "
                   "NULL AND failure = '')) ORDER BY created_at, id");
    select.bind(1, filter.pipelineKey)
        .bind(2, filter.deviceKey)
        .bind(3, filter.app)
        .bind(4, filter.runId)
        .bind(5, filter.successfulOnly ? 1 : 0);
    std::vector<MeasurementRecord> out;
    while (select.step())
        out.push_back(store_detail::readRecord(*m_db, select));
    return out;
}

void MeasurementStore::setFeatures(std::int64_t id, int schema,
                                   const std::vector<float> &features) {
    std::lock_guard lock(m_mutex);
    sqlite::Transaction transaction(*m_db);
    sqlite::Stmt update(*m_db,
                        "UPDATE measurements SET features = ?1, feature_schema = ?2 WHERE id = ?3");
    update.bindBlob(1, features.data(), features.size() * sizeof(float))
        .bind(2, schema)
        .bind(3, id);
    update.run();
    if (m_db->changes() == 0) throw StoreError(m_what + ": no record " + std::to_string(id));
    transaction.commit();
}

void MeasurementStore::upsertRun(const std::string &runId, const nlohmann::json &state) {
    std::lock_guard lock(m_mutex);
    sqlite::Transaction transaction(*m_db);
    sqlite::Stmt upsert(*m_db, "INSERT INTO runs(run_id, state, updated_at) VALUES(?1, ?2, ?3) "
                               "ON CONFLICT(run_id) DO UPDATE SET state = excluded.state, "
                               "updated_at = excluded.updated_at");
    upsert.bind(1, runId).bind(2, state.dump()).bind(3, std::int64_t(std::time(nullptr)));
    upsert.run();
    transaction.commit();
}

std::optional<nlohmann::json> MeasurementStore::run(const std::string &runId) const {
    std::lock_guard lock(m_mutex);
    sqlite::Stmt select(*m_db, "SELECT state FROM runs WHERE run_id = ?1");
    select.bind(1, runId);
    if (!select.step()) return std::nullopt;
    try {
        return nlohmann::json::parse(select.text(0));
    } catch (const nlohmann::json::exception &) {
        throw StoreError(m_what + ": run " + runId + ": malformed state");
    }
}

} // namespace beamscope
