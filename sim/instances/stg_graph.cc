#include "sim/instances/stg_graph.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <fstream>
#include <sstream>

namespace gs {
namespace {

// More tasks than any STG set holds; guards against allocating for garbage.
constexpr uint64_t kMaxTasks = uint64_t{1} << 24;

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

std::vector<std::string_view> Tokens(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && IsSpace(line[i])) ++i;
    size_t start = i;
    while (i < line.size() && !IsSpace(line[i])) ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

class Parser {
 public:
  explicit Parser(std::string_view source) : source_(source) {}

  StatusOr<StgGraph> Parse(std::string_view text);

 private:
  Status Error(size_t line, const std::string& what) const {
    return Status::InvalidArgument(std::string(source_) + ":" +
                                   std::to_string(line) + ": " + what);
  }
  Status Number(std::string_view token, size_t line, const char* what,
                uint64_t max, uint64_t* out) const;
  Status TaskLine(const std::vector<std::string_view>& tokens, size_t line);
  Status CheckStructure() const;

  std::string_view source_;
  StgGraph graph_;
  uint64_t expected_ = 0;        // n + 2 once the first line is read
  std::vector<size_t> line_of_;  // line of each task, for later errors
};

Status Parser::Number(std::string_view token, size_t line, const char* what,
                      uint64_t max, uint64_t* out) const {
  uint64_t value = 0;
  auto [end, ec] =
      std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec == std::errc::result_out_of_range ||
      (ec == std::errc() && end == token.data() + token.size() &&
       value > max)) {
    return Error(line, std::string(what) + " '" + std::string(token) +
                           "' is too large (at most " + std::to_string(max) +
                           ")");
  }
  if (ec != std::errc() || end != token.data() + token.size()) {
    return Error(line, std::string("expected ") + what +
                           " (a non-negative integer), found '" +
                           std::string(token) + "'");
  }
  *out = value;
  return Status::Ok();
}

Status Parser::TaskLine(const std::vector<std::string_view>& tokens,
                        size_t line) {
  const uint64_t id = graph_.tasks.size();
  if (tokens.size() < 3) {
    return Error(line,
                 "expected 'id processing_time number_of_predecessors "
                 "pred...' for task " +
                     std::to_string(id) + ", found " +
                     std::to_string(tokens.size()) + " field(s)");
  }
  uint64_t got_id = 0, time = 0, count = 0;
  if (Status s = Number(tokens[0], line, "task id", kMaxTasks, &got_id);
      !s.ok()) {
    return s;
  }
  if (got_id != id) {
    return Error(line, "expected task id " + std::to_string(id) +
                           " (ids go 0.." + std::to_string(expected_ - 1) +
                           " in order), found " + std::to_string(got_id));
  }
  if (Status s = Number(tokens[1], line, "processing time", UINT32_MAX, &time);
      !s.ok()) {
    return s;
  }
  if (Status s =
          Number(tokens[2], line, "number of predecessors", kMaxTasks, &count);
      !s.ok()) {
    return s;
  }
  if (tokens.size() - 3 != count) {
    return Error(line, "task " + std::to_string(id) + " declares " +
                           std::to_string(count) +
                           " predecessor(s) but lists " +
                           std::to_string(tokens.size() - 3));
  }
  bool dummy = id == 0 || id == expected_ - 1;
  if (dummy && time != 0) {
    return Error(line, "dummy " + std::string(id == 0 ? "entry" : "exit") +
                           " task " + std::to_string(id) +
                           " must have processing time 0, found " +
                           std::to_string(time));
  }
  if (id == 0 && count != 0) {
    return Error(line, "the dummy entry task 0 must have no predecessors");
  }
  if (id != 0 && count == 0) {
    return Error(line, "task " + std::to_string(id) +
                           " has no predecessor; in STG a task without one "
                           "lists the dummy entry 0");
  }
  StgTask task;
  task.processing_time = static_cast<uint32_t>(time);
  for (size_t i = 3; i < tokens.size(); ++i) {
    uint64_t pred = 0;
    if (Status s = Number(tokens[i], line, "predecessor id", kMaxTasks, &pred);
        !s.ok()) {
      return s;
    }
    if (pred >= expected_) {
      return Error(line, "task " + std::to_string(id) + " names predecessor " +
                             std::to_string(pred) + ", but ids go 0.." +
                             std::to_string(expected_ - 1));
    }
    if (pred == id) {
      return Error(
          line, "task " + std::to_string(id) + " names itself as predecessor");
    }
    if (pred == expected_ - 1) {
      return Error(line, "task " + std::to_string(id) +
                             " names the dummy exit as predecessor");
    }
    if (std::find(task.preds.begin(), task.preds.end(), pred) !=
        task.preds.end()) {
      return Error(line, "task " + std::to_string(id) + " lists predecessor " +
                             std::to_string(pred) + " twice");
    }
    task.preds.push_back(static_cast<uint32_t>(pred));
  }
  graph_.tasks.push_back(std::move(task));
  line_of_.push_back(line);
  return Status::Ok();
}

// Whole-graph rules: every real task feeds something, and no cycle.
Status Parser::CheckStructure() const {
  const size_t n = graph_.tasks.size();
  std::vector<uint32_t> succs(n, 0);
  for (const StgTask& t : graph_.tasks) {
    for (uint32_t p : t.preds) ++succs[p];
  }
  for (size_t id = 0; id + 1 < n; ++id) {
    if (succs[id] == 0) {
      return Error(line_of_[id],
                   "task " + std::to_string(id) +
                       " has no successor; in STG the dummy exit " +
                       std::to_string(n - 1) + " lists every such task");
    }
  }
  // Kahn's algorithm: what is left over lies on or behind a cycle.
  std::vector<uint32_t> missing(n);
  std::vector<std::vector<uint32_t>> out(n);
  for (size_t id = 0; id < n; ++id) {
    missing[id] = static_cast<uint32_t>(graph_.tasks[id].preds.size());
    for (uint32_t p : graph_.tasks[id].preds) out[p].push_back(id);
  }
  std::vector<uint32_t> queue = {0};
  for (size_t i = 0; i < queue.size(); ++i) {
    for (uint32_t s : out[queue[i]]) {
      if (--missing[s] == 0) queue.push_back(s);
    }
  }
  if (queue.size() != n) {
    size_t stuck = 0;
    while (missing[stuck] == 0) ++stuck;
    return Error(line_of_[stuck], "task " + std::to_string(stuck) +
                                      " is on or behind a cycle of "
                                      "predecessors");
  }
  return Status::Ok();
}

StatusOr<StgGraph> Parser::Parse(std::string_view text) {
  size_t line = 0, last_line = 0;
  bool have_count = false;
  while (!text.empty()) {
    size_t eol = text.find('\n');
    std::string_view raw = text.substr(0, eol);
    text = eol == std::string_view::npos ? std::string_view()
                                         : text.substr(eol + 1);
    last_line = ++line;
    std::vector<std::string_view> tokens = Tokens(raw);
    if (tokens.empty()) continue;
    if (tokens[0][0] == '#') {
      size_t hash = raw.find('#');
      std::string_view body = raw.substr(hash + 1);
      while (!body.empty() && IsSpace(body.back())) body.remove_suffix(1);
      graph_.comments.emplace_back(body);
      continue;
    }
    if (!have_count) {
      uint64_t n = 0;
      if (tokens.size() != 1) {
        return Error(line,
                     "expected the number of tasks alone on the first "
                     "line, found " +
                         std::to_string(tokens.size()) + " fields");
      }
      if (Status s = Number(tokens[0], line, "number of tasks", kMaxTasks, &n);
          !s.ok()) {
        return s;
      }
      if (n == 0) return Error(line, "the graph has no task");
      expected_ = n + 2;
      have_count = true;
      continue;
    }
    if (graph_.tasks.size() == expected_) {
      return Error(line, "unexpected content after the " +
                             std::to_string(expected_) +
                             " task lines (comments must start with '#')");
    }
    if (Status s = TaskLine(tokens, line); !s.ok()) return s;
  }
  if (!have_count) {
    return Error(std::max<size_t>(last_line, 1),
                 "no graph: expected the number of tasks on the first line");
  }
  if (graph_.tasks.size() != expected_) {
    return Error(last_line,
                 "the file ends after " + std::to_string(graph_.tasks.size()) +
                     " task lines; expected " + std::to_string(expected_) +
                     " (the tasks plus dummy entry and exit)");
  }
  if (Status s = CheckStructure(); !s.ok()) return s;
  return std::move(graph_);
}

// Ids in an order where predecessors come first (the graph is acyclic).
std::vector<uint32_t> TopologicalOrder(const StgGraph& graph) {
  const size_t n = graph.tasks.size();
  std::vector<std::vector<uint32_t>> succ = StgSuccessors(graph);
  std::vector<uint32_t> missing(n);
  std::vector<uint32_t> order;
  for (size_t id = 0; id < n; ++id) {
    missing[id] = static_cast<uint32_t>(graph.tasks[id].preds.size());
    if (missing[id] == 0) order.push_back(static_cast<uint32_t>(id));
  }
  for (size_t i = 0; i < order.size(); ++i) {
    for (uint32_t s : succ[order[i]]) {
      if (--missing[s] == 0) order.push_back(s);
    }
  }
  return order;
}

}  // namespace

StatusOr<StgGraph> ParseStg(std::string_view text, std::string_view source) {
  return Parser(source).Parse(text);
}

StatusOr<StgGraph> LoadStgFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::FromErrno("open STG file " + path, errno);
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return Status::FromErrno("read STG file " + path, errno);
  return ParseStg(text.str(), path);
}

std::vector<std::vector<uint32_t>> StgSuccessors(const StgGraph& graph) {
  std::vector<std::vector<uint32_t>> succ(graph.tasks.size());
  for (size_t id = 0; id < graph.tasks.size(); ++id) {
    for (uint32_t p : graph.tasks[id].preds) {
      succ[p].push_back(static_cast<uint32_t>(id));
    }
  }
  return succ;
}

std::vector<uint32_t> StgLevels(const StgGraph& graph) {
  std::vector<uint32_t> level(graph.tasks.size(), 0);
  for (uint32_t id : TopologicalOrder(graph)) {
    for (uint32_t p : graph.tasks[id].preds) {
      level[id] = std::max(level[id], level[p] + 1);
    }
  }
  return level;
}

uint64_t StgCriticalPathLength(const StgGraph& graph) {
  // finish[id]: longest sum of processing times of a path ending with id.
  std::vector<uint64_t> finish(graph.tasks.size(), 0);
  uint64_t longest = 0;
  for (uint32_t id : TopologicalOrder(graph)) {
    uint64_t start = 0;
    for (uint32_t p : graph.tasks[id].preds) start = std::max(start, finish[p]);
    finish[id] = start + graph.tasks[id].processing_time;
    longest = std::max(longest, finish[id]);
  }
  return longest;
}

}  // namespace gs
