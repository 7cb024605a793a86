#include "runtime/engine/start_progress.h"

#include <algorithm>
#include <cstdio>

namespace gs {

size_t StartProgress::Begin(std::string name, std::string kind, Seconds now) {
  Host h;
  h.name = std::move(name);
  h.kind = std::move(kind);
  h.begun = h.active = now;
  hosts_.push_back(std::move(h));
  return hosts_.size() - 1;
}

std::string StartProgress::PhaseLine(const Host& h) const {
  std::string what;
  switch (h.phase) {
    case StartPhase::kConnecting:
      what = "connecting (" + h.kind + ")";
      break;
    case StartPhase::kChecking:
      what = "checking gsrt-agent and the worker there";
      break;
    case StartPhase::kInstalling:
      what = "installing gsrt-agent and the worker (missing or changed)";
      break;
    case StartPhase::kStarting:
      what = "starting the agent";
      break;
  }
  return "gsrt: host " + h.name + ": " + what + "...\n";
}

std::vector<std::string> StartProgress::Phase(size_t host, StartPhase phase) {
  Host& h = hosts_.at(host);
  if (h.phase == phase || h.ended) return {};
  h.phase = phase;
  if (!h.announced || h.paused) return {};
  return {PhaseLine(h)};
}

void StartProgress::Pause(size_t host) { hosts_.at(host).paused = true; }

void StartProgress::Resume(size_t host, Seconds now) {
  Host& h = hosts_.at(host);
  if (!h.paused) return;
  h.paused = false;
  h.active = now;
}

std::vector<std::string> StartProgress::End(size_t host, bool ok, Seconds now) {
  Host& h = hosts_.at(host);
  if (h.ended) return {};
  h.ended = true;
  if (!h.announced && !(now - h.active > quiet_for_)) return {};
  char took[32];
  std::snprintf(took, sizeof(took), "%.1f s", now - h.begun);
  if (ok) return {"gsrt: host " + h.name + " ready after " + took + "\n"};
  return {"gsrt: host " + h.name + " not usable after " + took +
          " (why: below)\n"};
}

std::vector<std::string> StartProgress::Tick(Seconds now) {
  std::vector<std::string> lines;
  for (Host& h : hosts_) {
    if (h.ended || h.paused || h.announced) continue;
    if (now - h.active < quiet_for_) continue;
    h.announced = true;
    lines.push_back(PhaseLine(h));
  }
  return lines;
}

Seconds StartProgress::NextDue() const {
  Seconds due = std::numeric_limits<Seconds>::infinity();
  for (const Host& h : hosts_) {
    if (h.ended || h.paused || h.announced) continue;
    due = std::min(due, h.active + quiet_for_);
  }
  return due;
}

}  // namespace gs
