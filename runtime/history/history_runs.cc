// What a run did besides its job attempts: tasks with their dependencies,
// their final states, host and task events, transfers (schema version 3).
// The engine writes them; `gsrt` reads them back.
#include <cstdlib>
#include <sstream>

#include "runtime/history/history.h"

namespace gs {

namespace {

std::string JoinIds(const std::vector<TaskId>& ids) {
  std::string out;
  for (TaskId id : ids) {
    if (!out.empty()) out += ' ';
    out += std::to_string(id);
  }
  return out;
}

std::vector<TaskId> SplitIds(const std::string& text) {
  std::vector<TaskId> ids;
  std::istringstream in(text);
  uint64_t id = 0;
  while (in >> id) ids.push_back(static_cast<TaskId>(id));
  return ids;
}

Status PrepareOnce(SqliteDb& db, SqliteStatement* stmt, const char* sql) {
  if (stmt->valid()) return Status::Ok();
  auto prepared = db.Prepare(sql);
  if (!prepared.ok()) return prepared.status();
  *stmt = std::move(prepared).value();
  return Status::Ok();
}

constexpr char kRunColumns[] =
    "SELECT r.id, r.started, r.ended, r.program, r.cwd, r.host_count, "
    "r.status, "
    "(SELECT count(*) FROM run_tasks t WHERE t.run_id = r.id), "
    "(SELECT count(*) FROM jobs j WHERE j.run_id = r.id), "
    "(SELECT count(*) FROM run_tasks t WHERE t.run_id = r.id "
    "   AND t.state = 'failed'), "
    "(SELECT count(*) FROM jobs j WHERE j.run_id = r.id "
    "   AND j.outcome NOT IN ('ok', 'cancelled')), "
    "(SELECT count(*) FROM run_tasks t WHERE t.run_id = r.id "
    "   AND t.state = 'cancelled'), "
    "(SELECT count(*) FROM jobs j WHERE j.run_id = r.id "
    "   AND j.outcome = 'cancelled'), "
    "(SELECT count(*) FROM run_tasks t WHERE t.run_id = r.id "
    "   AND t.state = 'reused') "
    "FROM runs r";

RunRow RunFromRow(const SqliteStatement& s) {
  RunRow r;
  r.id = s.ColumnInt(0);
  r.started = s.ColumnDouble(1);
  r.ended = s.IsNull(2) ? 0 : s.ColumnDouble(2);
  r.program = s.ColumnText(3);
  r.cwd = s.ColumnText(4);
  r.host_count = static_cast<int>(s.ColumnInt(5));
  r.status = s.ColumnText(6);
  r.tasks = s.ColumnInt(7);
  r.jobs = s.ColumnInt(8);
  r.failed_tasks = s.ColumnInt(9);
  r.failed_jobs = s.ColumnInt(10);
  r.cancelled_tasks = s.ColumnInt(11);
  r.cancelled_jobs = s.ColumnInt(12);
  r.reused_tasks = s.ColumnInt(13);
  return r;
}

}  // namespace

Status History::RecordTask(RunId run, const TaskRecord& task,
                           const TaskEnd* end) {
  if (Status s = PrepareOnce(
          *db_, &insert_task_,
          "INSERT OR REPLACE INTO run_tasks (run_id, task_id, operation, "
          "depends_on, submitted, state, ended) VALUES (?1, ?2, ?3, ?4, ?5, "
          "?6, ?7)");
      !s.ok()) {
    return s;
  }
  insert_task_.BindInt(1, run);
  insert_task_.BindInt(2, task.task);
  insert_task_.BindText(3, task.operation);
  insert_task_.BindText(4, JoinIds(task.depends_on));
  insert_task_.BindDouble(5, task.submitted);
  // Not ended yet: the column defaults, 'submitted' and NULL.
  insert_task_.BindText(6, end != nullptr ? end->state : "submitted");
  insert_task_.BindTimeOrNull(7, end != nullptr ? end->time : 0);
  return Write(insert_task_);
}

Status History::RecordTaskEnd(RunId run, const TaskEnd& end) {
  if (Status s = PrepareOnce(*db_, &end_task_,
                             "UPDATE run_tasks SET state = ?1, ended = ?2 "
                             "WHERE run_id = ?3 AND task_id = ?4");
      !s.ok()) {
    return s;
  }
  end_task_.BindText(1, end.state);
  end_task_.BindTimeOrNull(2, end.time);
  end_task_.BindInt(3, run);
  end_task_.BindInt(4, end.task);
  return Write(end_task_);
}

Status History::RecordRunEvent(RunId run, const RunEvent& event) {
  if (Status s = PrepareOnce(
          *db_, &insert_event_,
          "INSERT INTO run_events (run_id, time, duration, kind, host, "
          "task_id, bytes, detail) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
      !s.ok()) {
    return s;
  }
  SqliteStatement& s = insert_event_;
  s.BindInt(1, run);
  s.BindDouble(2, event.time);
  s.BindDouble(3, event.duration);
  s.BindText(4, event.kind);
  s.BindText(5, event.host);
  if (event.task != kNoTaskRecord) s.BindInt(6, event.task);
  s.BindInt(7, static_cast<int64_t>(event.bytes));
  s.BindText(8, event.detail);
  return Write(s);
}

StatusOr<std::vector<RunRow>> History::LoadRuns() {
  auto stmt = db_->Prepare(std::string(kRunColumns) + " ORDER BY r.id");
  if (!stmt.ok()) return stmt.status();
  std::vector<RunRow> out;
  while (true) {
    auto row = stmt->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    out.push_back(RunFromRow(*stmt));
  }
  return out;
}

StatusOr<RunRow> History::LoadRun(RunId run) {
  auto stmt = db_->Prepare(std::string(kRunColumns) + " WHERE r.id = ?1");
  if (!stmt.ok()) return stmt.status();
  stmt->BindInt(1, run);
  auto row = stmt->Step();
  if (!row.ok()) return row.status();
  if (!*row) {
    return Status::NotFound("history " + path() + " has no run " +
                            std::to_string(run) +
                            "; `gsrt runs` lists the runs it has");
  }
  return RunFromRow(*stmt);
}

StatusOr<std::vector<StoredTask>> History::LoadTasks(RunId run) {
  auto stmt = db_->Prepare(
      "SELECT task_id, operation, depends_on, submitted, state, ended FROM "
      "run_tasks WHERE run_id = ?1 ORDER BY task_id");
  if (!stmt.ok()) return stmt.status();
  stmt->BindInt(1, run);
  std::vector<StoredTask> out;
  while (true) {
    auto row = stmt->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    StoredTask t;
    t.record.task = static_cast<TaskId>(stmt->ColumnInt(0));
    t.record.operation = stmt->ColumnText(1);
    t.record.depends_on = SplitIds(stmt->ColumnText(2));
    t.record.submitted = stmt->ColumnDouble(3);
    t.state = stmt->ColumnText(4);
    t.ended = stmt->IsNull(5) ? 0 : stmt->ColumnDouble(5);
    out.push_back(std::move(t));
  }
  return out;
}

StatusOr<std::vector<RunEvent>> History::LoadRunEvents(RunId run) {
  auto stmt = db_->Prepare(
      "SELECT kind, time, duration, host, task_id, bytes, detail FROM "
      "run_events WHERE run_id = ?1 ORDER BY time, id");
  if (!stmt.ok()) return stmt.status();
  stmt->BindInt(1, run);
  std::vector<RunEvent> out;
  while (true) {
    auto row = stmt->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    RunEvent e;
    e.kind = stmt->ColumnText(0);
    e.time = stmt->ColumnDouble(1);
    e.duration = stmt->ColumnDouble(2);
    e.host = stmt->ColumnText(3);
    if (!stmt->IsNull(4)) e.task = static_cast<TaskId>(stmt->ColumnInt(4));
    e.bytes = static_cast<uint64_t>(stmt->ColumnInt(5));
    e.detail = stmt->ColumnText(6);
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace gs
