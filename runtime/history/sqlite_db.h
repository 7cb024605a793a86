// Small RAII helpers over the SQLite C API: a connection (SqliteDb), a
// prepared statement (SqliteStatement) and a transaction guard. Every error
// becomes a Status naming the database file, so callers can pass it on.
// Not thread-safe: one connection belongs to one thread.
#ifndef GSRT_RUNTIME_HISTORY_SQLITE_DB_H_
#define GSRT_RUNTIME_HISTORY_SQLITE_DB_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "runtime/base/status.h"

struct sqlite3;
struct sqlite3_stmt;

namespace gs {

class SqliteDb;

// A prepared statement. Bind parameters are 1-based, columns 0-based (as in
// SQLite). After Step() returned false (done) or an error, call Reset()
// before binding again; Run() does both.
class SqliteStatement {
 public:
  SqliteStatement() = default;
  ~SqliteStatement();
  SqliteStatement(SqliteStatement&& other) noexcept;
  SqliteStatement& operator=(SqliteStatement&& other) noexcept;
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;

  bool valid() const { return stmt_ != nullptr; }

  void BindNull(int index);
  void BindInt(int index, int64_t value);
  void BindDouble(int index, double value);
  // The text is copied by SQLite, so `value` may die after the call.
  void BindText(int index, std::string_view value);
  // Bytes, not text: NULs included, no encoding.
  void BindBlob(int index, std::string_view value);
  void BindOptionalInt(int index, const std::optional<int64_t>& value);
  // Binds NULL for values <= 0, which mean "unknown" for timestamps.
  void BindTimeOrNull(int index, double seconds);

  // Executes one step: true if a row is available, false when done.
  StatusOr<bool> Step();
  // Steps until done (for INSERT/UPDATE/DDL) and resets the statement.
  Status Run();
  void Reset();

  bool IsNull(int column) const;
  int64_t ColumnInt(int column) const;
  double ColumnDouble(int column) const;
  std::string ColumnText(int column) const;
  std::string ColumnBlob(int column) const;

 private:
  friend class SqliteDb;
  SqliteStatement(SqliteDb* db, sqlite3_stmt* stmt) : db_(db), stmt_(stmt) {}

  SqliteDb* db_ = nullptr;
  sqlite3_stmt* stmt_ = nullptr;
};

class SqliteDb {
 public:
  enum class Mode { kReadOnly, kReadWrite };

  // Opens an existing file (never creates one: the caller creates it with
  // the permissions it wants). `busy_timeout_ms` bounds how long a statement
  // waits for another connection's lock before failing with kUnavailable.
  static StatusOr<std::unique_ptr<SqliteDb>> Open(const std::string& path,
                                                  Mode mode,
                                                  int busy_timeout_ms);
  ~SqliteDb();
  SqliteDb(const SqliteDb&) = delete;
  SqliteDb& operator=(const SqliteDb&) = delete;

  const std::string& path() const { return path_; }
  sqlite3* raw() { return db_; }

  // Runs one or more statements that return no rows needed by the caller.
  Status Exec(std::string_view sql);
  StatusOr<SqliteStatement> Prepare(std::string_view sql);
  // Runs a query returning one integer (e.g. "PRAGMA user_version").
  StatusOr<int64_t> QueryInt(std::string_view sql);
  StatusOr<std::string> QueryText(std::string_view sql);
  int64_t LastInsertRowId() const;
  // True when SQLite could open the file for reading only (no write
  // permission), which it does silently when asked for read-write.
  bool IsReadOnly() const;
  // Rows changed by the last INSERT/UPDATE/DELETE.
  int Changes() const;
  // True inside BEGIN ... COMMIT (false again after SQLite rolled back on
  // its own, as it does for a full disk).
  bool InTransaction() const;

  // Builds a Status from SQLite's current error for `what` ("insert job"),
  // naming the file: busy/locked -> kUnavailable, not-a-db/corrupt ->
  // kFailedPrecondition, permission -> kPermissionDenied, else kIoError.
  Status Error(std::string_view what, int rc) const;

 private:
  SqliteDb(std::string path, sqlite3* db) : path_(std::move(path)), db_(db) {}

  std::string path_;
  sqlite3* db_ = nullptr;
};

// BEGIN IMMEDIATE on construction via Begin(); ROLLBACK on destruction
// unless Commit() succeeded. IMMEDIATE takes the write lock at once, so the
// busy timeout applies there and never in the middle of the transaction.
class SqliteTransaction {
 public:
  explicit SqliteTransaction(SqliteDb* db) : db_(db) {}
  ~SqliteTransaction();
  SqliteTransaction(const SqliteTransaction&) = delete;
  SqliteTransaction& operator=(const SqliteTransaction&) = delete;

  Status Begin();
  Status Commit();

 private:
  SqliteDb* db_;
  bool open_ = false;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_HISTORY_SQLITE_DB_H_
