#!/usr/bin/env bash
# Fuzzes every Jazzer target for a while, one after another (a fuzzer uses a whole core: never run
# two at once on a small machine), and prints how many inputs each ran and whether it found anything.
#
#   scripts/fuzz.sh [DURATION] [TARGET...]
#
# DURATION: per target, as Jazzer reads it (30s, 10m, 1h; default 10m). TARGET: module:TestClass,
# default all of them. Logs: target/fuzz/<TestClass>.log; the corpus each run grows stays in
# <module>/.cifuzz-corpus/ (ignored by git); an input that fails a target is saved by Jazzer under
# <module>/src/test/resources/.../<TestClass>Inputs/<method>/ and then runs in every build (regression).
# Without the fuzz profile, `./mvnw verify` runs each target over its committed seeds only.
set -uo pipefail
cd "$(dirname "$0")/.."

DURATION=${1:-10m}
shift || true
TARGETS=("$@")
if [ ${#TARGETS[@]} -eq 0 ]; then
    TARGETS=(
        sj-api:ProtocolTextFuzzTest
        sj-transport-netty:FrameDecoderFuzzTest
        sj-runtime:HandshakeFuzzTest
        sj-runtime:WireValueFuzzTest
        sj-runtime:SessionReceiveFuzzTest
        sj-transport-http:LeanHttpFuzzTest
    )
fi

mkdir -p target/fuzz
SUMMARY=target/fuzz/summary.txt
printf '%-24s %-10s %12s %10s  %s\n' target duration inputs exec/s result | tee "$SUMMARY"
status=0
for target in "${TARGETS[@]}"; do
    module=${target%%:*}
    test=${target#*:}
    log=target/fuzz/$test.log
    ./mvnw -Pfuzz -pl "$module" -am verify -Dtest="$test" -Dsurefire.failIfNoSpecifiedTests=false \
        -Dfuzz.duration="$DURATION" >"$log" 2>&1
    code=$?
    runs=$(grep -oE '^Done [0-9]+ runs' "$log" | tail -1 | grep -oE '[0-9]+' || true)
    rate=$(grep -oE 'exec/s: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+' || true)
    if [ $code -eq 0 ]; then
        result="no findings"
    else
        result="FINDING or failure, see $log"
        status=1
    fi
    printf '%-24s %-10s %12s %10s  %s\n' "$test" "$DURATION" "${runs:-?}" "${rate:-?}" "$result" | tee -a "$SUMMARY"
done
exit $status
