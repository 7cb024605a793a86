# Sourced by tests that run a gsrt host on the local Slurm: its batch jobs
# are named gsrt-HOST-..., so a test cancels only the ones of its own host.
#   cancel_host_jobs HOST   scancel every queued or running job of HOST
cancel_host_jobs() {
  [ -n "${SLURM_CONF:-}" ] || return 0
  local names
  names=$(squeue -h -o '%j' 2>/dev/null | grep "^gsrt-$1-" | tr '\n' ',' || true)
  [ -z "$names" ] || scancel --quiet --name="$names" 2>/dev/null || true
}
