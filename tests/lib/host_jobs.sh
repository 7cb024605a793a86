# Sourced by tests that run a gsrt host on the local Slurm: its batch jobs
# are named gsrt-HOST-..., so a test cancels only the ones of its own host.
#   cancel_host_jobs HOST   scancel every queued or running job of HOST
#   write_batch_config FILE HOST ADAPTER MODE [EXTRA_LINE]
#                           a gsrt.yaml with one 6-slot batch host on the
#                           shared file system (heartbeat 1 s)
#   wait_for SECONDS COMMAND...
#                           until COMMAND succeeds, while the master ($pid)
#                           runs; fails after SECONDS or if it ended
cancel_host_jobs() {
  [ -n "${SLURM_CONF:-}" ] || return 0
  local names
  names=$(squeue -h -o '%j' 2>/dev/null | grep "^gsrt-$1-" | tr '\n' ',' || true)
  [ -z "$names" ] || scancel --quiet --name="$names" 2>/dev/null || true
}

write_batch_config() {
  cat > "$1" <<YAML
runtime:
  heartbeat: 1
hosts:
  - name: $2
    adapter: $3
    mode: $4
    slots: 6
    shared_fs: true
${5:-}
YAML
}

wait_for() {
  local deadline=$((SECONDS + $1)); shift
  until "$@"; do
    ((SECONDS < deadline)) || return 1
    kill -0 "$pid" 2>/dev/null || return 1
    sleep 0.05
  done
}
