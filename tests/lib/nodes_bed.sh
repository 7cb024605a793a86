# Sourced by the tests on the many-node Slurm bed (tests/testbed/
# slurm_nodes.sh, 3 nodes); they set $nodes_dir (the bed's directory).
#   nodes_bed_up          start the bed if it is down, take its environment
#                         (SLURM_CONF, GSRT_SLURM_NODES_GATEWAY)
#   nodes_bed_kill NODE   kill NODE's slurmd and every process in it
#   nodes_bed_restart     start it again after a kill (for the tests after),
#                         quietly: for a cleanup
nodes_bed_script="$(dirname "${BASH_SOURCE[0]}")/../testbed/slurm_nodes.sh"

nodes_bed_up() {
  bash "$nodes_bed_script" start "$nodes_dir" 3 > /dev/null
  # shellcheck source=/dev/null
  source "$nodes_dir/slurm.env"
}

nodes_bed_kill() {
  bash "$nodes_bed_script" kill "$nodes_dir" "$1" > /dev/null
}

nodes_bed_restart() {
  bash "$nodes_bed_script" start "$nodes_dir" 3 > /dev/null 2>&1 || true
}
