# bin/demo --cluster: three cluster members, a gateway host with its bridge, the monitor and the load
# generator; kills the leader with kill -9 mid-run, prints the time to a new leader, restarts the killed
# member, and ends with bin/journal-summary and bin/audit verify on every member and on the gateway host.
# Two layouts: as root, each member and the gateway host on a host of its own (bin/cluster-lab: network
# namespaces, members talking over their own addresses); otherwise every process on this host's loopback.
# Sourced by bin/demo (after common.sh), which has parsed: rate duration sessions data idle keep.

engine_config="$CHRONEX_ROOT/config/engine.yaml"
bin="$CHRONEX_ROOT/bin"
[ -n "$data" ] || data="$CHRONEX_ROOT/data/demo-cluster-$(date +%Y%m%d-%H%M%S)"
[ -e "$data" ] && chronex_die "$data already exists; the demo wants a fresh directory"
out=$(mktemp -d /tmp/chronex-demo.XXXXXX)
gateway_pid=""; monitor_pid=""

if [ "$(id -u)" = 0 ] && command -v ip >/dev/null 2>&1 && [ ! -f /run/chronex-cluster-lab ]; then
  layout=namespaces
else
  layout=loopback
fi

if [ "$layout" = namespaces ]; then
  # bin/cluster-lab: m0..m2 and g0 in network namespaces of their own; the lab writes DIR/cluster.yaml and funds the accounts.
  member_dir() { echo "$data/m$1"; }
  host_dir="$data/g0"
  engine_config_used="$data/engine.yaml"
  start_node() { "$bin/cluster-lab" start "m$1" > /dev/null; }
  kill_node() { "$bin/cluster-lab" kill "m$1" > /dev/null; }
  stop_all() {
    [ -n "$monitor_pid" ] && kill -TERM "$monitor_pid" 2>/dev/null && wait "$monitor_pid" 2>/dev/null || true
    monitor_pid=""
    "$bin/cluster-lab" down > /dev/null 2>&1 || true
  }
else
  cluster_file="$CHRONEX_ROOT/config/cluster.yaml"
  member_dir() { echo "$data/node-$1"; }
  host_dir="$data/host"
  engine_config_used="$engine_config"
  node_pids=("" "" "")
  start_node() {
    "$bin/cluster-node" --id "$1" --cluster "$cluster_file" --config "$engine_config" --data-dir "$data/node-$1" \
      --idle "$idle" --checkpoint-every 10000 >> "$out/node-$1.out" 2>&1 &
    node_pids[$1]=$!
  }
  kill_node() { kill -9 "${node_pids[$1]}"; wait "${node_pids[$1]}" 2>/dev/null || true; node_pids[$1]=""; }
  stop_all() {
    [ -n "$monitor_pid" ] && kill -TERM "$monitor_pid" 2>/dev/null && wait "$monitor_pid" 2>/dev/null || true
    [ -n "$gateway_pid" ] && kill -TERM "$gateway_pid" 2>/dev/null && wait "$gateway_pid" 2>/dev/null || true
    if [ -f "$data/host/bridge.pid" ]; then kill -TERM "$(cat "$data/host/bridge.pid")" 2>/dev/null || true; fi
    for i in 0 1 2; do
      [ -n "${node_pids[$i]}" ] && kill -TERM "${node_pids[$i]}" 2>/dev/null && wait "${node_pids[$i]}" 2>/dev/null || true
      node_pids[$i]=""
    done
    for _ in $(seq 1 100); do [ -f "$data/host/bridge.pid" ] || break; sleep 0.1; done
    monitor_pid=""; gateway_pid=""
  }
fi
trap 'stop_all; rm -rf "$out"' EXIT
trap 'exit 143' TERM INT

# The member whose log last said "role: LEADER" (each member logs its role changes with a UTC time).
leader_now() {
  local i ts best="" who=""
  for i in 0 1 2; do
    ts=$(grep "role: LEADER" "$(member_dir "$i")/engine.log" 2>/dev/null | tail -1 | cut -d' ' -f1)
    [ -n "$ts" ] && [[ -z "$best" || "$ts" > "$best" ]] && best=$ts && who=$i
  done
  echo "$who"
}

if [ "$layout" = namespaces ]; then
  echo "== cluster on hosts of their own (bin/cluster-lab: each member and the gateway host in a network namespace, data in $data)"
  "$bin/cluster-lab" up --dir "$data" --idle "$idle" > "$out/lab.out" 2>&1 || { cat "$out/lab.out" >&2; chronex_die "bin/cluster-lab up failed"; }
  chronex_quiet < "$out/lab.out" | sed 's/^/  /'
  fix_host=$(sed -n 's/^RESULT fix_host=\([^ ]*\) .*/\1/p' "$out/lab.out")
  port=$(sed -n 's/^RESULT .* fix_port=\([0-9]*\) .*/\1/p' "$out/lab.out")
  echo "== member $(leader_now) is the leader; members on 10.239.0.10-12, the gateway host's FIX port on $fix_host:$port"
else
  echo "== cluster on this host's loopback (not root, or a bin/cluster-lab is up: no network namespaces); config/cluster.yaml, data in $data/node-0..2; gateway host $data/host"
  mkdir -p "$data"
  for i in 0 1 2; do start_node "$i"; done
  for _ in $(seq 1 600); do [ -n "$(leader_now)" ] && break; sleep 0.1; done
  leader=$(leader_now)
  [ -n "$leader" ] || { tail -n 20 "$out"/node-*.out >&2; chronex_die "the members elected no leader within 60 s"; }
  echo "== member $leader is the leader (pids ${node_pids[*]})"
  "$bin/gateway" --cluster "$cluster_file" --data-dir "$data/host" --config "$CHRONEX_ROOT/config/gateway.yaml" --port 0 \
    --idle "$idle" > "$out/gateway.out" 2>&1 &
  gateway_pid=$!
  chronex_wait_for "$out/gateway.out" "listening on" "the gateway"
  port=$(chronex_listening_port "$out/gateway.out")
  fix_host=127.0.0.1
  # The gateway serves at once (orders wait in the host's journal); the load waits until the bridge forwards them.
  chronex_wait_for "$data/host/bridge.log" "forwarding after" "the bridge's link to the cluster"
  echo "== gateway pid $gateway_pid on 127.0.0.1:$port, bridge pid $(cat "$data/host/bridge.pid") forwarding to leader $(leader_now)"
  # FUNDS is on in config/engine.yaml: the accounts are funded through the cluster (the host's journal, the bridge) first.
  chronex_fund "$data/host" --config "$engine_config" --timeout 30s
  echo "== funded accounts 1-4 and 101-108 through the cluster: $CHRONEX_FUNDED deposits accepted (config/demo-funding.admin)"
fi
"$bin/monitor" --data-dir "$host_dir" --config "$engine_config_used" --http 127.0.0.1:0 > "$out/monitor.out" 2>&1 &
monitor_pid=$!
chronex_wait_for "$out/monitor.out" "serving http://" "the monitor"
echo "== monitor of the gateway host: $(sed -n 's/.*serving \(http:[^ ]*\) .*/\1/p' "$out/monitor.out" | head -1)"

symbols="ACME=100.00,GLOBEX=25.00"
# Five JVMs start cold on this host; under load at once their JIT warm-up builds a backlog of seconds that a
# 2-core box does not drain while the load goes on. A ping-pong first warms every hop.
echo "== warm-up: 3,000 requests ping-pong through the cluster"
"$bin/loadgen" --host "$fix_host" --port "$port" --sessions 1 --mode pingpong --count 3000 --warmup 300 --symbols "$symbols" \
  --quiet 2>&1 | chronex_quiet | grep '^RESULT' | sed 's/^/  /'
echo "== load: $sessions FIX sessions, $rate requests/s for $duration s; the leader is killed (kill -9) half way"
"$bin/loadgen" --host "$fix_host" --port "$port" --sessions "$sessions" --rate "$rate" --duration "$duration" \
  --symbols "$symbols" --warmup "$rate" --quiet > "$out/loadgen.out" 2>&1 &
loadgen_pid=$!
sleep "$(( duration / 2 ))"
killed=$(leader_now)
killed_at=$(date +%s.%N)
kill_node "$killed"
echo "== kill -9 of the leader, member $killed, at $(date -u -d "@$killed_at" +%H:%M:%S.%3N)"
new_leader=""
for _ in $(seq 1 600); do
  new_leader=$(leader_now)
  [ -n "$new_leader" ] && [ "$new_leader" != "$killed" ] && break
  sleep 0.05
done
[ "$new_leader" != "$killed" ] || chronex_die "no new leader within 30 s of the kill"
elected_at=$(grep -h "role: LEADER" "$(member_dir "$new_leader")/engine.log" | tail -1 | cut -d' ' -f1)
awk -v a="$killed_at" -v b="$(date -d "$elected_at" +%s.%N)" -v m="$new_leader" \
  'BEGIN { printf "== member %s is the new leader, %.2f s after the kill (its log'"'"'s time of the role change)\n", m, b - a }'
wait "$loadgen_pid" || true
chronex_quiet < "$out/loadgen.out" | sed 's/^/  /'

echo "== restarting member $killed: it replays its log and catches up with the leader"
start_node "$killed"
count() { "$bin/journal-summary" --data-dir "$1" 2>/dev/null | sed -n 's/^RESULT commands=\([0-9]*\) .*/\1/p'; }
target=$(count "$(member_dir "$new_leader")")
for _ in $(seq 1 600); do [ "$(count "$(member_dir "$killed")")" = "$target" ] && break; sleep 0.2; done
echo "== member $killed caught up: $(count "$(member_dir "$killed")") of $target commands"

if [ "$keep" = 1 ]; then
  trap 'rm -rf "$out"' EXIT
  if [ "$layout" = namespaces ]; then
    echo "== left running: the lab (bin/cluster-lab status | isolate | heal | kill | start | check; bin/cluster-lab down stops it), monitor $monitor_pid"
  else
    echo "== left running: members ${node_pids[*]}, gateway $gateway_pid (port $port), bridge $(cat "$data/host/bridge.pid"), monitor $monitor_pid"
  fi
  exit 0
fi
status=0
if [ "$layout" = namespaces ]; then
  echo "== the members' journals compared and checked (bin/cluster-lab check)"
  "$bin/cluster-lab" check 2>&1 | grep -E '^(RESULT|journal-compare: .*first difference)' | sed 's/^/  /' || status=1
fi
stop_all
for i in 0 1 2 host; do
  if [ "$i" = host ]; then dir=$host_dir; else dir=$(member_dir "$i"); fi
  echo "== $(basename "$dir"): exactly once (bin/journal-summary) and every result re-executed (bin/audit verify)"
  "$bin/journal-summary" --data-dir "$dir" 2>&1 | chronex_quiet | grep '^RESULT' | sed 's/^/  /'
  if ! "$bin/audit" verify --data-dir "$dir" --config "$engine_config_used" 2>&1 | chronex_quiet | grep '^RESULT' | sed 's/^/  /'; then
    status=1
  fi
done
[ "$status" = 0 ] || chronex_die "a check above failed"
if [ "$layout" = namespaces ]; then
  echo "== layout: hosts of their own (network namespaces). Journals: $data/m0..m2 (each member's own), $data/g0 (the gateway host's)"
else
  echo "== layout: loopback. Journals: $data/node-N (each member's own commands and events), $data/host (the gateway host's); Aeron's files in $data/node-N/cluster"
fi
