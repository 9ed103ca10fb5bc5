// MeasurementStore maintenance, behind `beamscope-cli db`: statistics, CSV export (atomic),
// import from another database file (rows and tune runs it lacks) and pruning.
#include "store/MeasurementStore.h"

#include "store/StoreSchema.h"
#include "util/Text.h"

#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>

namespace beamscope {

namespace {

/// A CSV field (RFC 4180): quoted when it holds a comma, quote or line break.
std::string csv(const std::string &field) {
    if (field.find_first_of(",\"\r\n") == std::string::npos) return field;
    std::string out = "\"";
    for (char c : field) {
        out += c;
        if (c == '"') out += '"';
    }
    return out + "\"";
}

std::string csvNumber(double v) {
    if (!std::isfinite(v)) return "";
    std::ostringstream os;
    os << std::setprecision(17) << v;
    return os.str();
}

std::string csvJson(const nlohmann::json &j) {
    return j.is_null() ? "" : csv(j.dump());
}

} // namespace

StoreStats MeasurementStore::stats() const {
    std::lock_guard lock(m_mutex);
    StoreStats s;
    sqlite::Stmt totals(*m_db, "SELECT COUNT(*), "
                               "COALESCE(SUM(correct = 1 AND median_ms IS NOT NULL AND "
                               "failure = ''), 0), COUNT(DISTINCT pipeline_key), "
                               "COUNT(DISTINCT device_key) FROM measurements");
    totals.step();
    s.records = totals.int64(0);
    s.successful = totals.int64(1);
    s.failed = s.records - s.successful;
    s.pipelines = int(totals.int64(2));
    s.devices = int(totals.int64(3));
    sqlite::Stmt groups(*m_db, "SELECT pipeline_key, device_key, COUNT(*) FROM measurements "
                               "GROUP BY pipeline_key, device_key ORDER BY pipeline_key, "
                               "device_key");
    while (groups.step())
        s.groups.emplace_back(groups.text(0), groups.text(1), groups.int64(2));
    return s;
}

void MeasurementStore::exportCsv(const std::string &path) const {
    const std::vector<MeasurementRecord> rows = records();
    const std::string temp = path + ".tmp-" + std::to_string(getpid());
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        if (!out) throw StoreError("CSV " + path + ": cannot write: " + std::strerror(errno));
        out << "id,created_at,origin,run_id,round,app,generator_library,params,estimates,"
               "dag_hash,pipeline_key,device_kind,device_name,device_platform,device_driver,"
               "halide_version,device_key,schedule_hash,baseline,label,cost_model,predicted_ms,"
               "median_ms,min_ms,max_ms,repeats,correct,max_error,failure,crash_verdict,registers,"
               "spill_bytes,"
               "compile_ms,target,feature_schema,gpu,predicted_terms,schedule\n";
        for (const MeasurementRecord &r : rows) {
            const Measurement &m = r.measurement;
            out << r.id << ',' << r.createdAt << ',' << csv(r.origin) << ',' << csv(r.runId) << ','
                << r.round << ',' << csv(r.pipeline.app) << ',' << csv(r.pipeline.generatorLibrary)
                << ',' << csv(joinStrings(r.pipeline.params, " ")) << ','
                << csv(joinStrings(r.pipeline.estimates, " ")) << ',' << r.pipeline.dagHash << ','
                << csv(r.pipeline.key()) << ',' << csv(r.device.kind) << ',' << csv(r.device.name)
                << ',' << csv(r.device.platform) << ',' << csv(r.device.driver) << ','
                << csv(r.device.halideVersion) << ',' << csv(r.device.key()) << ','
                << csv(r.scheduleHash) << ',' << csv(r.baseline) << ',' << csv(m.label) << ','
                << csv(r.costModel) << ',' << csvNumber(r.predicted) << ','
                << (m.measuredMs ? csvNumber(m.measuredMs->median) : "") << ','
                << (m.measuredMs ? csvNumber(m.measuredMs->min) : "") << ','
                << (m.measuredMs ? csvNumber(m.measuredMs->max) : "") << ',' << r.repeats << ','
                << (m.correct ? (*m.correct ? "true" : "false") : "") << ','
                << csvNumber(m.maxError) << ',' << csv(m.failure) << ',' << csv(m.crashVerdict)
                << ',' << (m.registers >= 0 ? std::to_string(m.registers) : "") << ','
                << (m.spillBytes >= 0 ? std::to_string(m.spillBytes) : "") << ','
                << csvNumber(m.compileMs) << ',' << csv(m.target) << ',' << r.featureSchema << ','
                << csvJson(r.gpu) << ',' << csvJson(r.predictedTerms) << ',' << csvJson(r.schedule)
                << '\n';
        }
        out.flush();
        if (!out) {
            std::remove(temp.c_str());
            throw StoreError("CSV " + path + ": write failed");
        }
    }
    std::error_code ec;
    std::filesystem::rename(temp, path, ec);
    if (ec) {
        std::remove(temp.c_str());
        throw StoreError("CSV " + path + ": " + ec.message());
    }
}

std::int64_t MeasurementStore::importFrom(const std::string &otherDbPath) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(otherDbPath, ec))
        throw StoreError("import: " + otherDbPath + ": no such database file");
    MeasurementStore other(otherDbPath);
    const std::vector<MeasurementRecord> rows = other.records();
    std::vector<std::pair<std::string, std::string>> runs;
    {
        std::lock_guard otherLock(other.m_mutex);
        sqlite::Stmt select(*other.m_db, "SELECT run_id, state FROM runs ORDER BY run_id");
        while (select.step())
            runs.emplace_back(select.text(0), select.text(1));
    }
    std::lock_guard lock(m_mutex);
    sqlite::Transaction transaction(*m_db);
    sqlite::Stmt exists(*m_db, "SELECT 1 FROM measurements WHERE pipeline_key = ?1 AND "
                               "schedule_hash = ?2 AND device_key = ?3 AND created_at = ?4 AND "
                               "label = ?5 LIMIT 1");
    sqlite::Stmt insert(*m_db, std::string("INSERT INTO measurements(") +
                                   store_detail::kRecordColumns + ") VALUES(" +
                                   store_detail::kRecordPlaceholders + ")");
    std::int64_t added = 0;
    for (const MeasurementRecord &r : rows) {
        exists.reset();
        exists.bind(1, r.pipeline.key())
            .bind(2, r.scheduleHash)
            .bind(3, r.device.key())
            .bind(4, r.createdAt)
            .bind(5, r.measurement.label);
        if (exists.step()) continue;
        insert.reset();
        store_detail::bindRecord(insert, r);
        insert.run();
        ++added;
    }
    sqlite::Stmt addRun(*m_db, "INSERT OR IGNORE INTO runs(run_id, state, updated_at) "
                               "VALUES(?1, ?2, ?3)");
    for (const auto &[id, state] : runs) {
        addRun.reset();
        addRun.bind(1, id).bind(2, state).bind(3, std::int64_t(std::time(nullptr)));
        addRun.run();
    }
    transaction.commit();
    return added;
}

std::int64_t MeasurementStore::prune(const PruneOptions &options) {
    std::lock_guard lock(m_mutex);
    sqlite::Transaction transaction(*m_db);
    std::int64_t deleted = 0;
    if (options.failed) {
        sqlite::Stmt del(*m_db, "DELETE FROM measurements WHERE NOT (correct IS NOT NULL AND "
                                "correct = 1 AND median_ms IS NOT NULL AND failure = '')");
        del.run();
        deleted += m_db->changes();
    }
    if (options.olderThanDays >= 0) {
        sqlite::Stmt del(*m_db, "DELETE FROM measurements WHERE created_at < ?1");
        del.bind(1, std::int64_t(std::time(nullptr)) - options.olderThanDays * 86400);
        del.run();
        deleted += m_db->changes();
    }
    if (options.duplicates) {
        sqlite::Stmt del(*m_db, "DELETE FROM measurements WHERE id IN (SELECT id FROM (SELECT id, "
                                "ROW_NUMBER() OVER (PARTITION BY pipeline_key, schedule_hash, "
                                "device_key ORDER BY created_at DESC, id DESC) AS n FROM "
                                "measurements) WHERE n > 1)");
        del.run();
        deleted += m_db->changes();
    }
    transaction.commit();
    return deleted;
}

} // namespace beamscope
