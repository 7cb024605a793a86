// History: results that last across runs (table reuse_results,
// docs/reuse.md): one row per reuse key, the newest task that computed it.
#include <optional>
#include <string>

#include "runtime/history/history.h"

namespace gs {

namespace {

Status PrepareReuseStatement(SqliteDb& db, SqliteStatement* stmt,
                             const char* sql) {
  if (stmt->valid()) return Status::Ok();
  auto prepared = db.Prepare(sql);
  if (!prepared.ok()) return prepared.status();
  *stmt = std::move(prepared).value();
  return Status::Ok();
}

// Column 7 is the last use: the result's making or its latest reuse.
constexpr char kReuseColumns[] =
    "SELECT r.key, r.call, r.operation, r.run_id, r.task_id, r.finished, "
    "max(r.last_used, coalesce(u.last_used, 0)), r.detail FROM reuse_results "
    "r LEFT JOIN reuse_used u ON u.key = r.key ";

StatusOr<ReuseEntry> ReuseFromRow(const SqliteStatement& s,
                                  const std::string& path) {
  ReuseEntry e;
  e.key = s.ColumnText(0);
  e.call = s.ColumnText(1);
  e.operation = s.ColumnText(2);
  e.run = s.ColumnInt(3);
  e.task = static_cast<TaskId>(s.ColumnInt(4));
  e.finished = s.ColumnDouble(5);
  e.last_used = s.ColumnDouble(6);
  if (Status st = DecodeReuseDetail(s.ColumnText(7), &e); !st.ok())
    return st.WithContext("reading " + path);
  return e;
}

}  // namespace

Status History::RecordReuse(const std::vector<ReuseEntry>& entries) {
  if (entries.empty()) return Status::Ok();
  if (Status s = PrepareReuseStatement(
          *db_, &insert_reuse_,
          "INSERT OR REPLACE INTO reuse_results (key, "
          "call, operation, run_id, task_id, finished, "
          "last_used, detail) VALUES (?1, ?2, ?3, ?4, ?5, "
          "?6, ?7, ?8)");
      !s.ok())
    return s;
  return InOneTransaction([&]() -> Status {
    SqliteStatement& s = insert_reuse_;
    for (const ReuseEntry& entry : entries) {
      s.BindText(1, entry.key);
      s.BindText(2, entry.call);
      s.BindText(3, entry.operation);
      s.BindInt(4, entry.run);
      s.BindInt(5, entry.task);
      s.BindDouble(6, entry.finished);
      s.BindDouble(7, entry.last_used > 0 ? entry.last_used : entry.finished);
      s.BindText(8, EncodeReuseDetail(entry));
      if (Status st = s.Run(); !st.ok()) return st;
    }
    return Status::Ok();
  });
}

StatusOr<std::optional<ReuseEntry>> History::FindReuse(std::string_view key) {
  if (!find_reuse_.valid()) {
    auto stmt = db_->Prepare(std::string(kReuseColumns) + "WHERE r.key = ?1");
    if (!stmt.ok()) return stmt.status();
    find_reuse_ = std::move(stmt).value();
  }
  SqliteStatement& s = find_reuse_;
  s.BindText(1, key);
  StatusOr<bool> row = s.Step();
  if (!row.ok() || !*row) {
    s.Reset();
    if (!row.ok()) return row.status();
    return std::optional<ReuseEntry>();
  }
  StatusOr<ReuseEntry> e = ReuseFromRow(s, path());
  s.Reset();
  if (!e.ok()) return e.status();
  return std::optional<ReuseEntry>(std::move(e).value());
}

StatusOr<std::optional<ReuseEntry>> History::FindReuseByCall(
    std::string_view call) {
  auto stmt =
      db_->Prepare(std::string(kReuseColumns) +
                   "WHERE r.call = ?1 ORDER BY r.finished DESC LIMIT 1");
  if (!stmt.ok()) return stmt.status();
  stmt->BindText(1, call);
  StatusOr<bool> row = stmt->Step();
  if (!row.ok()) return row.status();
  if (!*row) return std::optional<ReuseEntry>();
  StatusOr<ReuseEntry> e = ReuseFromRow(*stmt, path());
  if (!e.ok()) return e.status();
  return std::optional<ReuseEntry>(std::move(e).value());
}

Status History::TouchReuse(const std::vector<std::string>& keys, Seconds when) {
  if (keys.empty()) return Status::Ok();
  if (Status s = PrepareReuseStatement(
          *db_, &touch_reuse_,
          "INSERT OR REPLACE INTO reuse_used (key, last_used) VALUES (?1, ?2)");
      !s.ok())
    return s;
  return InOneTransaction([&]() -> Status {
    for (const std::string& key : keys) {
      touch_reuse_.BindText(1, key);
      touch_reuse_.BindDouble(2, when);
      if (Status s = touch_reuse_.Run(); !s.ok()) return s;
    }
    return Status::Ok();
  });
}

StatusOr<std::vector<ReuseEntry>> History::LoadReuse() {
  auto stmt = db_->Prepare(std::string(kReuseColumns) + "ORDER BY 7, r.key");
  if (!stmt.ok()) return stmt.status();
  std::vector<ReuseEntry> entries;
  while (true) {
    StatusOr<bool> row = stmt->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    StatusOr<ReuseEntry> e = ReuseFromRow(*stmt, path());
    if (!e.ok()) return e.status();
    entries.push_back(std::move(e).value());
  }
  return entries;
}

StatusOr<std::vector<std::string>> History::LoadReuseKeys() {
  auto stmt = db_->Prepare("SELECT key FROM reuse_results");
  if (!stmt.ok()) return stmt.status();
  std::vector<std::string> keys;
  while (true) {
    StatusOr<bool> row = stmt->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    keys.push_back(stmt->ColumnText(0));
  }
  return keys;
}

StatusOr<std::vector<FileHash>> History::LoadFileHashes() {
  auto stmt = db_->Prepare(
      "SELECT path, size, mtime_ns, ctime_ns, inode, content, hashed FROM "
      "file_hashes");
  if (!stmt.ok()) return stmt.status();
  std::vector<FileHash> hashes;
  while (true) {
    StatusOr<bool> row = stmt->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    FileHash h;
    h.path = stmt->ColumnText(0);
    h.stamp.exists = true;
    h.stamp.size = stmt->ColumnInt(1);
    h.stamp.mtime_ns = stmt->ColumnInt(2);
    h.stamp.ctime_ns = stmt->ColumnInt(3);
    h.stamp.inode = static_cast<uint64_t>(stmt->ColumnInt(4));
    h.content = stmt->ColumnText(5);
    h.hashed = stmt->ColumnDouble(6);
    hashes.push_back(std::move(h));
  }
  return hashes;
}

Status History::RecordFileHashes(const std::vector<FileHash>& hashes) {
  if (hashes.empty()) return Status::Ok();
  if (Status s = PrepareReuseStatement(
          *db_, &insert_hash_,
          "INSERT OR REPLACE INTO file_hashes (path, size, mtime_ns, "
          "ctime_ns, inode, content, hashed) VALUES (?1, ?2, ?3, ?4, ?5, ?6, "
          "?7)");
      !s.ok())
    return s;
  return InOneTransaction([&]() -> Status {
    for (const FileHash& h : hashes) {
      insert_hash_.BindText(1, h.path);
      insert_hash_.BindInt(2, h.stamp.size);
      insert_hash_.BindInt(3, h.stamp.mtime_ns);
      insert_hash_.BindInt(4, h.stamp.ctime_ns);
      insert_hash_.BindInt(5, static_cast<int64_t>(h.stamp.inode));
      insert_hash_.BindText(6, h.content);
      insert_hash_.BindDouble(7, h.hashed);
      if (Status s = insert_hash_.Run(); !s.ok()) return s;
    }
    return Status::Ok();
  });
}

Status History::DeleteReuse(std::string_view key) {
  for (const char* sql : {"DELETE FROM reuse_results WHERE key = ?1",
                          "DELETE FROM reuse_used WHERE key = ?1"}) {
    auto stmt = db_->Prepare(sql);
    if (!stmt.ok()) return stmt.status();
    stmt->BindText(1, key);
    if (Status s = Write(*stmt); !s.ok()) return s;
  }
  return Status::Ok();
}

Status History::DeleteAllReuse() {
  for (const char* sql :
       {"DELETE FROM reuse_results", "DELETE FROM reuse_used"}) {
    auto stmt = db_->Prepare(sql);
    if (!stmt.ok()) return stmt.status();
    if (Status s = Write(*stmt); !s.ok()) return s;
  }
  return Status::Ok();
}

}  // namespace gs
