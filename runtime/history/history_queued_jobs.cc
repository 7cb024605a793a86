// History: the batch jobs each run queued (table batch_jobs), which let a
// master started again after a crash take over the jobs its interrupted
// run left in the queue (docs/design.md, "Resume").
#include <string>

#include "runtime/history/history.h"

namespace gs {

namespace {

std::string JoinLines(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) {
    if (!out.empty()) out += '\n';
    out += l;
  }
  return out;
}

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> out;
  if (text.empty()) return out;
  size_t start = 0;
  while (true) {
    size_t end = text.find('\n', start);
    out.push_back(text.substr(start, end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

// A job being submitted has no batch id yet; the key column holds one no
// batch system prints (ids start with a digit), unique per element.
constexpr char kSubmittingPrefix[] = "submitting:";

// A job a pilot runs shares the pilot's batch id: the key column adds the
// job ("123/job-45"; no batch system prints a '/').
constexpr char kInPilotInfix[] = "/job-";

std::string BatchIdColumn(const QueuedJob& job) {
  if (job.in_pilot) {
    return job.batch_id + kInPilotInfix + std::to_string(job.job);
  }
  if (!job.batch_id.empty()) return job.batch_id;
  return kSubmittingPrefix + job.dir + "#" + std::to_string(job.index);
}

}  // namespace

Status History::RecordQueuedJob(const QueuedJobEntry& entry) {
  if (entry.job.job != 0) {
    // One row per gsrt job: its latest submission (a job the queue lost
    // and ran again, or its id once the queue gave it) replaces earlier
    // ones. Pilots (job 0) keep a row each; a row saying that the job was
    // taken over stays (the run's record of it), and sorts after.
    if (!delete_queued_.valid()) {
      auto stmt = db_->Prepare(
          "DELETE FROM batch_jobs WHERE run_id = ?1 AND host = ?2 AND "
          "job_id = ?3 AND adopted = 0");
      if (!stmt.ok()) return stmt.status();
      delete_queued_ = std::move(stmt).value();
    }
    delete_queued_.BindInt(1, entry.run);
    delete_queued_.BindText(2, entry.host);
    delete_queued_.BindInt(3, static_cast<int64_t>(entry.job.job));
    if (Status s = Write(delete_queued_); !s.ok()) return s;
  }
  if (!insert_queued_.valid()) {
    // REPLACE: the same batch job is recorded once per run; a rerun after
    // the queue lost it gets a new id.
    auto stmt = db_->Prepare(
        "INSERT OR REPLACE INTO batch_jobs (run_id, host, batch_id, name, "
        "dir, array_index, job_id, task_id, signature, outputs, adopted) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
    if (!stmt.ok()) return stmt.status();
    insert_queued_ = std::move(stmt).value();
  }
  SqliteStatement& s = insert_queued_;
  s.BindInt(1, entry.run);
  s.BindText(2, entry.host);
  s.BindText(3, BatchIdColumn(entry.job));
  s.BindText(4, entry.job.name);
  s.BindText(5, entry.job.dir);
  s.BindInt(6, entry.job.index);
  s.BindInt(7, static_cast<int64_t>(entry.job.job));
  s.BindInt(8, entry.job.task);
  s.BindText(9, entry.signature);
  s.BindText(10, JoinLines(entry.outputs));
  s.BindInt(11, entry.job.adopted ? 1 : 0);
  return Write(s);
}

Status History::DeleteQueuedJobs(RunId run) {
  auto stmt = db_->Prepare("DELETE FROM batch_jobs WHERE run_id = ?1");
  if (!stmt.ok()) return stmt.status();
  stmt->BindInt(1, run);
  return Write(*stmt);
}

StatusOr<std::vector<QueuedJobEntry>> History::LoadQueuedJobs(RunId run) {
  auto stmt = db_->Prepare(
      "SELECT host, batch_id, name, dir, array_index, job_id, task_id, "
      "signature, outputs, adopted FROM batch_jobs WHERE run_id = ?1 ORDER "
      "BY job_id DESC, adopted, batch_id");
  if (!stmt.ok()) return stmt.status();
  stmt->BindInt(1, run);
  std::vector<QueuedJobEntry> out;
  while (true) {
    StatusOr<bool> row = stmt->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    QueuedJobEntry e;
    e.run = run;
    e.host = stmt->ColumnText(0);
    e.job.batch_id = stmt->ColumnText(1);
    if (e.job.batch_id.rfind(kSubmittingPrefix, 0) == 0) e.job.batch_id.clear();
    if (size_t at = e.job.batch_id.find(kInPilotInfix);
        at != std::string::npos) {
      e.job.batch_id.resize(at);
      e.job.in_pilot = true;
    }
    e.job.name = stmt->ColumnText(2);
    e.job.dir = stmt->ColumnText(3);
    e.job.index = static_cast<int>(stmt->ColumnInt(4));
    e.job.job = static_cast<JobId>(stmt->ColumnInt(5));
    e.job.task = static_cast<TaskId>(stmt->ColumnInt(6));
    e.signature = stmt->ColumnText(7);
    e.outputs = SplitLines(stmt->ColumnText(8));
    e.job.adopted = stmt->ColumnInt(9) != 0;
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace gs
