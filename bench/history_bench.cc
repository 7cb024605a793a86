// The cost of recording one job in the history (History::RecordJob, one
// commit per `batch_size` records) against the least SQLite can do for the
// same row: a prepared INSERT of the same columns into a table without
// indexes or foreign keys, same pragmas (WAL, synchronous=NORMAL), one
// commit per row or per 64 rows. Rounds alternate; best of each is kept.
// Then a journal entry (its signature, outputs JSON and batched insert: what
// a finished task costs the engine thread for resume) against the same
// bare INSERT batched by 64. These were timed assertions in the history
// tests; figures in docs/benchmarks.md.
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "runtime/history/history.h"
#include "runtime/history/journal.h"

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kJobs = 2000;
constexpr int kRounds = 5;

std::string FreshPath(const std::string& dir, const std::string& name) {
  static int n = 0;
  return dir + "/" + name + "-" + std::to_string(++n) + ".db";
}

double Micros(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start)
             .count() /
         kJobs;
}

double TimeHistory(const std::string& dir, int batch) {
  gs::HistoryOptions options;
  options.batch_size = batch;
  auto history = gs::History::Open(FreshPath(dir, "history"), options);
  if (!history.ok()) {
    std::fprintf(stderr, "%s\n", history.status().ToString().c_str());
    std::exit(1);
  }
  auto run = (*history)->BeginRun("multiply", "/home/u/mm", 3, 1000.0);
  gs::JobRecord j;
  j.run = *run;
  j.operation = "multiply";
  j.host = "node-with-a-longish-name";
  j.submitted = 0.5;
  j.started = 1.0;
  j.ended = 3.0;
  j.outcome = gs::OutcomeClass::kOk;
  j.log_dir = "/scratch/user/gsrt/run-1/jobs/12345";
  j.usage = {1.5, 0.1, 40000};
  auto start = Clock::now();
  for (int i = 0; i < kJobs; ++i) {
    j.job = static_cast<gs::JobId>(i);
    j.task = static_cast<gs::TaskId>(i);
    if (!(*history)->RecordJob(j).ok()) std::exit(1);
  }
  if (!(*history)->Flush().ok()) std::exit(1);
  return Micros(start);
}

double TimeJournal(const std::string& dir) {
  gs::HistoryOptions options;
  options.batch_size = 64;  // as the engine
  auto history = gs::History::Open(FreshPath(dir, "journal"), options);
  if (!history.ok()) std::exit(1);
  auto run = (*history)->BeginRun("multiply", "/home/u/mm", 3, 1000.0);
  auto start = Clock::now();
  for (int i = 0; i < kJobs; ++i) {
    gs::SignatureBuilder sig("multiply_accumulate", "96");
    sig.AddFile(0, "t:0123456789abcdef0123456789abcdef:0",
                "/home/user/run/matmul-C_1_2.txt");
    sig.AddFile(1, "t:00112233445566778899aabbccddeeff:0", "");
    sig.AddFile(2, "t:ffeeddccbbaa99887766554433221100:0", "");
    gs::JournalEntry e;
    e.run = *run;
    e.task = static_cast<gs::TaskId>(i);
    e.signature = sig.Finish();
    e.operation = "multiply_accumulate";
    e.host = "node1";
    e.finished = 1000.0 + i;
    gs::JournalOutput o;
    o.file = std::to_string(i) + "-matmul-C_1_2.txt";
    o.size = 106362;
    o.mtime_ns = 1795316218528410805;
    o.inode = 10953164;
    e.outputs.push_back(o);
    if (!(*history)->RecordTaskJournal(e).ok()) std::exit(1);
  }
  if (!(*history)->Flush().ok()) std::exit(1);
  return Micros(start);
}

void Exec(sqlite3* db, const char* sql) {
  if (sqlite3_exec(db, sql, nullptr, nullptr, nullptr) != SQLITE_OK) {
    std::fprintf(stderr, "sqlite: %s\n", sqlite3_errmsg(db));
    std::exit(1);
  }
}

double TimeRawInsert(const std::string& dir, int batch) {
  sqlite3* db = nullptr;
  sqlite3_open(FreshPath(dir, "raw").c_str(), &db);
  Exec(db, "PRAGMA journal_mode = WAL");
  Exec(db, "PRAGMA synchronous = NORMAL");
  Exec(
      db,
      "CREATE TABLE jobs (run INTEGER, task INTEGER, job INTEGER, op TEXT, "
      "host TEXT, submitted REAL, started REAL, ended REAL, outcome INTEGER, "
      "exit_code INTEGER, log_dir TEXT, user_s REAL, sys_s REAL, rss INTEGER)");
  sqlite3_stmt* insert = nullptr;
  sqlite3_prepare_v2(db,
                     "INSERT INTO jobs VALUES (1, ?1, ?1, 'multiply', "
                     "'node-with-a-longish-name', 0.5, 1.0, 3.0, 0, 0, "
                     "'/scratch/user/gsrt/run-1/jobs/12345', 1.5, 0.1, 40000)",
                     -1, &insert, nullptr);
  auto start = Clock::now();
  for (int i = 0; i < kJobs; ++i) {
    if (i % batch == 0) Exec(db, "BEGIN");
    sqlite3_bind_int(insert, 1, i);
    sqlite3_step(insert);
    sqlite3_reset(insert);
    if (i % batch == batch - 1 || i == kJobs - 1) Exec(db, "COMMIT");
  }
  double us = Micros(start);
  sqlite3_finalize(insert);
  sqlite3_close(db);
  return us;
}

}  // namespace

int main() {
  std::string dir = std::filesystem::temp_directory_path() /
                    ("gsrt-history-bench-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::printf("%d records per round, best of %d rounds (us per record)\n",
              kJobs, kRounds);
  for (int batch : {1, 64}) {
    double best_history = 1e30, best_raw = 1e30;
    for (int round = 0; round < kRounds; ++round) {
      best_raw = std::min(best_raw, TimeRawInsert(dir, batch));
      best_history = std::min(best_history, TimeHistory(dir, batch));
    }
    std::printf(
        "batch_size=%-3d raw INSERT %8.2f  RecordJob %8.2f  ratio %.2f\n",
        batch, best_raw, best_history, best_history / best_raw);
  }
  double best_journal = 1e30, best_raw = 1e30;
  for (int round = 0; round < kRounds; ++round) {
    best_raw = std::min(best_raw, TimeRawInsert(dir, 64));
    best_journal = std::min(best_journal, TimeJournal(dir));
  }
  std::printf(
      "journal entry (batch 64): raw INSERT %8.2f  entry %8.2f  "
      "ratio %.2f\n",
      best_raw, best_journal, best_journal / best_raw);
  std::filesystem::remove_all(dir);
  return 0;
}
