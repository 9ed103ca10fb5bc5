// MeasurementStore: the measurement database — one SQLite file per user (WAL, busy timeout
// 5 s, a schema version with migrations) holding every measurement any run made, keyed by
// (pipeline, schedule, device), plus the state of tune runs for --resume. One transaction per
// added record, so a killed process loses at most the row in flight, and readers in other
// processes (the GUI) never block a writer (a CLI tune) or see half a row.
// Safe to share between threads (one connection, serialized by a mutex).
#pragma once

#include "store/MeasurementRecord.h"
#include "store/StoreError.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace beamscope {

namespace sqlite {
class Db;
}

/// Which records records() returns; empty strings match everything.
struct RecordFilter {
    std::string pipelineKey, deviceKey, app, runId;
    bool successfulOnly = false; ///< correct && measured (and no failure)
};

/// What `db stats` prints.
struct StoreStats {
    std::int64_t records = 0, successful = 0, failed = 0; ///< failed = records - successful
    int pipelines = 0, devices = 0;
    /// (pipeline key, device key, count), sorted by the keys.
    std::vector<std::tuple<std::string, std::string, std::int64_t>> groups;
};

/// What prune() deletes; options combine (a row matching any is deleted).
struct PruneOptions {
    bool failed = false;             ///< rows that are not successful
    std::int64_t olderThanDays = -1; ///< rows created more than this many days ago (-1: off)
    bool duplicates = false;         ///< keep only the newest of each (pipeline, schedule, device)
};

class MeasurementStore {
public:
    /// $XDG_DATA_HOME/beamscope/measurements.sqlite, else ~/.local/share/beamscope/...;
    /// throws StoreError when neither XDG_DATA_HOME nor HOME is set.
    static std::string defaultPath();
    /// Creates parent dirs, opens (creating the file), WAL, busy_timeout 5 s, migrates to the
    /// current schema; throws StoreError for a corrupt, locked, unwritable or newer-schema file.
    explicit MeasurementStore(const std::string &path);
    /// How a store is opened: ReadOnly opens an existing file for reading only (a database on a
    /// read-only disk or shared directory); it migrates nothing, so it refuses an older schema,
    /// and every write throws StoreError.
    enum class Access { ReadWrite, ReadOnly };
    MeasurementStore(const std::string &path, Access access);
    /// True when opened with Access::ReadOnly.
    bool readOnly() const { return m_readOnly; }
    ~MeasurementStore();
    MeasurementStore(const MeasurementStore &) = delete;
    MeasurementStore &operator=(const MeasurementStore &) = delete;

    static constexpr int kSchemaVersion = 3;
    /// The schema version of the open file (kSchemaVersion once opened).
    int schemaVersion() const;
    const std::string &path() const;

    /// Stores `record` (createdAt = now when 0) in one transaction; returns the row id.
    std::int64_t add(MeasurementRecord record);
    /// The newest record of (pipeline, schedule, device), if any.
    std::optional<MeasurementRecord> find(const std::string &pipelineKey,
                                          const std::string &scheduleHash,
                                          const std::string &deviceKey) const;
    /// The same record when it can stand for a run of this build: its schedule was lowered as
    /// this build lowers it (MeasurementRecord::loweredAsThisBuildWould). A row measured with
    /// another unroll limit is to be measured again (bench, tune and collect --resume).
    std::optional<MeasurementRecord> findReusable(const std::string &pipelineKey,
                                                  const std::string &scheduleHash,
                                                  const std::string &deviceKey) const;
    /// Records matching `filter`, oldest first (created_at, then id).
    std::vector<MeasurementRecord> records(const RecordFilter &filter = {}) const;
    /// Caches a feature vector of version `schema` on record `id`; StoreError if there is none.
    void setFeatures(std::int64_t id, int schema, const std::vector<float> &features);
    StoreStats stats() const;
    /// Writes every record as one CSV row (flat columns; schedule, GPU and terms as quoted
    /// JSON) to `path` atomically (a temporary file renamed over it).
    void exportCsv(const std::string &path) const;
    /// Adds the records of the database at `otherDbPath` that this one lacks (same pipeline,
    /// schedule, device, createdAt and label), and its tune runs this one lacks; returns how
    /// many records were added.
    std::int64_t importFrom(const std::string &otherDbPath);
    /// Deletes what `options` selects in one transaction; returns the rows deleted.
    std::int64_t prune(const PruneOptions &options);
    /// Stores the state of tune run `runId` (for --resume), replacing an earlier one.
    void upsertRun(const std::string &runId, const nlohmann::json &state);
    /// The stored state of tune run `runId`, if any.
    std::optional<nlohmann::json> run(const std::string &runId) const;

private:
    void migrate();

    std::string m_path;
    std::string m_what; ///< "measurement database PATH", the prefix of error messages
    std::unique_ptr<sqlite::Db> m_db;
    int m_version = 0;
    bool m_readOnly = false;
    mutable std::mutex m_mutex;
};

} // namespace beamscope
