// Queue waits of batch jobs: learnt by the batch adapters, written by the
// engine (Engine::RecordPending), read when batch hosts are made
// (runtime/hosts/registry.cc: a host's expected wait).
#include "runtime/history/history.h"

namespace gs {

Status History::RecordQueueWait(const QueueWait& wait) {
  auto stmt = db_->Prepare(
      "INSERT INTO queue_waits (host, partition, nodes, submitted, started, "
      "run_id, cores, walltime) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  if (!stmt.ok()) return stmt.status();
  stmt->BindText(1, wait.host);
  stmt->BindText(2, wait.partition);
  stmt->BindInt(3, wait.nodes);
  stmt->BindDouble(4, wait.submitted);
  stmt->BindDouble(5, wait.started);
  stmt->BindOptionalInt(6, wait.run_id);
  stmt->BindInt(7, wait.cores);
  stmt->BindDouble(8, wait.walltime);
  return Write(*stmt);
}

StatusOr<std::vector<QueueWait>> History::LoadQueueWaits(std::string_view host,
                                                         int limit) {
  auto stmt = db_->Prepare(
      "SELECT host, partition, nodes, submitted, started, run_id, cores, "
      "walltime FROM "
      "queue_waits WHERE ?1 = '' OR host = ?1 ORDER BY submitted DESC, id "
      "DESC LIMIT ?2");
  if (!stmt.ok()) return stmt.status();
  stmt->BindText(1, host);
  stmt->BindInt(2, limit);
  std::vector<QueueWait> out;
  while (true) {
    auto row = stmt->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    QueueWait w;
    w.host = stmt->ColumnText(0);
    w.partition = stmt->ColumnText(1);
    w.nodes = static_cast<int>(stmt->ColumnInt(2));
    w.submitted = stmt->ColumnDouble(3);
    w.started = stmt->ColumnDouble(4);
    if (!stmt->IsNull(5)) w.run_id = stmt->ColumnInt(5);
    w.cores = static_cast<int>(stmt->ColumnInt(6));
    w.walltime = stmt->ColumnDouble(7);
    out.push_back(std::move(w));
  }
  return out;
}

StatusOr<int64_t> History::LatestRunId() {
  return db_->QueryInt("SELECT coalesce(max(id), 0) FROM runs");
}

}  // namespace gs
