// The history database schema as an ordered list of migrations, and the
// code that brings a database up to date. The version lives in
// `PRAGMA user_version`; docs/history.md documents every table and column.
#ifndef GSRT_RUNTIME_HISTORY_HISTORY_SCHEMA_H_
#define GSRT_RUNTIME_HISTORY_HISTORY_SCHEMA_H_

#include <span>

#include "runtime/base/status.h"
#include "runtime/history/sqlite_db.h"

namespace gs {

// Brings the schema from `version - 1` to `version`. Steps are never edited
// once released: a change is a new step appended to the list.
struct Migration {
  int version;
  const char* sql;
};

// gsrt's migrations, versions 1..N in order.
std::span<const Migration> HistoryMigrations();
// The version this build writes (the last migration's version).
int HistorySchemaVersion();

// Checks, without writing, that `db` can be migrated by `migrations`: its
// version is not newer than the last step, and a version-0 database is
// empty (not some other program's SQLite file).
Status CheckHistorySchema(SqliteDb& db, std::span<const Migration> migrations);

// Applies the missing steps in order inside one IMMEDIATE transaction, and
// sets user_version. Re-reads the version inside the transaction, so two
// processes opening a new file at once migrate it once. On failure nothing
// is changed.
Status MigrateHistory(SqliteDb& db, std::span<const Migration> migrations);

}  // namespace gs

#endif  // GSRT_RUNTIME_HISTORY_HISTORY_SCHEMA_H_
