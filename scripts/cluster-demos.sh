#!/usr/bin/env bash
# Runs the three demos under a real Slurm on this machine and checks their verification:
# one node first, then two nodes (network namespaces sj-n1 10.200.0.1 and sj-n2 10.200.0.2),
# each rank a process started by srun (./sj demo … --deploy slurm). Tears the cluster down on exit.
#
#   sudo scripts/cluster-demos.sh            # needs root (installs Slurm from Debian when missing, ip netns)
#
# Exit status: 0 when every run verified, 1 otherwise. Prints how long each run and the whole test took.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CLUSTER="$ROOT/scripts/slurm-cluster.sh"
SJ="$ROOT/sj"
export SJ_CLUSTER_DIR="${SJ_CLUSTER_DIR:-/tmp/sj-slurm-demos}"

[ "$(id -u)" -eq 0 ] || { echo "cluster-demos: needs root (Slurm daemons, network namespaces)" >&2; exit 1; }

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

START=$(now)
trap '"$CLUSTER" down >/dev/null 2>&1 || true' EXIT

# ./sj builds its class path (.sj/classpath) on first use; do it once here, not in every rank. A Maven
# build (-Pcluster) passes its own class path instead (SJ_CLASSPATH_FILE: the dependencies of sj-examples).
if [ -n "${SJ_CLASSPATH_FILE:-}" ]; then
    SJ_CLASSPATH="$ROOT/sj-examples/target/classes:$(cat "$SJ_CLASSPATH_FILE")"
    export SJ_CLASSPATH
fi
"$SJ" --version >/dev/null

failures=0
# run LABEL SRUN-ARGS... -- DEMO-ARGS...
run() {
    local label="$1"; shift
    local srun_args=() demo_args=() out status t
    while [ "$1" != "--" ]; do srun_args+=("$1"); shift; done
    shift
    demo_args=("$@")
    t=$(now)
    set +e
    # srun starts ./sj on every rank; ./sj finds a JDK 21+ itself (srun would use the java on PATH).
    out=$("$CLUSTER" srun --kill-on-bad-exit=1 "${srun_args[@]}" "$SJ" demo "${demo_args[@]}" --deploy slurm 2>&1)
    status=$?
    set -e
    if [ "$status" -eq 0 ] && grep -q "^  verified:" <<<"$out"; then
        printf 'ok    %-46s %6ss\n' "$label" "$(elapsed "$t")"
    else
        printf 'FAIL  %-46s %6ss (exit %s)\n' "$label" "$(elapsed "$t")" "$status"
        failures=$((failures + 1))
    fi
    sed 's/^/      /' <<<"$out"
}

echo "== one node"
t=$(now); "$CLUSTER" up 1; echo "   (cluster up in $(elapsed "$t")s)"
run "pi, 3 ranks"                    -n 3 -- pi --size 2000000
run "jacobi, master + 2 workers"     -n 3 -- jacobi --size 120 --steps 500
run "nbody, ring of 3"               -n 3 -- nbody --size 600 --steps 10
"$CLUSTER" down

echo "== two nodes"
t=$(now); "$CLUSTER" up 2; echo "   (cluster up in $(elapsed "$t")s)"
run "pi, 3 ranks on 2 nodes"         -N 2 -n 3 -- pi --size 2000000
run "jacobi pipeline, 4 ranks, 2 nodes" -N 2 -n 4 -- jacobi --size 120 --steps 500 --ordinary
run "nbody, ring of 4 on 2 nodes"    -N 2 -n 4 -- nbody --size 600 --steps 10 --ordinary
"$CLUSTER" down

echo "cluster-demos: $((failures)) failure(s); total $(elapsed "$START")s"
[ "$failures" -eq 0 ]
