#!/usr/bin/env bash
# The accept-load test of docs/reliability.md (issue 13's goals): a TCP server in one JVM
# (AcceptLoadServer), a client JVM that starts SESSIONS sessions at once, then opens IDLE silent raw
# connections and times PROBES sessions of a legitimate client next to them. Not a JMH benchmark:
# one run, figures printed as "LOAD key value" lines (also in target/accept-load/figures.txt).
#
#   scripts/accept-load.sh [SESSIONS] [IDLE] [PROBES]     default 10000 1000 1000
#
# The goal is judged at steady state, as JMH judges after its warm-up: the client runs 3 warm-up
# rounds of SESSIONS concurrent sessions (reported, not judged: the server's JIT still compiles what
# only concurrency reaches), then 3 measured rounds; "LOAD judged.sessionsPerSecond" is the measured
# rounds' rate, "LOAD judged.failed" counts the failures of every round. CLIENT_OPTS=-Dload.warmUpRounds=N
# / -Dload.rounds=N change the counts. The probe's percentiles are nearest-rank over PROBES sessions
# one after another (p99 of 50 would be their maximum).
#
# Builds sj-bench (benchmarks.jar) first unless SKIP_BUILD=1. Runs the server pinned to CPU 0 and
# the client to CPU 1 when PIN=1 (taskset). MODE=netty runs the same exchange on plain Netty (the
# floor: what any Netty server and client spend per connection here). SERVER_OPTS / CLIENT_OPTS add
# JVM options (e.g. -XX:StartFlightRecording=filename=server.jfr,settings=profile).
#
# AOT=1 (JDK 25+) starts the server with an AOT cache (-XX:AOTCache; JEP 483/514/515: its classes
# loaded and linked, and the profiles of its hot methods, so the JIT compiles them sooner), recorded
# first by a training run of the same test (-XX:AOTCacheOutput; 2 rounds, no idle connections) into
# target/accept-load/server.aot unless that file exists (AOT=FILE: another file). The same two steps
# serve any SJ server: docs/reliability.md, "Accept load".
set -euo pipefail
cd "$(dirname "$0")/.."
sessions=${1:-10000}
idle=${2:-1000}
probes=${3:-1000}
java=${JAVA:-$(ls -d /usr/lib/jvm/temurin-25*/bin/java 2>/dev/null | head -1)}
java=${java:-java}
if [ "${SKIP_BUILD:-0}" != 1 ]; then
    ./mvnw -q -B -pl sj-bench -am package -DskipTests
fi
mkdir -p target/accept-load
echo "LOAD uptimeBefore $(uptime)"
server_pin=() client_pin=()
if [ "${PIN:-0}" = 1 ]; then server_pin=(taskset -c 0) client_pin=(taskset -c 1); fi
ulimit -n 65536 2>/dev/null || true
mode=${MODE:-sj}
cp=${CP:-sj-bench/target/benchmarks.jar}
if [ -n "${AOT:-}" ] && [ "${AOT}" != 0 ]; then
    cache=$([ "$AOT" = 1 ] && echo target/accept-load/server.aot || echo "$AOT")
    if [ ! -s "$cache" ]; then
        echo "recording the server's AOT cache in $cache (a training run) ..."
        AOT=0 SKIP_BUILD=1 SERVER_OPTS="${SERVER_OPTS:-} -XX:AOTCacheOutput=$cache" \
            CLIENT_OPTS="-Dload.warmUpRounds=0 -Dload.rounds=2" "$0" "$sessions" 0 0 >"$cache.log" 2>&1
        [ -s "$cache" ] || { echo "no AOT cache recorded (log: $cache.log)" >&2; exit 1; }
    fi
    SERVER_OPTS="${SERVER_OPTS:-} -XX:AOTCache=$cache"
    echo "LOAD server.aotCache $cache"
fi
# shellcheck disable=SC2086 # the options are words
coproc SERVER { "${server_pin[@]}" "$java" ${SERVER_OPTS:-} -cp "$cp" org.sessionj.bench.load.AcceptLoadServer "$mode"; }
line=
while [[ $line != PORT* ]]; do read -r line <&"${SERVER[0]}"; done # past any JVM log lines
port=${line#PORT }
# The JVM's own pid (the coproc may be a shell around it), for the CPU figures.
server_jvm=$(pgrep -P "$SERVER_PID" java || echo "$SERVER_PID")
echo "server on port $port (pid $server_jvm)"
"${client_pin[@]}" "$java" ${CLIENT_OPTS:-} -cp "$cp" org.sessionj.bench.load.AcceptLoadClient \
    "$port" "$sessions" "$idle" "$probes" "$server_jvm" "$mode" | tee target/accept-load/figures.txt
echo "LOAD loadAverage $(cut -d' ' -f1-3 /proc/loadavg) (uptime before: see the first line)" | tee -a target/accept-load/figures.txt
echo >&"${SERVER[1]}"
refused=
while [[ $refused != REFUSED* ]]; do read -r refused <&"${SERVER[0]}"; done
echo "LOAD server.failedHandshakes ${refused#REFUSED }" | tee -a target/accept-load/figures.txt
exec {SERVER[1]}>&-
wait "$SERVER_PID" || true
