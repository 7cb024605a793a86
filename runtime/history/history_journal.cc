// History: the task journal (table task_journal), which lets a master
// started again after a crash reuse the tasks the interrupted run finished.
#include <string>

#include "runtime/history/history.h"

namespace gs {

Status History::RecordTaskJournal(const JournalEntry& entry) {
  if (!insert_journal_.valid()) {
    // INSERT OR REPLACE: a task rewound after a host loss finishes again
    // under the same (run, task) key.
    auto stmt = db_->Prepare(
        "INSERT OR REPLACE INTO task_journal (run_id, task_id, signature, "
        "operation, host, finished, outputs) VALUES (?1, ?2, ?3, ?4, ?5, ?6, "
        "?7)");
    if (!stmt.ok()) return stmt.status();
    insert_journal_ = std::move(stmt).value();
  }
  SqliteStatement& s = insert_journal_;
  s.BindInt(1, entry.run);
  s.BindInt(2, entry.task);
  s.BindText(3, entry.signature);
  s.BindText(4, entry.operation);
  s.BindText(5, entry.host);
  s.BindDouble(6, entry.finished);
  s.BindText(7, EncodeJournalOutputs(entry));
  return Write(s);
}

StatusOr<std::vector<RunId>> History::FindInterruptedRuns(
    std::string_view program, std::string_view cwd, RunId current) {
  auto stmt = db_->Prepare(
      "SELECT id, status FROM runs WHERE program = ?1 AND cwd = ?2 AND id < ?3 "
      "ORDER BY id DESC");
  if (!stmt.ok()) return stmt.status();
  stmt->BindText(1, program);
  stmt->BindText(2, cwd);
  stmt->BindInt(3, current);
  std::vector<RunId> runs;
  while (true) {
    StatusOr<bool> row = stmt->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    std::string status = stmt->ColumnText(1);
    if (status != "running" && status != "cancelled") break;
    runs.push_back(stmt->ColumnInt(0));
  }
  return runs;
}

StatusOr<std::vector<JournalEntry>> History::LoadJournal(RunId run) {
  auto stmt = db_->Prepare(
      "SELECT task_id, signature, operation, host, finished, outputs FROM "
      "task_journal WHERE run_id = ?1 ORDER BY task_id");
  if (!stmt.ok()) return stmt.status();
  stmt->BindInt(1, run);
  std::vector<JournalEntry> entries;
  while (true) {
    StatusOr<bool> row = stmt->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    JournalEntry e;
    e.run = run;
    e.task = static_cast<TaskId>(stmt->ColumnInt(0));
    e.signature = stmt->ColumnText(1);
    e.operation = stmt->ColumnText(2);
    e.host = stmt->ColumnText(3);
    e.finished = stmt->ColumnDouble(4);
    if (Status s = DecodeJournalOutputs(stmt->ColumnText(5), &e); !s.ok())
      return s.WithContext("reading the journal of " + path());
    entries.push_back(std::move(e));
  }
  return entries;
}

}  // namespace gs
