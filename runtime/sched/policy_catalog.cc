#include "runtime/sched/policy_catalog.h"

namespace gs {

namespace {

std::vector<PolicyInfo> Build() {
  std::vector<PolicyInfo> all = {
      {"mct",
       "minimum completion time: each task to the host where it ends "
       "first (paper 003; the default)"},
      {"met",
       "minimum execution time: the fastest host, whatever its backlog "
       "(paper 003)"},
      {"min-min",
       "batch: of the ready tasks, the one ending first goes first, "
       "to its best host (Braun et al. 2001)"},
      {"sufferage",
       "batch: of the ready tasks, the one that would lose most "
       "on its second-best host goes first (Maheswaran et al. "
       "1999)"},
      {"min-min-ls",
       "batch: Min-Min, then a bounded local search (moves and "
       "swaps off the host that ends last); the plan is kept "
       "while it holds"},
      {"sufferage-ls",
       "batch: Sufferage, then the same bounded local "
       "search"},
      {"ftmct", "MCT skipping hosts that miss their heartbeat (paper 003)"},
      {"ftmet", "MET skipping hosts that miss their heartbeat (paper 003)"},
      {"grank",
       "hosts ranked by availability, distrust and predicted time "
       "from the history (paper 004)"},
      {"gtp",
       "DAGs: the whole unfinished graph mapped by earliest finish time "
       "at each rescheduling point (every 10 % of the planned makespan), "
       "ready tasks sent as planned (paper 000)"},
      {"wqr",
       "work queue with replication of running tasks on idle slots "
       "(paper 001)"},
      {"wqr-ft",
       "WQR restarting a task whose every replica failed "
       "(paper 001)"},
      {"wqdr-ft",
       "WQR-FT with RLTH = 1 + 1/SR instances per task (SR: successful "
       "over submitted jobs), best success rate first (paper 001)"},
  };
  struct Passive {
    const char* name;
    const char* what;
  };
  const Passive passive[] = {
      {"ip", "the probability of success P"},
      {"ie", "the expected duration E (lowest)"},
      {"iy", "the yield P / (E + t)"},
      {"iay", "the apparent yield P / E"},
  };
  for (const Passive& p : passive) {
    all.push_back({p.name, std::string("volatile hosts: each task to the UP "
                                       "host that maximises ") +
                               p.what + " (paper 002)"});
  }
  const Passive criteria[] = {{"p", "P"}, {"e", "E"}, {"y", "yield"}};
  for (const Passive& c : criteria) {
    for (const Passive& p : passive) {
      all.push_back({std::string(c.name) + "-" + p.name,
                     std::string("proactive ") + p.name +
                         ": moves running tasks when a new configuration "
                         "has a better " +
                         c.what + " (paper 002)"});
    }
  }
  return all;
}

}  // namespace

const std::vector<PolicyInfo>& PolicyCatalog() {
  static const std::vector<PolicyInfo> kAll = Build();
  return kAll;
}

}  // namespace gs
