#include "runtime/inspect/cache_cli.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "runtime/base/command_line.h"
#include "runtime/base/units.h"
#include "runtime/history/history.h"
#include "runtime/history/result_store.h"
#include "runtime/inspect/inspect_cli.h"

namespace gs {

namespace {

std::string ShortKey(const std::string& key) { return key.substr(0, 12); }

std::string Outputs(const ReuseEntry& e) {
  std::string text;
  for (const ReuseOutput& o : e.outputs)
    text += (text.empty() ? "" : ", ") + o.path;
  return text.empty() ? "(results only)" : text;
}

int64_t Bytes(const ReuseEntry& e) {
  int64_t n = 0;
  for (const ReuseOutput& o : e.outputs) n += o.size;
  return n;
}

class CacheCommand {
 public:
  CacheCommand(const CacheArgs& a, const ConfigEnv& env, std::ostream& out,
               std::ostream& err)
      : a_(a), env_(env), out_(out), err_(err) {}

  int Run() {
    if (int code = Open(); code != 0) return code;
    if (a_.list->parsed()) return List();
    if (a_.show->parsed()) return Show();
    if (a_.clear->parsed()) return Clear();
    return Collect();
  }

 private:
  int Fail(const Status& s, int code = kGsrtHistoryError) {
    err_ << "gsrt: " << s.message() << "\n";
    return code;
  }

  int Open() {
    auto config = LoadDefaultConfig(env_);
    if (!config.ok()) return Fail(config.status(), kBadCommandLine);
    limit_ = config->runtime.reuse_limit;
    if (!a_.limit.empty()) {
      auto bytes = ParseByteSize(a_.limit);
      if (!bytes) {
        return Fail(Status::InvalidArgument(
                        "--limit '" + a_.limit +
                        "': expected a size such as 10G, 512M or 0"),
                    kBadCommandLine);
      }
      limit_ = *bytes;
    }
    std::string path =
        a_.history.empty() ? config->runtime.history : a_.history;
    store_ = std::make_unique<ResultStore>(
        a_.store.empty() ? config->runtime.work_dir + "/store" : a_.store);
    if (std::error_code ec; !std::filesystem::exists(path, ec)) {
      return Fail(Status::NotFound(
          "no history at " + path +
          " (a master writes it on its first run); name another with "
          "--history or runtime.history"));
    }
    auto history = History::Open(path);
    if (!history.ok()) return Fail(history.status());
    history_ = std::move(history).value();
    auto entries = history_->LoadReuse();
    if (!entries.ok()) return Fail(entries.status());
    entries_ = std::move(entries).value();
    return 0;
  }

  int List() {
    std::vector<StoredFile> files = store_->List();
    int64_t stored = 0;
    for (const StoredFile& f : files) stored += f.size;
    if (a_.json) {
      nlohmann::json list = nlohmann::json::array();
      for (const ReuseEntry& e : entries_) {
        list.push_back({{"key", e.key},
                        {"operation", e.operation},
                        {"run", e.run},
                        {"task", e.task},
                        {"last_used", e.last_used},
                        {"bytes", Bytes(e)},
                        {"held", Held(e)},
                        {"outputs", Outputs(e)}});
      }
      out_ << nlohmann::json({{"schema", "gsrt-cache/1"},
                              {"entries", list},
                              {"store", store_->dir()},
                              {"store_files", files.size()},
                              {"store_bytes", stored}})
                  .dump(2)
           << "\n";
      return 0;
    }
    char line[512];
    std::snprintf(line, sizeof line, "%-12s  %-16s  %-16s  %-19s  %10s  %s\n",
                  "KEY", "OPERATION", "MADE BY", "LAST USED", "SIZE",
                  "OUTPUTS");
    out_ << line;
    for (auto it = entries_.rbegin(); it != entries_.rend(); ++it) {
      const ReuseEntry& e = *it;
      std::string made =
          "run " + std::to_string(e.run) + " task " + std::to_string(e.task);
      std::snprintf(
          line, sizeof line, "%-12s  %-16s  %-16s  %-19s  %10s  %s%s\n",
          ShortKey(e.key).c_str(), e.operation.c_str(), made.c_str(),
          FormatTimestamp(e.last_used).c_str(),
          FormatBytes(static_cast<double>(Bytes(e))).c_str(),
          Outputs(e).c_str(), Held(e) ? "" : " (gone from the store)");
      out_ << line;
    }
    out_ << entries_.size() << " results; the store " << store_->dir()
         << " holds " << files.size() << " files, "
         << FormatBytes(static_cast<double>(stored)) << " (limit "
         << (limit_ == 0 ? std::string("none")
                         : FormatBytes(static_cast<double>(limit_)))
         << ")\n";
    return 0;
  }

  bool Held(const ReuseEntry& e) const {
    for (const ReuseOutput& o : e.outputs) {
      if (!store_->Holds(o)) return false;
    }
    return true;
  }

  // a_.entry: a key prefix, or RUN:TASK of the run that made it.
  const ReuseEntry* Find(std::string* why) const {
    const ReuseEntry* found = nullptr;
    size_t colon = a_.entry.find(':');
    for (const ReuseEntry& e : entries_) {
      bool match = colon == std::string::npos
                       ? e.key.starts_with(a_.entry)
                       : a_.entry == std::to_string(e.run) + ":" +
                                         std::to_string(e.task);
      if (!match) continue;
      if (found) {
        *why = "'" + a_.entry + "' names several results; give more of the key";
        return nullptr;
      }
      found = &e;
    }
    if (!found) *why = "no result '" + a_.entry + "' (see `gsrt cache list`)";
    return found;
  }

  int Show() {
    std::string why;
    const ReuseEntry* e = Find(&why);
    if (!e) return Fail(Status::NotFound(why), kBadCommandLine);
    if (a_.json) {
      nlohmann::json doc = nlohmann::json::parse(EncodeReuseDetail(*e));
      doc["key"] = e->key;
      doc["call"] = e->call;
      doc["operation"] = e->operation;
      doc["run"] = e->run;
      doc["task"] = e->task;
      doc["finished"] = e->finished;
      doc["last_used"] = e->last_used;
      doc["held"] = Held(*e);
      out_ << doc.dump(2) << "\n";
      return 0;
    }
    out_ << "key        " << e->key << "\n"
         << "operation  " << e->operation << "\n"
         << "made by    run " << e->run << " task " << e->task << ", "
         << FormatTimestamp(e->finished) << "\n"
         << "last used  " << FormatTimestamp(e->last_used) << "\n"
         << "worker     " << e->worker << "\n"
         << "arguments  " << (e->scalars.empty() ? "(none)" : e->scalars)
         << "\n";
    for (const ReuseInput& in : e->inputs) {
      out_ << "reads      #" << in.param << " '" << in.path << "' "
           << in.identity << "\n";
    }
    for (const ReuseOutput& o : e->outputs) {
      out_ << "writes     #" << o.param << " '" << o.path << "' " << o.content
           << (store_->Holds(o) ? " at " + store_->PathOf(o.content)
                                : std::string(" (gone from the store)"))
           << "\n";
    }
    if (!e->results.empty()) out_ << "results    " << e->results << "\n";
    return 0;
  }

  int Clear() {
    if (Status s = history_->DeleteAllReuse(); !s.ok()) return Fail(s);
    if (Status s = history_->Flush(); !s.ok()) return Fail(s);
    if (Status s = store_->Clear(); !s.ok()) return Fail(s);
    out_ << "removed " << entries_.size() << " results and the store "
         << store_->dir() << "\n";
    return 0;
  }

  int Collect() {
    StoreCollection plan = PlanStoreCollection(
        entries_, store_->List(), limit_ == 0 ? UINT64_MAX : limit_);
    for (const std::string& key : plan.drop_keys) {
      if (Status s = history_->DeleteReuse(key); !s.ok()) return Fail(s);
    }
    if (Status s = history_->Flush(); !s.ok()) return Fail(s);
    for (const std::string& content : plan.remove_contents) {
      if (Status s = store_->Remove(content); !s.ok()) return Fail(s);
    }
    out_ << "dropped " << plan.drop_keys.size() << " results and "
         << plan.remove_contents.size() << " stored files; the store holds "
         << FormatBytes(static_cast<double>(plan.bytes_after)) << " (was "
         << FormatBytes(static_cast<double>(plan.bytes_before)) << ")\n";
    return 0;
  }

  const CacheArgs& a_;
  const ConfigEnv& env_;
  std::ostream& out_;
  std::ostream& err_;
  std::unique_ptr<History> history_;
  std::unique_ptr<ResultStore> store_;
  std::vector<ReuseEntry> entries_;
  uint64_t limit_ = 0;
};

}  // namespace

CLI::App* AddCacheCommand(CLI::App& app, CacheArgs* a) {
  CLI::App* cache = app.add_subcommand(
      "cache",
      "The results that last across runs (runtime.reuse, docs/reuse.md): "
      "list them, show one, clear them all, or trim the store to its limit.");
  cache->require_subcommand(1);
  auto common = [&](CLI::App* cmd) {
    cmd->add_option("--history", a->history,
                    "history file (default: runtime.history of gsrt.yaml, "
                    "else .gsrt/history.db)");
    cmd->add_option("--store", a->store,
                    "the store (default: <runtime.work_dir>/store)");
    cmd->footer(
        "Exit codes: 0 done; 2 bad command line, configuration or no such "
        "result; 3 the history is unusable.");
  };
  a->list = cache->add_subcommand(
      "list",
      "Every result, most recently used first: its key, operation, the run "
      "and task that made it, when it was last used, its size, its outputs.");
  a->list->add_flag("--json", a->json, "print one JSON object");
  a->show = cache->add_subcommand(
      "show", "One result: what it read (by content), wrote, and where.");
  a->show
      ->add_option("RESULT", a->entry,
                   "a key or its first digits (as `gsrt cache list` prints "
                   "it), or RUN:TASK of the run that made it")
      ->required();
  a->show->add_flag("--json", a->json, "print one JSON object");
  a->clear = cache->add_subcommand(
      "clear",
      "Forget every result and remove the store: the next run with "
      "reuse on runs every task.");
  a->gc = cache->add_subcommand(
      "gc",
      "Remove stored files no result names, then the least recently used "
      "results until the store holds at most the limit.");
  a->gc->add_option("--limit", a->limit,
                    "a size such as 10G or 512M (default: runtime.reuse_limit; "
                    "0 keeps every named file)");
  for (CLI::App* cmd : {a->list, a->show, a->clear, a->gc}) common(cmd);
  return cache;
}

int RunCache(const CacheArgs& a, const ConfigEnv& env, std::ostream& out,
             std::ostream& err) {
  return CacheCommand(a, env, out, err).Run();
}

}  // namespace gs
