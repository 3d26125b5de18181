#!/usr/bin/env bash
# The first session of a fresh JVM, without and with a JDK 25 AOT cache (issue 15, docs/benchmarks.md
# "Cold start"). Needs sj-bench/target/benchmarks.jar (./mvnw -q -pl sj-bench -am package -DskipTests)
# and a JDK 25 (JAVA=/path/to/java to choose it).
# Usage: scripts/cold-start.sh [shm|tcp] [runs]   first session and its phases, plain then with the AOT cache
#        scripts/cold-start.sh classes [shm|tcp]  classes loaded per phase of the first session (plain JVM)
#        scripts/cold-start.sh floor [runs]       the same JVM doing nothing, a bare Exchanger hand-off, one log line
#        scripts/cold-start.sh profile [runs]     sampled stacks of the first session with the AOT cache, summed over runs
#        scripts/cold-start.sh compare A.jar B.jar [runs] [shm|tcp]   two builds alternating, plain and with each
#                                                 one's AOT cache, then the medians of the CPU figures per build
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JAVA="${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}"
JAR="${JAR:-$ROOT/sj-bench/target/benchmarks.jar}"  # JAR=... to measure another build (before/after)
OPTS=(--enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -cp "$JAR")
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

[ -f "$JAR" ] || { echo "cold-start: build $JAR first" >&2; exit 1; }

# classes [transport]: one plain run with -Xlog:class+load on standard output and ColdStart's #mark lines
# between the phases; prints, per phase of the first session (each ends at its mark), the classes loaded,
# how many came from the JDK's CDS archive, and a few families (Netty, Jackson, TLS, java.lang.invoke and
# the classfile API that spins lambda forms and switch classes, logging, reflection proxies).
if [ "${1:-}" = classes ]; then
    "$JAVA" -Xlog:class+load -Dcoldstart.marks=true "${OPTS[@]}" org.sessionj.bench.ColdStart "${2:-shm}" 2>/dev/null |
    awk '
        function family(n) {
            if (n ~ /^io\.netty\./) return "netty"
            if (n ~ /^com\.fasterxml\.jackson\./) return "jackson"
            if (n ~ /^(javax\.net\.ssl|sun\.security\.ssl|org\.bouncycastle)\./) return "tls"
            if (n ~ /^(java\.lang\.classfile|jdk\.internal\.classfile)\./) return "classfile"
            if (n ~ /^java\.lang\.invoke\./ || n ~ /\$\$(Lambda|TypeSwitch)/ || n ~ /StringConcat/) return "invoke"
            if (n ~ /^(java\.util\.logging|jdk\.internal\.logger|sun\.util\.logging)\./) return "logging"
            if (n ~ /^(jdk\.proxy|java\.lang\.reflect\.Proxy|sun\.reflect\.annotation)/) return "proxy"
            if (n ~ /^java\.security\.|^sun\.security\./) return "security"
            if (n ~ /^org\.sessionj\./) return "sessionj"
            return ""
        }
        /^#mark / {
            if (seen[$2]++) exit   # the second session: stop
            if ($2 != "main") {
                printf "%-10s %5d classes, %5d from CDS", $2, total, cds
                for (f in fam) printf ", %s %d", f, fam[f]
                printf "\n"
            }
            total = 0; cds = 0; delete fam; next
        }
        /\[class,load\]/ {
            total++
            if ($0 ~ /shared objects file/) cds++
            for (i = 1; i <= NF; i++) if ($i ~ /\[class,load\]$/) { f = family($(i + 1)); break }
            if (f != "") fam[f]++
        }'
    exit 0
fi

# profile [runs]: ColdStartProfile in fresh JVMs with an AOT cache recorded by one run of it; sums its
# counts over the runs (the first column) and lists them largest first.
if [ "${1:-}" = profile ]; then
    RUNS="${2:-8}"
    "$JAVA" -XX:AOTCacheOutput="$WORK/profile.aot" "${OPTS[@]}" org.sessionj.bench.ColdStartProfile shm >/dev/null 2>&1
    echo "# load $(cut -d' ' -f1-3 /proc/loadavg)"
    for i in $(seq "$RUNS"); do
        "$JAVA" -XX:AOTCache="$WORK/profile.aot" "${OPTS[@]}" org.sessionj.bench.ColdStartProfile shm 2>/dev/null
    done > "$WORK/profile.txt"
    grep '^cold-start' "$WORK/profile.txt" || true
    awk '/^samples/ { total += $2 } END { print "samples", total }' "$WORK/profile.txt"
    awk '/^(incl|leaf) / { n[$1 " " $3] += $2 } END { for (k in n) print n[k], k }' "$WORK/profile.txt" |
        sort -k1,1nr | head -"${TOP:-80}"
    echo "# load $(cut -d' ' -f1-3 /proc/loadavg)"
    exit 0
fi

# compare A.jar B.jar [runs] [transport]: the first session of two builds (say main's and a branch's
# benchmarks.jar), alternating run by run so that both see the same load; prints every run, then per
# build and mode the medians of the requesting thread's, the accepting thread's and the process's CPU.
if [ "${1:-}" = compare ]; then
    A="$2"; B="$3"; RUNS="${4:-8}"; T="${5:-shm}"
    for jar in "$A" "$B"; do [ -f "$jar" ] || { echo "cold-start: no $jar" >&2; exit 1; }; done
    X=(--enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow)
    "$JAVA" -XX:AOTCacheOutput="$WORK/a.aot" "${X[@]}" -cp "$A" org.sessionj.bench.ColdStart "$T" >/dev/null 2>&1
    "$JAVA" -XX:AOTCacheOutput="$WORK/b.aot" "${X[@]}" -cp "$B" org.sessionj.bench.ColdStart "$T" >/dev/null 2>&1
    echo "# load $(cut -d' ' -f1-3 /proc/loadavg), a=$A b=$B"
    for i in $(seq "$RUNS"); do
        for k in a b; do
            jar="$A"; [ "$k" = b ] && jar="$B"
            echo "$k plain $("$JAVA" "${X[@]}" -cp "$jar" org.sessionj.bench.ColdStart "$T" 2>/dev/null | grep '^cold-start\|^phases' | tr '\n' ' ')"
            echo "$k aot $("$JAVA" -XX:AOTCache="$WORK/$k.aot" "${X[@]}" -cp "$jar" org.sessionj.bench.ColdStart "$T" 2>/dev/null | grep '^cold-start\|^phases' | tr '\n' ' ')"
        done
    done | tee "$WORK/compare.txt"
    echo "# load $(cut -d' ' -f1-3 /proc/loadavg)"
    for k in a b; do
        for mode in plain aot; do
            for field in first-session-ms main-thread-cpu-ms accepter-cpu-ms process-cpu-ms runtime server request accept; do
                awk -v k="$k" -v m="$mode" -v f="$field" '$1 == k && $2 == m { for (i = 3; i < NF; i++) if ($i == f) print $(i + 1) }' \
                    "$WORK/compare.txt" | sort -n | awk -v k="$k" -v m="$mode" -v f="$field" \
                    '{ v[NR] = $1 } END { if (NR) printf "%s %-5s median %-20s %8.2f  (%d runs, %.2f-%.2f)\n", k, m, f, (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2), NR, v[1], v[NR] }'
            done
        done
    done
    exit 0
fi

if [ "${1:-}" = floor ]; then
    RUNS="${2:-5}"
    echo "# load $(cut -d' ' -f1-3 /proc/loadavg), $("$JAVA" -version 2>&1 | head -1)"
    for mode in empty exchanger log; do
        "$JAVA" -XX:AOTCacheOutput="$WORK/$mode.aot" "${OPTS[@]}" org.sessionj.bench.ColdStartFloor "$mode" >/dev/null 2>&1
        for i in $(seq "$RUNS"); do
            echo "plain $("$JAVA" "${OPTS[@]}" org.sessionj.bench.ColdStartFloor "$mode" 2>/dev/null)"
            echo "aot   $("$JAVA" -XX:AOTCache="$WORK/$mode.aot" "${OPTS[@]}" org.sessionj.bench.ColdStartFloor "$mode" 2>/dev/null)"
        done
    done
    echo "# load $(cut -d' ' -f1-3 /proc/loadavg)"
    exit 0
fi

TRANSPORT="${1:-shm}"
RUNS="${2:-7}"
CACHE="$WORK/sj.aot"

run() { # label, extra JVM options...: RUNS fresh JVMs; the first session's ms, its phases, the process's wall ms
    local label="$1"; shift
    local i line t0 t1
    for i in $(seq "$RUNS"); do
        t0=$(date +%s%N)
        line=$("$JAVA" "$@" "${OPTS[@]}" org.sessionj.bench.ColdStart "$TRANSPORT" 2>/dev/null | grep '^cold-start\|^phases' | tr '\n' ' ')
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
