#!/usr/bin/env bash
# Many idle in-JVM sessions in one JVM and the heap each costs (issue 15, docs/benchmarks.md "Idle in-JVM
# sessions"). Needs sj-bench/target/benchmarks.jar (./mvnw -q -pl sj-bench -am package -DskipTests) and a
# JDK 21+ (JAVA=/path/to/java to choose it). The heap is capped (HEAP, default 2g): if the sessions do not
# fit, the run ends with an OutOfMemoryError.
# Usage: scripts/idle-sessions.sh [sessions] [options...]   e.g. scripts/idle-sessions.sh 1000000 warm=20000
#   options: warm=N (run N sessions to their end first, so the session code is compiled), message (each
#   requester sends an int before it waits), histogram (the heap's largest classes), stack (a parked stack),
#   bound=B (exit status 1 if the sessions retain more than B bytes each)
# Regression check in a minute (the million's budget, 2 GiB / 1,000,000 less the runtime's own, per session):
#   scripts/idle-sessions.sh 100000 message warm=20000 bound=2100
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JAVA="${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}"
JAR="$ROOT/sj-bench/target/benchmarks.jar"
HEAP="${HEAP:-2g}"
SESSIONS="${1:-1000000}"
shift || true

[ -f "$JAR" ] || { echo "idle-sessions: build $JAR first" >&2; exit 1; }
echo "# load $(cut -d' ' -f1-3 /proc/loadavg), $("$JAVA" -version 2>&1 | head -1), -Xmx$HEAP"
"$JAVA" -Xmx"$HEAP" -Dsessionj.missingDescriptor=ignore --enable-native-access=ALL-UNNAMED \
    --sun-misc-unsafe-memory-access=allow -cp "$JAR" org.sessionj.bench.IdleSessions "$SESSIONS" "$@" 2>&1 \
    | grep -v -e '^WARNING' -e 'TransportChoiceLog' -e '^INFO'
echo "# load $(cut -d' ' -f1-3 /proc/loadavg)"
