#include "runtime/history/history.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <map>
#include <utility>

#include "runtime/history/check_pace.h"
#include "runtime/history/history_schema.h"

namespace gs {

namespace {

// Creates the missing directories above `file`, each with mode 0700 (the
// history reveals host names, paths and timings). Existing directories are
// left as they are: they may be shared on purpose.
Status EnsureParentDir(const std::string& file) {
  std::filesystem::path parent = std::filesystem::path(file).parent_path();
  if (parent.empty()) return Status::Ok();
  std::filesystem::path partial;
  for (const std::filesystem::path& part : parent) {
    partial /= part;
    if (mkdir(partial.c_str(), 0700) == 0) {
      // mkdir's mode is masked by the umask; 0700 only loses bits, but be
      // exact anyway.
      if (chmod(partial.c_str(), 0700) != 0) {
        return Status::FromErrno("chmod 0700 " + partial.string(), errno);
      }
      continue;
    }
    if (errno != EEXIST) {
      return Status::FromErrno("cannot create directory " + partial.string() +
                                   " for the history file " + file,
                               errno);
    }
    struct stat st;
    if (stat(partial.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
      return Status::FailedPrecondition(
          partial.string() +
          " is not a directory; cannot create the "
          "history file " +
          file + " under it");
    }
  }
  return Status::Ok();
}

// Creates `path` empty with mode 0600 if it does not exist (an empty file is
// a valid empty SQLite database). SQLite itself would create it 0644, and
// it gives the -wal and -shm files the mode of the database file.
Status CreateIfMissing(const std::string& path, bool* created) {
  *created = false;
  int fd = open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    if (errno == EEXIST) return Status::Ok();
    return Status::FromErrno("cannot create the history file " + path, errno);
  }
  *created = true;
  int rc = fchmod(fd, 0600);
  int err = errno;
  close(fd);
  if (rc != 0) return Status::FromErrno("chmod 0600 " + path, err);
  return Status::Ok();
}

Status CheckRegularFile(const std::string& path, mode_t* mode) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    return Status::FromErrno("cannot stat the history file " + path, errno);
  }
  if (!S_ISREG(st.st_mode)) {
    return Status::FailedPrecondition(
        path + " is not a regular file; point the history path at a file");
  }
  *mode = st.st_mode & 07777;
  return Status::Ok();
}

// Others able to write the history could poison rankings and predictions:
// drop group and world write. Read bits are the owner's choice.
Status TightenPermissions(const std::string& path, mode_t mode) {
  if ((mode & (S_IWGRP | S_IWOTH)) == 0) return Status::Ok();
  if (chmod(path.c_str(), mode & ~(S_IWGRP | S_IWOTH)) != 0) {
    return Status::FromErrno(
        "history file " + path +
            " is group- or world-writable and cannot be tightened (chmod)",
        errno);
  }
  return Status::Ok();
}

}  // namespace

StatusOr<std::unique_ptr<History>> History::Open(const std::string& path) {
  return Open(path, HistoryOptions());
}

StatusOr<std::unique_ptr<History>> History::Open(
    const std::string& path, const HistoryOptions& options) {
  if (Status s = EnsureParentDir(path); !s.ok()) return s;
  bool created = false;
  if (Status s = CreateIfMissing(path, &created); !s.ok()) return s;
  mode_t mode = 0;
  if (Status s = CheckRegularFile(path, &mode); !s.ok()) return s;

  StatusOr<std::unique_ptr<SqliteDb>> opened =
      SqliteDb::Open(path, SqliteDb::Mode::kReadWrite, options.busy_timeout_ms);
  if (!opened.ok()) {
    return opened.status().WithContext("opening the history file");
  }
  std::unique_ptr<SqliteDb> db = std::move(opened).value();
  if (db->IsReadOnly()) {
    return Status::PermissionDenied(
        "history file " + path +
        " is not writable by this user; fix its permissions or use another "
        "history file");
  }
  // Only reads until the schema is known to be ours and not newer, so a
  // refused file is left exactly as it was.
  if (Status s = CheckHistorySchema(*db, HistoryMigrations()); !s.ok()) {
    return s;
  }
  if (Status s = TightenPermissions(path, mode); !s.ok()) return s;

  // WAL lets a probe read while a run writes and makes commits cheap; with
  // synchronous=NORMAL a commit does not fsync (only checkpoints do), so a
  // power loss may drop the last commits but never corrupts the file. On a
  // file system without shared memory (NFS) SQLite keeps the rollback
  // journal, which is slower but still correct.
  StatusOr<std::string> journal = db->QueryText("PRAGMA journal_mode = WAL");
  if (!journal.ok()) return journal.status();
  for (const char* pragma :
       {"PRAGMA synchronous = NORMAL", "PRAGMA foreign_keys = ON"}) {
    if (Status s = db->Exec(pragma); !s.ok()) return s;
  }
  if (Status s = MigrateHistory(*db, HistoryMigrations()); !s.ok()) return s;

  std::unique_ptr<History> history(new History(std::move(db), options));
  if (Status s = history->PrepareStatements(); !s.ok()) return s;
  return history;
}

History::~History() { (void)Flush(); }

Status History::PrepareStatements() {
  struct Entry {
    SqliteStatement* stmt;
    const char* sql;
  };
  const Entry entries[] = {
      {&begin_run_,
       "INSERT INTO runs (started, program, cwd, host_count, status) "
       "VALUES (?1, ?2, ?3, ?4, 'running')"},
      {&end_run_, "UPDATE runs SET ended = ?1, status = ?2 WHERE id = ?3"},
      {&upsert_host_,
       "INSERT INTO hosts (name, adapter, address) VALUES (?1, ?2, ?3) "
       "ON CONFLICT (name) DO UPDATE SET adapter = excluded.adapter, "
       "address = excluded.address"},
      {&insert_job_,
       "INSERT INTO jobs (run_id, task_id, job_id, operation, host, "
       "submitted, started, ended, outcome, exit_code, error, bytes_in, "
       "bytes_out, user_cpu, system_cpu, max_rss_kb, replica, log_dir) "
       "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, "
       "?15, ?16, ?17, ?18)"},
      {&insert_check_,
       "INSERT INTO host_checks (host, time, answered, rtt, source) "
       "VALUES (?1, ?2, ?3, ?4, ?5)"},
      {&insert_failure_,
       "INSERT INTO host_failures (host, time, kind, detail, run_id, job_id) "
       "VALUES (?1, ?2, ?3, ?4, ?5, ?6)"},
      // Both walk the partial index jobs_exec_times (operation, host,
      // ended): a whole-table window over every job grew with the history
      // (about 4 ms at each GS_On after 20,000 jobs, issue 32).
      {&exec_keys_,
       "SELECT operation, host FROM jobs INDEXED BY jobs_exec_times "
       "WHERE outcome = 'ok' AND (operation, host) > (?1, ?2) "
       "ORDER BY operation, host LIMIT 1"},
      {&exec_times_,
       "SELECT ended - started, ended FROM jobs INDEXED BY jobs_exec_times "
       "WHERE outcome = 'ok' AND operation = ?1 AND host = ?2 "
       "AND started IS NOT NULL AND ended IS NOT NULL "
       "ORDER BY ended DESC, id DESC LIMIT ?3"},
      {&checks_for_host_,
       "SELECT time, answered FROM host_checks WHERE host = ?1 "
       "ORDER BY time, id"},
      {&failures_for_host_,
       "SELECT count(*) FROM host_failures WHERE host = ?1"},
      {&success_for_host_,
       "SELECT coalesce(sum(outcome = 'ok'), 0), count(*) FROM jobs "
       "WHERE host = ?1 AND outcome != 'cancelled'"},
      {&all_checks_,
       "SELECT host, time, answered FROM host_checks ORDER BY host, time, id"},
      {&all_failures_,
       "SELECT host, count(*) FROM host_failures GROUP BY host ORDER BY host"},
      {&jobs_for_run_,
       "SELECT run_id, task_id, job_id, operation, host, submitted, started, "
       "ended, outcome, exit_code, error, bytes_in, bytes_out, user_cpu, "
       "system_cpu, max_rss_kb, replica, log_dir FROM jobs WHERE run_id = ?1 "
       "ORDER BY id"},
  };
  for (const Entry& e : entries) {
    StatusOr<SqliteStatement> stmt = db_->Prepare(e.sql);
    if (!stmt.ok()) return stmt.status();
    *e.stmt = std::move(stmt).value();
  }
  return Status::Ok();
}

Status History::Write(SqliteStatement& stmt) {
  if (options_.batch_size > 1 && !in_batch_) {
    if (Status s = db_->Exec("BEGIN IMMEDIATE"); !s.ok()) {
      stmt.Reset();
      return s;
    }
    in_batch_ = true;
  }
  if (Status s = stmt.Run(); !s.ok()) {
    // After some errors (a full disk) SQLite rolls the transaction back
    // itself: the batch is gone, and the next write must begin a new one
    // rather than COMMIT nothing ("no transaction is active").
    if (in_batch_ && !db_->InTransaction()) {
      in_batch_ = false;
      pending_ = 0;
    }
    return s;
  }
  if (in_batch_ && ++pending_ >= options_.batch_size) return Flush();
  return Status::Ok();
}

Status History::InOneTransaction(const std::function<Status()>& body) {
  if (Status s = Flush(); !s.ok()) return s;
  if (Status s = db_->Exec("BEGIN IMMEDIATE"); !s.ok()) return s;
  Status s = body();
  if (!s.ok()) {
    if (db_->InTransaction()) (void)db_->Exec("ROLLBACK");
    return s;
  }
  return db_->Exec("COMMIT");
}

Status History::Flush() {
  if (!in_batch_) return Status::Ok();
  if (Status s = db_->Exec("COMMIT"); !s.ok()) {
    if (!db_->InTransaction()) {
      in_batch_ = false;
      pending_ = 0;
    }
    return s;
  }
  in_batch_ = false;
  pending_ = 0;
  return Status::Ok();
}

StatusOr<RunId> History::BeginRun(std::string_view program,
                                  std::string_view cwd, int host_count,
                                  Seconds now) {
  begin_run_.BindDouble(1, now);
  begin_run_.BindText(2, program);
  begin_run_.BindText(3, cwd);
  begin_run_.BindInt(4, host_count);
  if (Status s = Write(begin_run_); !s.ok()) return s;
  RunId run = db_->LastInsertRowId();
  // A run's row must survive a crash, so that resume can find it.
  if (Status s = Flush(); !s.ok()) return s;
  return run;
}

Status History::EndRun(RunId run, RunStatus status, Seconds now) {
  end_run_.BindDouble(1, now);
  end_run_.BindText(2, RunStatusName(status));
  end_run_.BindInt(3, run);
  if (Status s = Write(end_run_); !s.ok()) return s;
  if (db_->Changes() != 1) {
    return Status::NotFound("history " + path() + " has no run " +
                            std::to_string(run));
  }
  return Flush();
}

Status History::RecordHost(const HostInfo& host) {
  upsert_host_.BindText(1, host.name);
  upsert_host_.BindText(2, host.adapter);
  upsert_host_.BindText(3, host.address);
  return Write(upsert_host_);
}

Status History::RecordJob(const JobRecord& job) {
  SqliteStatement& s = insert_job_;
  s.BindInt(1, job.run);
  s.BindInt(2, job.task);
  s.BindInt(3, static_cast<int64_t>(job.job));
  s.BindText(4, job.operation);
  s.BindText(5, job.host);
  s.BindTimeOrNull(6, job.submitted);
  s.BindTimeOrNull(7, job.started);
  s.BindTimeOrNull(8, job.ended);
  s.BindText(9, OutcomeClassName(job.outcome));
  s.BindOptionalInt(10, job.exit_code);
  s.BindText(11, job.error);
  s.BindInt(12, static_cast<int64_t>(job.bytes_in));
  s.BindInt(13, static_cast<int64_t>(job.bytes_out));
  // Usage exists only when a worker ran to its end.
  if (job.exit_code.has_value()) {
    s.BindDouble(14, job.usage.user_cpu);
    s.BindDouble(15, job.usage.system_cpu);
    s.BindInt(16, job.usage.max_rss_kb);
  }
  s.BindInt(17, job.replica ? 1 : 0);
  s.BindText(18, job.log_dir);
  return Write(s);
}

Status History::RecordHostCheck(const HostCheck& check) {
  insert_check_.BindText(1, check.host);
  insert_check_.BindDouble(2, check.time);
  insert_check_.BindInt(3, check.answered ? 1 : 0);
  if (check.rtt.has_value()) insert_check_.BindDouble(4, *check.rtt);
  insert_check_.BindText(5, CheckSourceName(check.source));
  return Write(insert_check_);
}

Status History::RecordHostFailure(const HostFailure& failure) {
  insert_failure_.BindText(1, failure.host);
  insert_failure_.BindDouble(2, failure.time);
  insert_failure_.BindText(3, failure.kind);
  insert_failure_.BindText(4, failure.detail);
  if (failure.run != 0) insert_failure_.BindInt(5, failure.run);
  if (failure.job != 0) {
    insert_failure_.BindInt(6, static_cast<int64_t>(failure.job));
  }
  return Write(insert_failure_);
}

StatusOr<std::vector<ExecTimeSample>> History::LoadExecTimes(
    int limit_per_key) {
  std::vector<ExecTimeSample> samples;
  std::string operation, host;  // the key before the next; "" < any name
  while (true) {
    exec_keys_.BindText(1, operation);
    exec_keys_.BindText(2, host);
    StatusOr<bool> key = exec_keys_.Step();
    if (!key.ok() || !*key) {
      exec_keys_.Reset();
      if (!key.ok()) return key.status();
      break;
    }
    operation = exec_keys_.ColumnText(0);
    host = exec_keys_.ColumnText(1);
    exec_keys_.Reset();
    exec_times_.BindText(1, operation);
    exec_times_.BindText(2, host);
    exec_times_.BindInt(3, limit_per_key);
    while (true) {
      StatusOr<bool> row = exec_times_.Step();
      if (!row.ok()) {
        exec_times_.Reset();
        return row.status();
      }
      if (!*row) break;
      samples.push_back({operation, host, exec_times_.ColumnDouble(0),
                         exec_times_.ColumnDouble(1)});
    }
    exec_times_.Reset();
  }
  return samples;
}

StatusOr<HostReliability> History::LoadHostReliability(std::string_view host) {
  HostReliability r;
  r.host = std::string(host);
  CheckPace pace;
  checks_for_host_.BindText(1, host);
  while (true) {
    StatusOr<bool> row = checks_for_host_.Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    pace.Counts(checks_for_host_.ColumnDouble(0),
                checks_for_host_.ColumnInt(1) != 0);
  }
  checks_for_host_.Reset();
  r.attempts = pace.attempts();
  r.not_answered = pace.not_answered();

  failures_for_host_.BindText(1, host);
  StatusOr<bool> row = failures_for_host_.Step();
  if (!row.ok()) return row.status();
  r.distrust = failures_for_host_.ColumnInt(0);
  failures_for_host_.Reset();
  return r;
}

StatusOr<std::pair<int64_t, int64_t>> History::LoadJobSuccess(
    std::string_view host) {
  success_for_host_.BindText(1, host);
  StatusOr<bool> row = success_for_host_.Step();
  if (!row.ok()) return row.status();
  std::pair<int64_t, int64_t> r{success_for_host_.ColumnInt(0),
                                success_for_host_.ColumnInt(1)};
  success_for_host_.Reset();
  return r;
}

StatusOr<std::vector<HostReliability>> History::LoadAllHostReliability() {
  // By name: each host's checks at their pace, then its failures.
  std::map<std::string, CheckPace> paces;
  while (true) {
    StatusOr<bool> row = all_checks_.Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    paces[all_checks_.ColumnText(0)].Counts(all_checks_.ColumnDouble(1),
                                            all_checks_.ColumnInt(2) != 0);
  }
  all_checks_.Reset();
  std::map<std::string, int64_t> failures;
  while (true) {
    StatusOr<bool> row = all_failures_.Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    failures[all_failures_.ColumnText(0)] = all_failures_.ColumnInt(1);
  }
  all_failures_.Reset();
  for (const auto& [host, count] : failures) paces.try_emplace(host);
  std::vector<HostReliability> hosts;
  for (const auto& [host, pace] : paces) {
    auto f = failures.find(host);
    hosts.push_back({host, pace.attempts(), pace.not_answered(),
                     f == failures.end() ? 0 : f->second});
  }
  return hosts;
}

StatusOr<std::vector<JobRecord>> History::JobsForRun(RunId run) {
  std::vector<JobRecord> jobs;
  SqliteStatement& s = jobs_for_run_;
  s.BindInt(1, run);
  while (true) {
    StatusOr<bool> row = s.Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    jobs.push_back(JobFromRow(s));
  }
  s.Reset();
  return jobs;
}

StatusOr<int64_t> History::LargestJobId() {
  // One index seek per run (jobs_by_run) instead of a scan of every job.
  return db_->QueryInt(
      "SELECT coalesce(max(m), 0) FROM (SELECT (SELECT max(job_id) FROM jobs "
      "WHERE run_id = runs.id) AS m FROM runs)");
}

}  // namespace gs
