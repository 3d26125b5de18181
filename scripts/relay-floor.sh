#!/usr/bin/env bash
# The floor a process in the middle sets on one host (issue 17, "the relay adds <= 1.5x over direct"):
# int round trips direct, through the least forwarder a user could write (scripts/RelayFloor.java: plain
# blocking Sockets, two threads copying bytes), and through socat; then SJ's own paths, direct long polling
# and WebSocket against the relay in a process of its own (RoundTripStalls proc-relay-*). Every middle
# process is a process of its own, as deployed. Unpinned and pinned (all processes on CPU 0).
#
#   ./mvnw -o -q -B -pl sj-bench -am package -DskipTests && scripts/relay-floor.sh [SECONDS] [ROUNDS]
#   scripts/relay-floor.sh --netns [SECONDS] [ROUNDS]   # the middle on a "host" of its own (needs root)
#
# --netns puts the forwarders in a network namespace of their own, joined to this one by a veth pair
# (10.213.0.1 here, 10.213.0.2 there; both removed on exit): client and server talk to the middle across
# the veth, as two hosts would, while the direct path stays on loopback.
# socat is installed with apt-get if missing (idempotent; needs root). Output: ratios to direct, per path.
set -euo pipefail
cd "$(dirname "$0")/.."
NETNS=""
VETH=sjrf$$
if [ "${1:-}" = "--netns" ]; then NETNS=sjrelayfloor$$; shift; fi
SECONDS_PER=${1:-3}
ROUNDS=${2:-4}
J=${J:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
JAR=${JAR:-sj-bench/target/benchmarks.jar}
WORK=$(mktemp -d /tmp/relay-floor.XXXXXX)
PIDS=()
cleanup() {
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
    [ -n "$NETNS" ] && { ip netns del "$NETNS" 2>/dev/null || true; ip link del "${VETH}a" 2>/dev/null || true; }
    rm -rf "$WORK"
}
trap cleanup EXIT

if ! command -v socat >/dev/null; then
    [ "$(id -u)" = 0 ] || { echo "relay-floor: socat is missing and installing it needs root" >&2; exit 1; }
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends socat >/dev/null
fi
"$J" -version 2>&1 | head -1
load() { cut -d' ' -f1-3 /proc/loadavg; }

HERE=127.0.0.1
THERE=127.0.0.1
IN=""
if [ -n "$NETNS" ]; then
    ip netns add "$NETNS"
    ip link add "${VETH}a" type veth peer name "${VETH}b"
    ip link set "${VETH}b" netns "$NETNS"
    ip addr add 10.213.0.1/24 dev "${VETH}a"; ip link set "${VETH}a" up
    ip -n "$NETNS" addr add 10.213.0.2/24 dev "${VETH}b"
    ip -n "$NETNS" link set "${VETH}b" up; ip -n "$NETNS" link set lo up
    HERE=10.213.0.1; THERE=10.213.0.2; IN="ip netns exec $NETNS"
fi

waitfile() { for _ in $(seq 600); do [ -s "$1" ] && { cat "$1"; return; }; sleep 0.1; done; echo "no $1" >&2; exit 1; }

run() { # $1: prefix (taskset or empty), $2: label
    local pre="$1" d="$WORK/$2"
    mkdir -p "$d"
    $pre "$J" scripts/RelayFloor.java server "$HERE" "$d/server" & PIDS+=($!)
    local sp; sp=$(waitfile "$d/server")
    $IN $pre "$J" scripts/RelayFloor.java forward "$THERE" "$d/java" "$HERE" "$sp" & PIDS+=($!)
    local jp; jp=$(waitfile "$d/java")
    local xp=$((20000 + RANDOM % 20000))
    $IN $pre socat "TCP-LISTEN:$xp,bind=$THERE,reuseaddr,fork" "TCP:$HERE:$sp,nodelay" & PIDS+=($!)
    sleep 1 # socat has no ready signal
    echo "== $2: load $(load) at $(date -u +%T)"
    $pre "$J" scripts/RelayFloor.java client "$SECONDS_PER" "$ROUNDS" \
        "direct=$HERE:$sp" "java-fwd=$THERE:$jp" "socat=$THERE:$xp"
    echo "   load after $(load)"
}

run "" unpinned
run "taskset -c 0" pinned
if [ -z "$NETNS" ] && [ -f "$JAR" ]; then
    for pin in unpinned pinned; do
        pre=""; [ $pin = pinned ] && pre="taskset -c 0"
        echo "== SJ $pin (RoundTripStalls: relay in a process of its own): load $(load) at $(date -u +%T)"
        $pre "$J" -cp "$JAR" org.sessionj.bench.RoundTripStalls "$SECONDS_PER" "$ROUNDS" 30 \
            poll proc-relay-poll ws proc-relay-ws 2>&1 | grep -v -i -e warn -e slf4j
        echo "   load after $(load)"
    done
fi
