#include "runtime/history/history_schema.h"

#include <string>

namespace gs {

namespace {

// Version 1: the first schema. Times are REAL seconds since the epoch; NULL
// means unknown. Hosts are referred to by name (TEXT) so that the file reads
// well in the sqlite3 shell and probes of unconfigured hosts need no row in
// `hosts` first.
constexpr char kSchemaV1[] = R"sql(
CREATE TABLE runs (
  id          INTEGER PRIMARY KEY,
  started     REAL NOT NULL,
  ended       REAL,
  program     TEXT NOT NULL,
  cwd         TEXT NOT NULL,
  host_count  INTEGER NOT NULL DEFAULT 0,
  status      TEXT NOT NULL DEFAULT 'running'
              CHECK (status IN ('running', 'ok', 'failed', 'cancelled'))
);

CREATE TABLE jobs (
  id          INTEGER PRIMARY KEY,
  run_id      INTEGER NOT NULL REFERENCES runs(id),
  task_id     INTEGER NOT NULL,
  job_id      INTEGER NOT NULL,
  operation   TEXT NOT NULL,
  host        TEXT NOT NULL,
  submitted   REAL,
  started     REAL,
  ended       REAL,
  outcome     TEXT NOT NULL
              CHECK (outcome IN ('ok', 'app', 'infra', 'timeout', 'cancelled')),
  exit_code   INTEGER,
  error       TEXT NOT NULL DEFAULT '',
  bytes_in    INTEGER NOT NULL DEFAULT 0,
  bytes_out   INTEGER NOT NULL DEFAULT 0,
  user_cpu    REAL,
  system_cpu  REAL,
  max_rss_kb  INTEGER,
  replica     INTEGER NOT NULL DEFAULT 0 CHECK (replica IN (0, 1)),
  log_dir     TEXT NOT NULL DEFAULT ''
);
CREATE INDEX jobs_by_run ON jobs(run_id, job_id);
-- Serves LoadExecTimes: the newest successful durations per (op, host).
CREATE INDEX jobs_exec_times ON jobs(operation, host, ended)
  WHERE outcome = 'ok';

CREATE TABLE hosts (
  name        TEXT PRIMARY KEY,
  adapter     TEXT NOT NULL,
  address     TEXT NOT NULL DEFAULT ''
) WITHOUT ROWID;

CREATE TABLE host_checks (
  id          INTEGER PRIMARY KEY,
  host        TEXT NOT NULL,
  time        REAL NOT NULL,
  answered    INTEGER NOT NULL CHECK (answered IN (0, 1)),
  rtt         REAL,
  source      TEXT NOT NULL CHECK (source IN ('probe', 'runtime'))
);
CREATE INDEX host_checks_by_host ON host_checks(host, time);

CREATE TABLE host_failures (
  id          INTEGER PRIMARY KEY,
  host        TEXT NOT NULL,
  time        REAL NOT NULL,
  kind        TEXT NOT NULL,
  detail      TEXT NOT NULL DEFAULT '',
  run_id      INTEGER REFERENCES runs(id),
  job_id      INTEGER
);
CREATE INDEX host_failures_by_host ON host_failures(host, time);

CREATE TABLE queue_waits (
  id          INTEGER PRIMARY KEY,
  host        TEXT NOT NULL,
  partition   TEXT NOT NULL DEFAULT '',
  nodes       INTEGER NOT NULL DEFAULT 1,
  submitted   REAL NOT NULL,
  started     REAL NOT NULL,
  run_id      INTEGER REFERENCES runs(id)
);
CREATE INDEX queue_waits_by_host ON queue_waits(host, partition, submitted);

CREATE TABLE task_journal (
  run_id      INTEGER NOT NULL REFERENCES runs(id),
  task_id     INTEGER NOT NULL,
  signature   TEXT NOT NULL,
  operation   TEXT NOT NULL,
  host        TEXT NOT NULL DEFAULT '',
  finished    REAL NOT NULL,
  outputs     TEXT NOT NULL DEFAULT '[]',
  PRIMARY KEY (run_id, task_id)
) WITHOUT ROWID;
CREATE INDEX task_journal_by_signature ON task_journal(signature);
)sql";

// Version 2: what probes measured on a host (gsdeploy probe; the runtime
// may record an agent's HELLO facts too). NULL: not measured; `error` says
// why a probe measured nothing. The row's availability attempt is the
// host_checks row of the same host and time.
constexpr char kSchemaV2[] = R"sql(
CREATE TABLE host_probes (
  id                INTEGER PRIMARY KEY,
  host              TEXT NOT NULL,
  time              REAL NOT NULL,
  source            TEXT NOT NULL CHECK (source IN ('probe', 'runtime')),
  rtt               REAL,
  cores             INTEGER,
  memory_total      INTEGER,
  memory_available  INTEGER,
  load1             REAL,
  bandwidth         REAL,
  queue_wait        REAL,
  error             TEXT NOT NULL DEFAULT ''
);
CREATE INDEX host_probes_by_host ON host_probes(host, time);
)sql";

// Version 3: what a run did besides its job attempts, so that `gsrt trace`
// and `gsrt show` can rebuild it: its tasks with their true dependencies
// (space-separated task ids) and final states, and its host and task
// events and transfers.
constexpr char kSchemaV3[] = R"sql(
CREATE TABLE run_tasks (
  run_id      INTEGER NOT NULL REFERENCES runs(id),
  task_id     INTEGER NOT NULL,
  operation   TEXT NOT NULL,
  depends_on  TEXT NOT NULL DEFAULT '',
  submitted   REAL NOT NULL,
  state       TEXT NOT NULL DEFAULT 'submitted'
              CHECK (state IN ('submitted', 'done', 'failed', 'futile')),
  ended       REAL,
  PRIMARY KEY (run_id, task_id)
) WITHOUT ROWID;

CREATE TABLE run_events (
  id          INTEGER PRIMARY KEY,
  run_id      INTEGER NOT NULL REFERENCES runs(id),
  time        REAL NOT NULL,
  duration    REAL NOT NULL DEFAULT 0,
  kind        TEXT NOT NULL,
  host        TEXT NOT NULL DEFAULT '',
  task_id     INTEGER,
  bytes       INTEGER NOT NULL DEFAULT 0,
  detail      TEXT NOT NULL DEFAULT ''
);
CREATE INDEX run_events_by_run ON run_events(run_id, time);
)sql";

// Version 4: the batch jobs each run queued (job mode: one per gsrt job,
// with its task's signature and output files; pilots with signature ''),
// so that a master started again after a crash takes over the jobs its
// interrupted run left in the queue instead of running their tasks again.
// `adopted` 1: the run took the job over from an earlier run.
constexpr char kSchemaV4[] = R"sql(
CREATE TABLE batch_jobs (
  run_id      INTEGER NOT NULL REFERENCES runs(id),
  host        TEXT NOT NULL,
  batch_id    TEXT NOT NULL,
  name        TEXT NOT NULL DEFAULT '',
  dir         TEXT NOT NULL DEFAULT '',
  array_index INTEGER NOT NULL DEFAULT 0,
  job_id      INTEGER NOT NULL DEFAULT 0,
  task_id     INTEGER NOT NULL DEFAULT 0,
  signature   TEXT NOT NULL DEFAULT '',
  outputs     TEXT NOT NULL DEFAULT '',
  adopted     INTEGER NOT NULL DEFAULT 0 CHECK (adopted IN (0, 1)),
  PRIMARY KEY (run_id, host, batch_id)
) WITHOUT ROWID;
)sql";

// Version 5: batch jobs found by gsrt job, as recording one replaces the
// job's earlier rows (history_queued_jobs.cc): without it each recording
// scanned all of the run's rows.
constexpr char kSchemaV5[] = R"sql(
CREATE INDEX batch_jobs_by_job ON batch_jobs (run_id, host, job_id);
)sql";

// Version 6: a task the run's end stopped (Ctrl-C) is `cancelled`, not
// `failed` (issue 36). SQLite cannot change a CHECK constraint: the table
// is rebuilt. Interrupted runs recorded before this, whose task's last job
// was cancelled, have that task's `failed` read as what it was.
constexpr char kSchemaV6[] = R"sql(
CREATE TABLE run_tasks_v6 (
  run_id      INTEGER NOT NULL REFERENCES runs(id),
  task_id     INTEGER NOT NULL,
  operation   TEXT NOT NULL,
  depends_on  TEXT NOT NULL DEFAULT '',
  submitted   REAL NOT NULL,
  state       TEXT NOT NULL DEFAULT 'submitted'
              CHECK (state IN ('submitted', 'done', 'failed', 'futile',
                               'cancelled')),
  ended       REAL,
  PRIMARY KEY (run_id, task_id)
) WITHOUT ROWID;
INSERT INTO run_tasks_v6
  SELECT run_id, task_id, operation, depends_on, submitted, state, ended
  FROM run_tasks;
DROP TABLE run_tasks;
ALTER TABLE run_tasks_v6 RENAME TO run_tasks;
UPDATE run_tasks SET state = 'cancelled'
  WHERE state = 'failed'
    AND run_id IN (SELECT id FROM runs WHERE status = 'cancelled')
    AND (SELECT j.outcome FROM jobs j
         WHERE j.run_id = run_tasks.run_id AND j.task_id = run_tasks.task_id
           AND j.replica = 0
         ORDER BY j.id DESC LIMIT 1) = 'cancelled';
)sql";

// Version 7: how far a probe's samples spread (gsdeploy probe takes
// several round trips and transfers; runtime/deploy/probe_measures.h), so
// that the ranking treats differences within the spread as ties.
constexpr char kSchemaV7[] = R"sql(
ALTER TABLE host_probes ADD COLUMN rtt_spread REAL;
ALTER TABLE host_probes ADD COLUMN bandwidth_spread REAL;
)sql";

// Version 8: results that last across runs (docs/reuse.md): one row per
// reuse key, the newest task that computed it; the content of the user's
// input files as last hashed, with the facts that say it still holds; and
// a task done by reusing one is `reused` in run_tasks (rebuilt for its
// CHECK, as in version 6).
constexpr char kSchemaV8[] = R"sql(
CREATE TABLE reuse_results (
  key         TEXT PRIMARY KEY,
  call        TEXT NOT NULL,
  operation   TEXT NOT NULL,
  run_id      INTEGER NOT NULL,
  task_id     INTEGER NOT NULL,
  finished    REAL NOT NULL,
  last_used   REAL NOT NULL,
  detail      TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX reuse_results_by_call ON reuse_results(call, finished);
CREATE TABLE file_hashes (
  path        TEXT PRIMARY KEY,
  size        INTEGER NOT NULL,
  mtime_ns    INTEGER NOT NULL,
  ctime_ns    INTEGER NOT NULL,
  inode       INTEGER NOT NULL,
  content     TEXT NOT NULL,
  hashed      REAL NOT NULL
) WITHOUT ROWID;
CREATE TABLE run_tasks_v8 (
  run_id      INTEGER NOT NULL REFERENCES runs(id),
  task_id     INTEGER NOT NULL,
  operation   TEXT NOT NULL,
  depends_on  TEXT NOT NULL DEFAULT '',
  submitted   REAL NOT NULL,
  state       TEXT NOT NULL DEFAULT 'submitted'
              CHECK (state IN ('submitted', 'done', 'failed', 'futile',
                               'cancelled', 'reused')),
  ended       REAL,
  PRIMARY KEY (run_id, task_id)
) WITHOUT ROWID;
INSERT INTO run_tasks_v8
  SELECT run_id, task_id, operation, depends_on, submitted, state, ended
  FROM run_tasks;
DROP TABLE run_tasks;
ALTER TABLE run_tasks_v8 RENAME TO run_tasks;
)sql";

// Version 9: the results a run reused, one row a run (their keys packed in
// a blob), instead of an update of each result's row with its detail (~8
// us a result). A result's last use is the later of
// reuse_results.last_used and the newest row naming it; rows are folded
// into reuse_results now and then (History::TouchReuse).
constexpr char kSchemaV9[] = R"sql(
CREATE TABLE reuse_uses (
  id          INTEGER PRIMARY KEY,
  used        REAL NOT NULL,
  keys        BLOB NOT NULL
);
)sql";

// Version 10: queue waits by job size (cores per node and walltime beside
// nodes), so that a job's wait is predicted from jobs like it
// (adapters/batch/queue_wait_estimate.h); what a probe's queue wait comes
// from (the batch system's estimate or the history).
constexpr char kSchemaV10[] = R"sql(
ALTER TABLE queue_waits ADD COLUMN cores INTEGER NOT NULL DEFAULT 1;
ALTER TABLE queue_waits ADD COLUMN walltime REAL NOT NULL DEFAULT 0;
ALTER TABLE host_probes ADD COLUMN queue_wait_basis TEXT NOT NULL DEFAULT '';
)sql";

constexpr Migration kMigrations[] = {
    {1, kSchemaV1}, {2, kSchemaV2},   {3, kSchemaV3}, {4, kSchemaV4},
    {5, kSchemaV5}, {6, kSchemaV6},   {7, kSchemaV7}, {8, kSchemaV8},
    {9, kSchemaV9}, {10, kSchemaV10},
};

Status VersionError(const SqliteDb& db, int64_t found, int known) {
  return Status::FailedPrecondition(
      db.path() + " has schema version " + std::to_string(found) +
      " but this gsrt knows up to " + std::to_string(known) +
      "; upgrade gsrt or use another history file");
}

}  // namespace

std::span<const Migration> HistoryMigrations() { return kMigrations; }

int HistorySchemaVersion() {
  return kMigrations[std::size(kMigrations) - 1].version;
}

Status CheckHistorySchema(SqliteDb& db, std::span<const Migration> migrations) {
  const int known = migrations.empty() ? 0 : migrations.back().version;
  // Reading user_version reads the header: a file that is not a database
  // fails here. Counting sqlite_master makes SQLite parse the schema, which
  // catches a damaged schema page too.
  StatusOr<int64_t> version = db.QueryInt("PRAGMA user_version");
  if (!version.ok()) return version.status();
  StatusOr<int64_t> objects = db.QueryInt("SELECT count(*) FROM sqlite_master");
  if (!objects.ok()) return objects.status();
  if (*version > known) return VersionError(db, *version, known);
  if (*version == 0 && *objects > 0) {
    return Status::FailedPrecondition(
        db.path() +
        " is an SQLite database but not a gsrt history (schema "
        "version 0 with " +
        std::to_string(*objects) +
        " existing tables or indexes); use another history file");
  }
  return Status::Ok();
}

Status MigrateHistory(SqliteDb& db, std::span<const Migration> migrations) {
  const int known = migrations.empty() ? 0 : migrations.back().version;
  // Cheap check first, so an up-to-date database takes no write lock.
  StatusOr<int64_t> version = db.QueryInt("PRAGMA user_version");
  if (!version.ok()) return version.status();
  if (*version == known) return Status::Ok();

  SqliteTransaction txn(&db);
  if (Status s = txn.Begin(); !s.ok()) return s;
  version = db.QueryInt("PRAGMA user_version");
  if (!version.ok()) return version.status();
  if (*version > known) return VersionError(db, *version, known);
  for (const Migration& step : migrations) {
    if (step.version <= *version) continue;
    if (Status s = db.Exec(step.sql); !s.ok()) {
      return s.WithContext("migrating the history schema to version " +
                           std::to_string(step.version));
    }
  }
  if (*version != known) {
    // PRAGMA takes no bound parameters; `known` is an int we control.
    Status s = db.Exec("PRAGMA user_version = " + std::to_string(known));
    if (!s.ok()) return s;
  }
  return txn.Commit();
}

}  // namespace gs
