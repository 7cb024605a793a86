#include "runtime/history/sqlite_db.h"

#include <sqlite3.h>

#include <cassert>
#include <utility>

namespace gs {

// ---------------------------------------------------------------------------
// SqliteStatement

SqliteStatement::~SqliteStatement() {
  if (stmt_ != nullptr) sqlite3_finalize(stmt_);
}

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)),
      stmt_(std::exchange(other.stmt_, nullptr)) {}

SqliteStatement& SqliteStatement::operator=(SqliteStatement&& other) noexcept {
  if (this != &other) {
    if (stmt_ != nullptr) sqlite3_finalize(stmt_);
    db_ = std::exchange(other.db_, nullptr);
    stmt_ = std::exchange(other.stmt_, nullptr);
  }
  return *this;
}

// Bind errors can only come from a wrong index or a finalized statement,
// both programming errors, hence asserts.
void SqliteStatement::BindNull(int index) {
  [[maybe_unused]] int rc = sqlite3_bind_null(stmt_, index);
  assert(rc == SQLITE_OK);
}

void SqliteStatement::BindInt(int index, int64_t value) {
  [[maybe_unused]] int rc = sqlite3_bind_int64(stmt_, index, value);
  assert(rc == SQLITE_OK);
}

void SqliteStatement::BindDouble(int index, double value) {
  [[maybe_unused]] int rc = sqlite3_bind_double(stmt_, index, value);
  assert(rc == SQLITE_OK);
}

void SqliteStatement::BindText(int index, std::string_view value) {
  [[maybe_unused]] int rc = sqlite3_bind_text64(
      stmt_, index, value.data(), value.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  assert(rc == SQLITE_OK);
}

void SqliteStatement::BindBlob(int index, std::string_view value) {
  [[maybe_unused]] int rc = sqlite3_bind_blob64(stmt_, index, value.data(),
                                                value.size(), SQLITE_TRANSIENT);
  assert(rc == SQLITE_OK);
}

void SqliteStatement::BindOptionalInt(int index,
                                      const std::optional<int64_t>& value) {
  if (value.has_value()) {
    BindInt(index, *value);
  } else {
    BindNull(index);
  }
}

void SqliteStatement::BindTimeOrNull(int index, double seconds) {
  if (seconds > 0) {
    BindDouble(index, seconds);
  } else {
    BindNull(index);
  }
}

StatusOr<bool> SqliteStatement::Step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  Status error = db_->Error(sqlite3_sql(stmt_), rc);
  sqlite3_reset(stmt_);
  return error;
}

Status SqliteStatement::Run() {
  while (true) {
    StatusOr<bool> row = Step();
    if (!row.ok() || !*row) {
      Reset();
      return row.status();
    }
  }
}

void SqliteStatement::Reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

bool SqliteStatement::IsNull(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

int64_t SqliteStatement::ColumnInt(int column) const {
  return sqlite3_column_int64(stmt_, column);
}

double SqliteStatement::ColumnDouble(int column) const {
  return sqlite3_column_double(stmt_, column);
}

std::string SqliteStatement::ColumnText(int column) const {
  const unsigned char* text = sqlite3_column_text(stmt_, column);
  if (text == nullptr) return std::string();
  return std::string(reinterpret_cast<const char*>(text),
                     sqlite3_column_bytes(stmt_, column));
}

std::string SqliteStatement::ColumnBlob(int column) const {
  const void* bytes = sqlite3_column_blob(stmt_, column);
  if (bytes == nullptr) return std::string();
  return std::string(static_cast<const char*>(bytes),
                     sqlite3_column_bytes(stmt_, column));
}

// ---------------------------------------------------------------------------
// SqliteDb

StatusOr<std::unique_ptr<SqliteDb>> SqliteDb::Open(const std::string& path,
                                                   Mode mode,
                                                   int busy_timeout_ms) {
  // NOMUTEX: a connection is used by one thread only, so SQLite's own
  // per-connection mutex would be pure overhead.
  int flags =
      SQLITE_OPEN_NOMUTEX |
      (mode == Mode::kReadOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE);
  sqlite3* raw = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &raw, flags, nullptr);
  std::unique_ptr<SqliteDb> db(new SqliteDb(path, raw));
  if (rc != SQLITE_OK) {
    if (raw == nullptr) {
      return Status::Internal("cannot open " + path + ": out of memory");
    }
    return db->Error("open", rc);
  }
  sqlite3_extended_result_codes(raw, 1);
  sqlite3_busy_timeout(raw, busy_timeout_ms);
  return db;
}

SqliteDb::~SqliteDb() {
  // close_v2 defers the close until every statement is finalized, so the
  // order in which owners are destroyed does not matter.
  if (db_ != nullptr) sqlite3_close_v2(db_);
}

Status SqliteDb::Exec(std::string_view sql) {
  std::string text(sql);
  char* message = nullptr;
  int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &message);
  sqlite3_free(message);  // Error() reads sqlite3_errmsg instead.
  if (rc != SQLITE_OK) return Error(sql, rc);
  return Status::Ok();
}

StatusOr<SqliteStatement> SqliteDb::Prepare(std::string_view sql) {
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()),
                              SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
  if (rc != SQLITE_OK) return Error(sql, rc);
  return SqliteStatement(this, stmt);
}

StatusOr<int64_t> SqliteDb::QueryInt(std::string_view sql) {
  StatusOr<SqliteStatement> stmt = Prepare(sql);
  if (!stmt.ok()) return stmt.status();
  StatusOr<bool> row = stmt->Step();
  if (!row.ok()) return row.status();
  if (!*row) return Status::Internal(std::string(sql) + " returned no row");
  return stmt->ColumnInt(0);
}

StatusOr<std::string> SqliteDb::QueryText(std::string_view sql) {
  StatusOr<SqliteStatement> stmt = Prepare(sql);
  if (!stmt.ok()) return stmt.status();
  StatusOr<bool> row = stmt->Step();
  if (!row.ok()) return row.status();
  if (!*row) return Status::Internal(std::string(sql) + " returned no row");
  return stmt->ColumnText(0);
}

int64_t SqliteDb::LastInsertRowId() const {
  return sqlite3_last_insert_rowid(db_);
}

bool SqliteDb::IsReadOnly() const {
  return sqlite3_db_readonly(db_, "main") == 1;
}

int SqliteDb::Changes() const { return sqlite3_changes(db_); }

bool SqliteDb::InTransaction() const { return !sqlite3_get_autocommit(db_); }

Status SqliteDb::Error(std::string_view what, int rc) const {
  std::string detail =
      db_ != nullptr ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
  // Long SQL text would drown the message; its start says enough.
  constexpr size_t kMaxWhat = 60;
  std::string shown(what.substr(0, kMaxWhat));
  if (what.size() > kMaxWhat) shown += "...";
  std::string msg = path_ + ": " + shown + ": " + detail;
  switch (rc & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return Status::Unavailable(
          msg +
          " (another process holds the database lock; the busy "
          "timeout expired: wait for that process to end, or use another "
          "file)");
    case SQLITE_NOTADB:
    case SQLITE_CORRUPT:
      return Status::FailedPrecondition(
          msg +
          " (the file is damaged or not an SQLite database; move it "
          "aside or use another history file)");
    case SQLITE_PERM:
    case SQLITE_AUTH:
    case SQLITE_READONLY:
      return Status::PermissionDenied(msg + " (check the file's permissions)");
    case SQLITE_CANTOPEN:
      return Status::IoError(msg +
                             " (check that the file exists and that "
                             "you may read and write it)");
    case SQLITE_FULL:
      return Status::IoError(msg +
                             " (the disk holding the database is full; "
                             "free space there or move the file elsewhere)");
    default:
      return Status::IoError(msg);
  }
}

// ---------------------------------------------------------------------------
// SqliteTransaction

SqliteTransaction::~SqliteTransaction() {
  // A failed ROLLBACK leaves nothing better to do; SQLite rolls back on
  // close anyway.
  if (open_) (void)db_->Exec("ROLLBACK");
}

Status SqliteTransaction::Begin() {
  assert(!open_);
  Status status = db_->Exec("BEGIN IMMEDIATE");
  open_ = status.ok();
  return status;
}

Status SqliteTransaction::Commit() {
  assert(open_);
  Status status = db_->Exec("COMMIT");
  if (status.ok()) open_ = false;
  return status;
}

}  // namespace gs
