# Sourced by the testbed scripts. free_port [EXCLUDE]: prints a port below
# the kernel's ephemeral range that no local socket uses (listening or
# connected, IPv4 or IPv6) and that is not EXCLUDE; the caller finds out
# whether it stays free when its server binds it.
free_port() {
  local low _ addr port
  local -A used=()
  read -r low _ </proc/sys/net/ipv4/ip_local_port_range
  ((low > 11000)) || low=61000
  while read -r _ addr _; do
    [[ $addr == *:* ]] && used[$((16#${addr##*:}))]=1
  done < <(cat /proc/net/tcp /proc/net/tcp6 2>/dev/null)
  while :; do
    port=$((10000 + (RANDOM * 32768 + RANDOM) % (low - 10000)))
    [[ -z ${used[$port]:-} && $port != "${1:-}" ]] && break
  done
  echo "$port"
}
