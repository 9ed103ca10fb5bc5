// StoreSchema: the measurement database's tables (current version), the v1 -> v2 and v2 -> v3
// migrations, and the codec between a MeasurementRecord and a `measurements` row. Internal to
// core/store.
#pragma once

#include "store/MeasurementRecord.h"
#include "store/Sqlite.h"

namespace beamscope::store_detail {

/// The columns of a record in `measurements`, in bind order (id excluded): 35 of them.
extern const char *const kRecordColumns;
/// "?1, ?2, ..., ?35" for an INSERT of kRecordColumns.
extern const char *const kRecordPlaceholders;

/// Creates meta, measurements (with indexes) and runs at the current version.
void createSchema(sqlite::Db &db);
/// v1 (no run_id/round/features/feature_schema columns, no runs table) to v2, in place; the
/// caller holds the transaction.
void migrateV1ToV2(sqlite::Db &db);
/// v2 to v3: the crash_verdict column (CrashTriage's verdict of a crashed worker; '' for others),
/// in place; the caller holds the transaction.
void migrateV2ToV3(sqlite::Db &db);

/// Binds parameters 1..35 of an INSERT of kRecordColumns from `record`.
void bindRecord(sqlite::Stmt &stmt, const MeasurementRecord &record);
/// Reads a row of "SELECT id, <kRecordColumns>" (column 0 is the id).
MeasurementRecord readRecord(const sqlite::Db &db, const sqlite::Stmt &stmt);

} // namespace beamscope::store_detail
