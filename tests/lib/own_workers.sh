# Sourced by tests that look for their own worker processes. Other tests run
# the same worker binary at the same time, so a worker belongs to this test
# when its working directory is the test's work directory (a fork server
# keeps the master's) or under it.
#   own_workers WORKER_BINARY WORK_DIR        the pids, one per line
#   kill_own_workers WORKER_BINARY WORK_DIR   SIGKILL to each
own_workers() {
  local p
  for p in $(pgrep -f -- "$1 (run|serve|fork-server)" || true); do
    case "$(readlink "/proc/$p/cwd" 2>/dev/null)" in "$2" | "$2"/*) echo "$p" ;; esac
  done
}
kill_own_workers() {
  local p
  for p in $(own_workers "$1" "$2"); do kill -KILL "$p" 2>/dev/null || true; done
}
