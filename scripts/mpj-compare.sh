#!/usr/bin/env bash
# SJ vs MPJ Express (the papers' baseline, Debian libmpj-java) on the three demos: same algorithms,
# sizes and number of ranks, all ranks as threads of one JVM (SJ: --deploy threads; MPJ: -dev
# multicore), same JDK. A benchmark, not a test: it prints a table of run times (set-up excluded).
#
#   sudo scripts/mpj-compare.sh [REPEATS]       # installs libmpj-java when missing (needs root then)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REPEATS="${1:-3}"
MPJ_HOME=/usr/share/mpj
export MPJ_HOME

if [ ! -f "$MPJ_HOME/lib/mpj.jar" ]; then
    [ "$(id -u)" -eq 0 ] || { echo "mpj-compare: libmpj-java is missing and installing it needs root" >&2; exit 1; }
    echo "mpj-compare: installing MPJ Express from Debian (libmpj-java) ..." >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libmpj-java >/dev/null
fi
# Debian's starter.jar names log4j-1.2.jar next to itself in its manifest; the package puts it elsewhere.
if [ ! -e "$MPJ_HOME/lib/log4j-1.2.jar" ]; then
    [ "$(id -u)" -eq 0 ] || { echo "mpj-compare: $MPJ_HOME/lib/log4j-1.2.jar is missing (needs root to link)" >&2; exit 1; }
    ln -s /usr/share/java/log4j-1.2.jar "$MPJ_HOME/lib/log4j-1.2.jar"
fi

# The JDK ./sj uses (21+), for both: MPJ's starter runs the `java` on PATH.
JDK=$(bash -c 'source <(sed -n "/^jdk_major()/,/^}/p;/^find_jdk()/,/^}/p" "$0"); find_jdk' "$ROOT/sj")
export PATH="$JDK/bin:$PATH"
OUT="${TMPDIR:-/tmp}/sj-mpj-classes"
mkdir -p "$OUT"
javac -nowarn -d "$OUT" -cp "$MPJ_HOME/lib/mpj.jar" "$ROOT"/sj-bench/src/mpj/java/org/sessionj/bench/mpj/*.java
"$ROOT/sj" --version >/dev/null        # builds ./sj's class path once

run_ms() { sed -n 's/.*[ ,]run \([0-9.]*\) ms.*/\1/p; s/^run \([0-9.]*\) ms$/\1/p' | head -1; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

sj_run() {   # ARGS for ./sj demo → run time in ms
    local out
    out=$("$ROOT/sj" demo "$@" 2>&1) || { echo "$out" >&2; return 1; }
    grep -q "verified" <<<"$out" || { echo "$out" >&2; return 1; }
    run_ms <<<"$out"
}
mpj_run() {  # NP CLASS ARGS → run time in ms
    local np="$1" cls="$2" out; shift 2
    out=$(mpjrun -np "$np" -dev multicore -cp "$OUT" "org.sessionj.bench.mpj.$cls" "$@" 2>&1) || { echo "$out" >&2; return 1; }
    if grep -q "FAILED" <<<"$out"; then echo "$out" >&2; return 1; fi
    run_ms <<<"$out"
}
measure() {  # repeat a command, print the median
    local i
    for i in $(seq 1 "$REPEATS"); do "$@"; done | median
}

echo "| algorithm | ranks | SJ noalias (ms) | SJ ordinary (ms) | MPJ Express (ms) |"
echo "|---|---|---|---|---|"
row() { printf '| %s | %s | %s | %s | %s |\n' "$@"; }
row "pi, 2 × 20,000,000 points" 3 \
    "$(measure sj_run pi --workers 2 --size 20000000)" "–" \
    "$(measure mpj_run 3 PiMpj 20000000)"
for size in 100 300; do
    row "Jacobi ${size}×${size}, 2000 iterations" 3 \
        "$(measure sj_run jacobi --size "$size" --steps 2000 --noalias)" \
        "$(measure sj_run jacobi --size "$size" --steps 2000 --ordinary)" \
        "$(measure mpj_run 3 JacobiMpj "$size" 2000)"
done
for bodies in 300 1000; do
    row "n-Body ${bodies} bodies, 20 steps" 2 \
        "$(measure sj_run nbody --workers 2 --size "$bodies" --steps 20 --seed 2009 --noalias)" \
        "$(measure sj_run nbody --workers 2 --size "$bodies" --steps 20 --seed 2009 --ordinary)" \
        "$(measure mpj_run 2 NBodyMpj "$bodies" 20 2009)"
done
