#!/usr/bin/env bash
# The first session of a fresh JVM, without and with a JDK 25 AOT cache (issue 15, docs/benchmarks.md
# "Cold start"). Needs sj-bench/target/benchmarks.jar (./mvnw -q -pl sj-bench -am package -DskipTests)
# and a JDK 25 (JAVA=/path/to/java to choose it).
# Usage: scripts/cold-start.sh [shm|tcp] [runs]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JAVA="${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}"
JAR="$ROOT/sj-bench/target/benchmarks.jar"
TRANSPORT="${1:-shm}"
RUNS="${2:-7}"
OPTS=(--enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -cp "$JAR")
CACHE="$(mktemp -d)/sj.aot"
trap 'rm -rf "$(dirname "$CACHE")"' EXIT

[ -f "$JAR" ] || { echo "cold-start: build $JAR first" >&2; exit 1; }

run() { # label, extra JVM options...: RUNS fresh JVMs; the first session's ms and the process's wall ms
    local label="$1"; shift
    local i line t0 t1
    for i in $(seq "$RUNS"); do
        t0=$(date +%s%N)
        line=$("$JAVA" "$@" "${OPTS[@]}" org.sessionj.bench.ColdStart "$TRANSPORT" 2>/dev/null | grep '^cold-start')
        t1=$(date +%s%N)
        echo "$label $line process-ms $(( (t1 - t0) / 1000000 ))"
    done
}

echo "# load $(cut -d' ' -f1-3 /proc/loadavg), $("$JAVA" -version 2>&1 | head -1)"
run plain
# One training run records the classes loaded and linked (and method profiles) into the cache.
"$JAVA" -XX:AOTCacheOutput="$CACHE" "${OPTS[@]}" org.sessionj.bench.ColdStart "$TRANSPORT" >/dev/null 2>&1
run aot -XX:AOTCache="$CACHE"
echo "# load $(cut -d' ' -f1-3 /proc/loadavg)"
