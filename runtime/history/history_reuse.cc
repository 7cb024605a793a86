// History: results that last across runs (table reuse_results,
// docs/reuse.md): one row per reuse key, the newest task that computed it.
#include <algorithm>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>

#include "runtime/base/hashing.h"
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

constexpr char kReuseColumns[] =
    "SELECT key, call, operation, run_id, task_id, finished, last_used, "
    "detail FROM reuse_results ";

// Rows of reuse_uses, and bytes of keys (a million keys), kept before
// they are folded into reuse_results.
constexpr int64_t kUsesKept = 32;
constexpr int64_t kUseBytesKept = 16 << 20;

// A key's 32 hex digits as 16 bytes (a reuse_uses blob's unit); false for
// anything else.
bool PackKey(std::string_view key, std::string* out) {
  if (key.size() != 32) return false;
  for (size_t i = 0; i < 32; i += 2) {
    int byte = 0;
    for (size_t j = i; j < i + 2; ++j) {
      const int digit = HexDigitValue(key[j]);
      if (digit < 0) return false;
      byte = byte << 4 | digit;
    }
    out->push_back(static_cast<char>(byte));
  }
  return true;
}

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
    auto stmt = db_->Prepare(std::string(kReuseColumns) + "WHERE key = ?1");
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
  auto stmt = db_->Prepare(std::string(kReuseColumns) +
                           "WHERE call = ?1 ORDER BY finished DESC LIMIT 1");
  if (!stmt.ok()) return stmt.status();
  stmt->BindText(1, call);
  StatusOr<bool> row = stmt->Step();
  if (!row.ok()) return row.status();
  if (!*row) return std::optional<ReuseEntry>();
  StatusOr<ReuseEntry> e = ReuseFromRow(*stmt, path());
  if (!e.ok()) return e.status();
  return std::optional<ReuseEntry>(std::move(e).value());
}

StatusOr<std::unordered_map<std::string, Seconds>> History::LoadReuseUses() {
  auto stmt = db_->Prepare("SELECT used, keys FROM reuse_uses");
  if (!stmt.ok()) return stmt.status();
  std::unordered_map<std::string, Seconds> uses;
  while (true) {
    StatusOr<bool> row = stmt->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    const Seconds used = stmt->ColumnDouble(0);
    const std::string keys = stmt->ColumnBlob(1);
    for (size_t i = 0; i + 16 <= keys.size(); i += 16) {
      Seconds& last = uses[ToHex(std::string_view(keys).substr(i, 16))];
      last = std::max(last, used);
    }
  }
  return uses;
}

Status History::TouchReuse(const std::vector<std::string>& keys, Seconds when) {
  if (keys.empty()) return Status::Ok();
  std::string packed;
  packed.reserve(keys.size() * 16);
  for (const std::string& key : keys) PackKey(key, &packed);
  return InOneTransaction([&]() -> Status {
    auto insert =
        db_->Prepare("INSERT INTO reuse_uses (used, keys) VALUES (?1, ?2)");
    if (!insert.ok()) return insert.status();
    insert->BindDouble(1, when);
    insert->BindBlob(2, packed);
    if (Status s = insert->Run(); !s.ok()) return s;
    StatusOr<int64_t> rows = db_->QueryInt("SELECT count(*) FROM reuse_uses");
    if (!rows.ok()) return rows.status();
    StatusOr<int64_t> bytes =
        db_->QueryInt("SELECT coalesce(sum(length(keys)), 0) FROM reuse_uses");
    if (!bytes.ok()) return bytes.status();
    if (*rows <= kUsesKept && *bytes <= kUseBytesKept) return Status::Ok();
    // Folded: each result's newest use into its row, then the rows go.
    auto uses = LoadReuseUses();
    if (!uses.ok()) return uses.status();
    auto update = db_->Prepare(
        "UPDATE reuse_results SET last_used = max(last_used, ?2) WHERE key "
        "= ?1");
    if (!update.ok()) return update.status();
    for (const auto& [key, used] : *uses) {
      update->BindText(1, key);
      update->BindDouble(2, used);
      if (Status s = update->Run(); !s.ok()) return s;
    }
    return db_->Exec("DELETE FROM reuse_uses");
  });
}

StatusOr<std::vector<ReuseEntry>> History::LoadReuse() {
  auto stmt = db_->Prepare(kReuseColumns);
  if (!stmt.ok()) return stmt.status();
  auto uses = LoadReuseUses();
  if (!uses.ok()) return uses.status();
  std::vector<ReuseEntry> entries;
  while (true) {
    StatusOr<bool> row = stmt->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    StatusOr<ReuseEntry> e = ReuseFromRow(*stmt, path());
    if (!e.ok()) return e.status();
    if (auto used = uses->find(e->key); used != uses->end())
      e->last_used = std::max(e->last_used, used->second);
    entries.push_back(std::move(e).value());
  }
  std::sort(entries.begin(), entries.end(),
            [](const ReuseEntry& a, const ReuseEntry& b) {
              return std::tie(a.last_used, a.key) <
                     std::tie(b.last_used, b.key);
            });
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
  // Its uses in reuse_uses stay until they are folded: they name nothing.
  auto stmt = db_->Prepare("DELETE FROM reuse_results WHERE key = ?1");
  if (!stmt.ok()) return stmt.status();
  stmt->BindText(1, key);
  return Write(*stmt);
}

Status History::DeleteAllReuse() {
  for (const char* sql :
       {"DELETE FROM reuse_results", "DELETE FROM reuse_uses"}) {
    auto stmt = db_->Prepare(sql);
    if (!stmt.ok()) return stmt.status();
    if (Status s = Write(*stmt); !s.ok()) return s;
  }
  return Status::Ok();
}

}  // namespace gs
