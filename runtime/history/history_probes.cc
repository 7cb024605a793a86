// History: probe facts (schema version 2) and the event listings of
// `gsdeploy history`. These run a few times per probe or report, so their
// statements are prepared per call instead of at open.
#include <cassert>
#include <string>

#include "runtime/history/history.h"

namespace gs {

namespace {

// The columns JobFromRow reads, in its order.
constexpr char kJobColumns[] =
    "run_id, task_id, job_id, operation, host, submitted, started, ended, "
    "outcome, exit_code, error, bytes_in, bytes_out, user_cpu, system_cpu, "
    "max_rss_kb, replica, log_dir";

constexpr char kProbeColumns[] =
    "host, time, source, rtt, cores, memory_total, memory_available, load1, "
    "bandwidth, queue_wait, error, rtt_spread, bandwidth_spread, "
    "queue_wait_basis";

CheckSource SourceFrom(const std::string& name) {
  return name == "probe" ? CheckSource::kProbe : CheckSource::kRuntime;
}

template <typename T>
std::optional<T> OptionalInt(const SqliteStatement& s, int column) {
  if (s.IsNull(column)) return std::nullopt;
  return static_cast<T>(s.ColumnInt(column));
}

std::optional<double> OptionalDouble(const SqliteStatement& s, int column) {
  if (s.IsNull(column)) return std::nullopt;
  return s.ColumnDouble(column);
}

// Reads kProbeColumns from column 0 on.
HostProbeRecord ProbeFromRow(const SqliteStatement& s) {
  HostProbeRecord p;
  p.host = s.ColumnText(0);
  p.time = s.ColumnDouble(1);
  p.source = SourceFrom(s.ColumnText(2));
  p.rtt = OptionalDouble(s, 3);
  p.cores = OptionalInt<uint32_t>(s, 4);
  p.memory_total = OptionalInt<uint64_t>(s, 5);
  p.memory_available = OptionalInt<uint64_t>(s, 6);
  p.load1 = OptionalDouble(s, 7);
  p.bandwidth = OptionalDouble(s, 8);
  p.rtt_spread = OptionalDouble(s, 11);
  p.bandwidth_spread = OptionalDouble(s, 12);
  p.queue_wait = OptionalDouble(s, 9);
  p.error = s.ColumnText(10);
  p.queue_wait_basis = s.ColumnText(13);
  return p;
}

void BindOptional(SqliteStatement& s, int index,
                  const std::optional<double>& value) {
  if (value.has_value()) s.BindDouble(index, *value);
}

// WHERE clause of a listing: ?1 = host ('' for all), ?2 = since.
std::string Where(const char* time_expr) {
  return std::string(" WHERE (?1 = '' OR host = ?1) AND ") + time_expr +
         " >= ?2 ";
}

// Prepares `sql`, binds `filter` and calls `read` for each row.
template <typename Read>
Status ForEachRow(SqliteDb& db, const std::string& sql,
                  const HistoryFilter& filter, Read read) {
  StatusOr<SqliteStatement> stmt = db.Prepare(sql);
  if (!stmt.ok()) return stmt.status();
  stmt->BindText(1, filter.host);
  stmt->BindDouble(2, filter.since);
  while (true) {
    StatusOr<bool> row = stmt->Step();
    if (!row.ok()) return row.status();
    if (!*row) return Status::Ok();
    read(*stmt);
  }
}

}  // namespace

JobRecord History::JobFromRow(const SqliteStatement& s) {
  JobRecord j;
  j.run = s.ColumnInt(0);
  j.task = static_cast<TaskId>(s.ColumnInt(1));
  j.job = static_cast<JobId>(s.ColumnInt(2));
  j.operation = s.ColumnText(3);
  j.host = s.ColumnText(4);
  j.submitted = s.ColumnDouble(5);  // NULL reads as 0: unknown
  j.started = s.ColumnDouble(6);
  j.ended = s.ColumnDouble(7);
  std::optional<OutcomeClass> outcome = ParseOutcomeClass(s.ColumnText(8));
  assert(outcome.has_value());  // the CHECK constraint guarantees it
  j.outcome = *outcome;
  if (!s.IsNull(9)) j.exit_code = static_cast<int>(s.ColumnInt(9));
  j.error = s.ColumnText(10);
  j.bytes_in = static_cast<uint64_t>(s.ColumnInt(11));
  j.bytes_out = static_cast<uint64_t>(s.ColumnInt(12));
  j.usage.user_cpu = s.ColumnDouble(13);
  j.usage.system_cpu = s.ColumnDouble(14);
  j.usage.max_rss_kb = s.ColumnInt(15);
  j.replica = s.ColumnInt(16) != 0;
  j.log_dir = s.ColumnText(17);
  return j;
}

Status History::RecordHostProbe(const HostProbeRecord& p) {
  StatusOr<SqliteStatement> stmt =
      db_->Prepare(std::string("INSERT INTO host_probes (") + kProbeColumns +
                   ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, "
                   "?12, ?13, ?14)");
  if (!stmt.ok()) return stmt.status();
  SqliteStatement& s = *stmt;
  s.BindText(1, p.host);
  s.BindDouble(2, p.time);
  s.BindText(3, CheckSourceName(p.source));
  BindOptional(s, 4, p.rtt);
  if (p.cores) s.BindInt(5, *p.cores);
  if (p.memory_total) s.BindInt(6, static_cast<int64_t>(*p.memory_total));
  if (p.memory_available) {
    s.BindInt(7, static_cast<int64_t>(*p.memory_available));
  }
  BindOptional(s, 8, p.load1);
  BindOptional(s, 9, p.bandwidth);
  BindOptional(s, 10, p.queue_wait);
  s.BindText(11, p.error);
  BindOptional(s, 12, p.rtt_spread);
  BindOptional(s, 13, p.bandwidth_spread);
  s.BindText(14, p.queue_wait_basis);
  return Write(s);
}

StatusOr<std::vector<HostProbeRecord>> History::LoadLatestProbes() {
  // The newest row per host that measured something (every successful
  // probe has a round trip), with the newest non-NULL bandwidth and queue
  // wait of that host.
  const std::string sql =
      "SELECT host, time, source, rtt, cores, memory_total, "
      "memory_available, load1, "
      " (SELECT bandwidth FROM host_probes b WHERE b.host = latest.host AND "
      "  b.bandwidth IS NOT NULL ORDER BY time DESC, id DESC LIMIT 1), "
      " (SELECT queue_wait FROM host_probes q WHERE q.host = latest.host AND "
      "  q.queue_wait IS NOT NULL ORDER BY time DESC, id DESC LIMIT 1), "
      " error, rtt_spread, "
      " (SELECT bandwidth_spread FROM host_probes b WHERE b.host = "
      "  latest.host AND b.bandwidth IS NOT NULL ORDER BY time DESC, id DESC "
      "  LIMIT 1), "
      " (SELECT queue_wait_basis FROM host_probes q WHERE q.host = "
      "  latest.host AND q.queue_wait IS NOT NULL ORDER BY time DESC, id DESC "
      "  LIMIT 1) "
      "FROM (SELECT p.*, row_number() OVER (PARTITION BY host ORDER BY "
      "time DESC, id DESC) AS n FROM host_probes p" +
      Where("time") +
      "AND rtt IS NOT NULL) AS latest WHERE n = 1 "
      "ORDER BY host";
  std::vector<HostProbeRecord> probes;
  Status s = ForEachRow(*db_, sql, HistoryFilter{}, [&](SqliteStatement& r) {
    probes.push_back(ProbeFromRow(r));
  });
  if (!s.ok()) return s;
  return probes;
}

StatusOr<std::optional<double>> History::LoadMeanInputBytes(
    std::string_view operation) {
  StatusOr<SqliteStatement> stmt = db_->Prepare(
      "SELECT avg(bytes_in) FROM jobs WHERE operation = ?1 AND outcome = "
      "'ok'");
  if (!stmt.ok()) return stmt.status();
  stmt->BindText(1, operation);
  StatusOr<bool> row = stmt->Step();
  if (!row.ok()) return row.status();
  if (!*row || stmt->IsNull(0)) return std::optional<double>();
  return std::optional<double>(stmt->ColumnDouble(0));
}

StatusOr<std::vector<HostCheck>> History::LoadHostChecks(
    const HistoryFilter& filter) {
  std::vector<HostCheck> checks;
  Status s =
      ForEachRow(*db_,
                 "SELECT host, time, answered, rtt, source FROM host_checks" +
                     Where("time") + "ORDER BY time, id",
                 filter, [&](SqliteStatement& r) {
                   HostCheck c;
                   c.host = r.ColumnText(0);
                   c.time = r.ColumnDouble(1);
                   c.answered = r.ColumnInt(2) != 0;
                   c.rtt = OptionalDouble(r, 3);
                   c.source = SourceFrom(r.ColumnText(4));
                   checks.push_back(std::move(c));
                 });
  if (!s.ok()) return s;
  return checks;
}

StatusOr<std::vector<HostProbeRecord>> History::LoadHostProbes(
    const HistoryFilter& filter) {
  std::vector<HostProbeRecord> probes;
  Status s = ForEachRow(
      *db_,
      std::string("SELECT ") + kProbeColumns + " FROM host_probes" +
          Where("time") + "ORDER BY time, id",
      filter, [&](SqliteStatement& r) { probes.push_back(ProbeFromRow(r)); });
  if (!s.ok()) return s;
  return probes;
}

StatusOr<std::vector<HostFailure>> History::LoadHostFailures(
    const HistoryFilter& filter) {
  std::vector<HostFailure> failures;
  Status s = ForEachRow(
      *db_,
      "SELECT host, time, kind, detail, run_id, job_id FROM host_failures" +
          Where("time") + "ORDER BY time, id",
      filter, [&](SqliteStatement& r) {
        HostFailure f;
        f.host = r.ColumnText(0);
        f.time = r.ColumnDouble(1);
        f.kind = r.ColumnText(2);
        f.detail = r.ColumnText(3);
        f.run = r.ColumnInt(4);  // NULL reads as 0: not during a run
        f.job = static_cast<JobId>(r.ColumnInt(5));
        failures.push_back(std::move(f));
      });
  if (!s.ok()) return s;
  return failures;
}

StatusOr<std::vector<JobRecord>> History::LoadJobs(
    const HistoryFilter& filter) {
  std::vector<JobRecord> jobs;
  Status s = ForEachRow(
      *db_,
      std::string("SELECT ") + kJobColumns + " FROM jobs" +
          Where("coalesce(ended, submitted, started, 0)") +
          "ORDER BY coalesce(ended, submitted, started, 0), id",
      filter, [&](SqliteStatement& r) { jobs.push_back(JobFromRow(r)); });
  if (!s.ok()) return s;
  return jobs;
}

}  // namespace gs
