#!/usr/bin/env bash
# The network half of bin/cluster-lab (and of the tests that run cluster members as hosts of their own): Linux network
# namespaces, one per cluster member (PREFIX-m0, PREFIX-m1, ...) and one for the gateway host (PREFIX-g0), joined by a
# bridge device in this (the root) namespace, as hosts on one switch. Nothing else is touched: no default route, no
# forwarding, addresses only in 10.NET.0/24 and 10.NET+1.0/30, which this script creates and removes.
#
#   lab-net.sh up PREFIX NET MEMBERS    namespaces, bridge, addresses; fails (exit 2) with the reason when it cannot
#   lab-net.sh down PREFIX              removes every namespace and link named PREFIX-* (and so their addresses)
#   lab-net.sh isolate PREFIX NAME      cuts NAME's port on the bridge: NAME (m0, m1, ..., g0) reaches no other host
#   lab-net.sh heal PREFIX              every port on the bridge up again
#   lab-net.sh pids PREFIX NAME         the pids of every process in NAME's namespace
#   lab-net.sh address NET NAME         NAME's address on the bridge (the root namespace is .1); client: the
#                                       gateway host's address on its own link from the root namespace
#
# Addresses, for NET=239: the root namespace 10.239.0.1, member i 10.239.0.(10+i), the gateway host 10.239.0.100; a
# second link, root 10.240.0.1 <-> gateway host 10.240.0.2, carries clients to the gateway's FIX port, so that cutting
# the gateway host off the members (isolate g0) leaves its clients connected, as on a host with a client-facing and a
# cluster-facing network. A cut is made at the bridge's end of the link (the switch port): the namespace's own interface
# stays up with its address and route, so what it sends is lost on the wire rather than refused by its kernel.
set -euo pipefail

die() {
  echo "lab-net: $*" >&2
  exit 2
}

address() {
  local net="$1" name="$2"
  case "$name" in
    root) echo "10.$net.0.1" ;;
    g0) echo "10.$net.0.100" ;;
    client) echo "10.$((net + 1)).0.2" ;;
    m[0-9]) echo "10.$net.0.$((10 + ${name#m}))" ;;
    *) die "no host named '$name' (m0..m9, g0, client, root)" ;;
  esac
}

can_make_namespaces() {
  [ "$(id -u)" = 0 ] || die "network namespaces need root (ip netns add); run as root, or use the loopback layout"
  command -v ip >/dev/null 2>&1 || die "the 'ip' command (Debian's iproute2) is not installed"
}

down() {
  local prefix="$1" ns link
  for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep "^$prefix-" || true); do
    # Processes left in a namespace keep nothing of it alive once it is deleted, but they would keep running: end them.
    ip netns pids "$ns" 2>/dev/null | xargs -r kill -9 2>/dev/null || true
    ip netns del "$ns" 2>/dev/null || true
  done
  for link in $(ip -o link show 2>/dev/null | sed -n "s/^[0-9]*: \($prefix-[^:@]*\).*/\1/p"); do
    ip link del "$link" 2>/dev/null || true
  done
}

# A namespace NS joined to the bridge BR by a veth pair: PREFIX-NAME in the root namespace (the switch port), eth0 inside.
attach() {
  local prefix="$1" name="$2" addr="$3" ns="$1-$2"
  ip netns add "$ns"
  ip -n "$ns" link set lo up
  ip link add "$prefix-$name" type veth peer name eth0 netns "$ns"
  ip link set "$prefix-$name" master "$prefix-br" up
  ip -n "$ns" addr add "$addr/24" dev eth0
  ip -n "$ns" link set eth0 up
}

up() {
  local prefix="$1" net="$2" members="$3" i
  can_make_namespaces
  [[ "$members" =~ ^[1-9]$ ]] || die "members must be 1..9, not '$members'"
  [[ "$net" =~ ^[0-9]+$ ]] && [ "$net" -ge 1 ] && [ "$net" -le 253 ] || die "NET must be 1..253, not '$net'"
  [ -z "$(ip netns list 2>/dev/null | awk '{print $1}' | grep "^$prefix-" || true)" ] \
    || die "namespaces $prefix-* exist already (a lab is up: take it down first)"
  trap 'down "$prefix"' ERR
  ip link add "$prefix-br" type bridge
  ip addr add "$(address "$net" root)/24" dev "$prefix-br"
  ip link set "$prefix-br" up
  for ((i = 0; i < members; i++)); do
    attach "$prefix" "m$i" "$(address "$net" "m$i")"
  done
  attach "$prefix" g0 "$(address "$net" g0)"
  # The clients' link: root <-> gateway host, a network of its own.
  ip link add "$prefix-g0c" type veth peer name cli0 netns "$prefix-g0"
  ip addr add "10.$((net + 1)).0.1/30" dev "$prefix-g0c"
  ip link set "$prefix-g0c" up
  ip -n "$prefix-g0" addr add "$(address "$net" client)/30" dev cli0
  ip -n "$prefix-g0" link set cli0 up
  trap - ERR
}

case "${1:-}" in
  up) [ $# -eq 4 ] || die "usage: lab-net.sh up PREFIX NET MEMBERS"; up "$2" "$3" "$4" ;;
  down) [ $# -eq 2 ] || die "usage: lab-net.sh down PREFIX"; down "$2" ;;
  isolate)
    [ $# -eq 3 ] || die "usage: lab-net.sh isolate PREFIX NAME"
    ip link show "$2-$3" >/dev/null 2>&1 || die "no host '$3' in this lab (m0..m9, g0)"
    ip link set "$2-$3" down ;;
  heal)
    [ $# -eq 2 ] || die "usage: lab-net.sh heal PREFIX"
    for link in $(ip -o link show master "$2-br" 2>/dev/null | sed -n "s/^[0-9]*: \([^:@]*\).*/\1/p"); do
      ip link set "$link" up
    done ;;
  pids) [ $# -eq 3 ] || die "usage: lab-net.sh pids PREFIX NAME"; ip netns pids "$2-$3" 2>/dev/null || true ;;
  address) [ $# -eq 3 ] || die "usage: lab-net.sh address NET NAME"; address "$2" "$3" ;;
  *) die "usage: lab-net.sh up|down|isolate|heal|pids|address ... (see the comment at its top)" ;;
esac
