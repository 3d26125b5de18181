# MPJ Express (the papers' baseline, Debian's libmpj-java 0.44) for the comparison driver
# scripts/compare.sh, which sources this file and has set ROOT (repo root), JDK (a JDK 21+ home, first
# on PATH) and WORK (its scratch directory), under `set -euo pipefail`. Functions only (prefix mpj_):
#
#   mpj_setup                      install libmpj-java when missing, compile the programs (sj-bench/src/mpj
#                                  with the MPI-free sj-bench/src/main/java/org/sessionj/bench/mpi they share with Open MPI's) to $WORK/mpj-classes
#   mpj_supports DEPLOY            0 for threads, processes, nodes
#   mpj_run DEPLOY NP ALGO ARG...  one run; prints the run time in ms (rank 0's "run X ms")
#
# Deployments: threads = `mpjrun -dev multicore` (ranks are threads of one JVM); processes = NP JVMs
# on this host, device niodev over loopback; nodes = NP JVMs started by srun on the two namespace nodes
# (the driver has run `scripts/slurm-cluster.sh up 2`), niodev over the veth pair. For niodev the ranks
# are started directly, without MPJ's daemons: MpjRendezvous does the port exchange mpjrun would do,
# and each rank gets the arguments MPJ's daemon would pass to main. See docs/mpi-comparison.md.
#
# MPJ_TIMEOUT (seconds, default 600) bounds one run; a run that exceeds it is killed and fails.
# MPJ_VERBOSE=1 prints, for niodev runs, the address each rank connected from (on stderr).

# shellcheck disable=SC2030,SC2031  # tmp and pids belong to mpj_run's subshell on purpose
mpj_home() { echo /usr/share/mpj; }
mpj_die() { echo "mpj: $*" >&2; return 1; }

mpj_setup() {
    local home out log
    home=$(mpj_home)
    if [ ! -f "$home/lib/mpj.jar" ]; then
        [ "$(id -u)" -eq 0 ] || { mpj_die "libmpj-java is missing and installing it needs root"; return 1; }
        echo "mpj: installing MPJ Express from Debian (libmpj-java) ..." >&2
        if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libmpj-java >/dev/null 2>&1; then
            apt-get update -qq >/dev/null 2>&1 || true
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libmpj-java >/dev/null 2>&1 ||
                { mpj_die "apt-get install libmpj-java failed"; return 1; }
        fi
    fi
    # Debian's jars name log4j-1.2.jar next to themselves in their manifests; the package puts it elsewhere.
    if [ ! -e "$home/lib/log4j-1.2.jar" ]; then
        [ "$(id -u)" -eq 0 ] || { mpj_die "$home/lib/log4j-1.2.jar is missing (linking it needs root)"; return 1; }
        ln -sf /usr/share/java/log4j-1.2.jar "$home/lib/log4j-1.2.jar"
    fi
    [ -f /usr/share/java/log4j-1.2.jar ] || { mpj_die "/usr/share/java/log4j-1.2.jar is missing (package liblog4j1.2-java)"; return 1; }
    out="$WORK/mpj-classes"
    mkdir -p "$out"
    if ! log=$(javac -nowarn -d "$out" -cp "$home/lib/mpj.jar" \
            "$ROOT"/sj-bench/src/mpj/java/org/sessionj/bench/mpj/*.java \
            "$ROOT"/sj-bench/src/main/java/org/sessionj/bench/mpi/*.java 2>&1); then
        mpj_die "compiling the MPJ programs failed: $(grep -m1 'error' <<<"$log" || echo "$log" | head -1)"
        return 1
    fi
}

mpj_supports() {
    case "${1:-}" in
        threads|processes|nodes) return 0 ;;
        *) return 1 ;;
    esac
}

mpj_class() {  # ALGO → main class
    case "$1" in
        pi) echo org.sessionj.bench.mpj.PiMpj ;;
        jacobi) echo org.sessionj.bench.mpj.JacobiMpj ;;
        nbody) echo org.sessionj.bench.mpj.NBodyMpj ;;
        *) mpj_die "expected an algorithm pi, jacobi or nbody but found '$1'"; return 1 ;;
    esac
}

mpj_classpath() { echo "$WORK/mpj-classes:$(mpj_home)/lib/mpj.jar:/usr/share/java/log4j-1.2.jar"; }

# The run time from rank 0's output, after checking the program's own verification (π within the
# 5-sigma interval ./sj demo pi uses, Jacobi bitwise, n-Body within 1e-9: see sj-bench/src/main/java/org/sessionj/bench/mpi).
mpj_result() {  # ALGO OUTPUT-FILE
    local algo="$1" file="$2" ms
    if grep -q "VERIFICATION FAILED" "$file"; then
        mpj_die "$algo: verification failed"; return 1
    fi
    grep -q "verified" "$file" || { mpj_die "$algo: no verification in the output"; return 1; }
    ms=$(sed -n 's/^run \([0-9.]*\) ms$/\1/p' "$file" | head -1)
    [ -n "$ms" ] || { mpj_die "$algo: no 'run X ms' line in the output"; return 1; }
    echo "$ms"
}

mpj_run() {  # DEPLOY NP ALGO ARG...
    [ $# -ge 3 ] || { mpj_die "usage: mpj_run threads|processes|nodes NP pi|jacobi|nbody ARG..."; return 1; }
    local deploy="$1" np="$2" algo="$3" cls; shift 3
    [[ "$np" =~ ^[1-9][0-9]*$ ]] || { mpj_die "expected a number of ranks but found '$np'"; return 1; }
    cls=$(mpj_class "$algo") || return 1
    [ -d "$WORK/mpj-classes" ] || { mpj_die "no $WORK/mpj-classes (run mpj_setup first)"; return 1; }
    # A subshell: its EXIT trap stops whatever this run started, and leaves the driver's traps alone.
    (
        set -euo pipefail
        set +m  # background jobs stay in our process group, so setsid in mpj_timed never has to fork
        tmp=$(mktemp -d "$WORK/mpj-run.XXXXXX")
        pids=()  # what to kill on exit: pids, or -pgid for a whole process group
        trap mpj_cleanup EXIT
        case "$deploy" in
            threads) mpj_run_threads "$np" "$cls" "$@" ;;
            processes) mpj_run_processes "$np" "$cls" "$@" ;;
            nodes) mpj_run_nodes "$np" "$cls" "$@" ;;
            *) mpj_die "expected a deployment threads, processes or nodes but found '$deploy'"; exit 1 ;;
        esac
        if [ -n "${MPJ_VERBOSE:-}" ] && [ -f "$tmp/table" ]; then sed 's/^/mpj: /' "$tmp/table" >&2; fi
        mpj_result "$algo" "$tmp/out" || { cat "$tmp/out" >&2; exit 1; }
    )
}

mpj_cleanup() {  # mpj_run's EXIT trap
    local victim
    for victim in "${pids[@]}"; do kill -- "$victim" 2>/dev/null || true; done
    rm -rf "$tmp"
}

# The functions below run inside mpj_run's subshell: they use its $tmp and $pids, and leave rank 0's
# output (or everything srun printed) in $tmp/out; on failure they print all output on stderr.

# Runs CMD in a session (process group) of its own, at most SECONDS long, and returns only once
# every process of that group has ended: on time-out the whole group gets SIGTERM (srun then ends
# its step, which takes a moment), then SIGKILL after 15 s. Status: CMD's, or 124 on time-out.
# (timeout(1) returns as soon as its direct child ends, which would leave srun behind.)
mpj_timed() {  # SECONDS CMD...
    local limit="$1" pid sleeper which="" rc=0 i; shift
    setsid "$@" &
    pid=$!
    sleep "$limit" &
    sleeper=$!
    pids+=("-$pid" "$sleeper")
    wait -n -p which "$pid" "$sleeper" || rc=$?
    if [ "$which" = "$sleeper" ]; then
        rc=124
        kill -TERM -- "-$pid" 2>/dev/null || true
    else
        kill "$sleeper" 2>/dev/null || true
    fi
    for ((i = 0; i < 150; i++)); do
        kill -0 -- "-$pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -KILL -- "-$pid" 2>/dev/null || true
    wait "$pid" "$sleeper" 2>/dev/null || true
    return "$rc"
}

mpj_run_threads() {  # NP CLASS ARG...
    local np="$1" cls="$2" rc=0; shift 2
    # mpjrun's multicore starter prints a failed rank's exception and still exits 0: mpj_result
    # catches that by the missing result line.
    MPJ_HOME=$(mpj_home) mpj_timed "${MPJ_TIMEOUT:-600}" \
        mpjrun -np "$np" -dev multicore -cp "$WORK/mpj-classes" "$cls" "$@" >"$tmp/out" 2>&1 || rc=$?
    if [ "$rc" -ne 0 ]; then
        cat "$tmp/out" >&2; mpj_die "mpjrun -dev multicore failed with status $rc"; return 1
    fi
}

# Starts MpjRendezvous (in namespace $1 when given) on address $2 for $3 ranks; it writes its port
# to $tmp/port and the rank → address table to $tmp/table.
mpj_rendezvous() {  # NAMESPACE|"" ADDRESS NP
    local ns="$1" addr="$2" np="$3" i
    local -a cmd=("$JDK/bin/java" -cp "$WORK/mpj-classes" org.sessionj.bench.mpj.MpjRendezvous
                  "$addr" "$np" "$tmp/port" 60)
    if [ -n "$ns" ]; then
        [ -e "/run/netns/$ns" ] || { mpj_die "network namespace $ns is missing (is the two-node cluster up?)"; return 1; }
        cmd=(nsenter --net="/run/netns/$ns" "${cmd[@]}")
    fi
    "${cmd[@]}" >"$tmp/table" 2>"$tmp/rendezvous.err" &
    pids+=($!)
    for i in $(seq 1 600); do
        [ -s "$tmp/port" ] && return 0
        kill -0 "${pids[-1]}" 2>/dev/null || break
        sleep 0.05
    done
    cat "$tmp/rendezvous.err" >&2
    mpj_die "the rendezvous server on $addr did not start"; return 1
}

# What MPJ's daemon passes a niodev rank as its second argument (the first is the rank).
mpj_niodev_conf() {  # NP SERVER PORT
    echo "#Number of Processes;$1;#Protocol Switch Limit;131072;#Server Name;$2;#Server Port;$3"
}

mpj_run_processes() {  # NP CLASS ARG...
    local np="$1" cls="$2" port conf r rc=0 failed=""; shift 2
    mpj_rendezvous "" 127.0.0.1 "$np"
    port=$(<"$tmp/port")
    conf=$(mpj_niodev_conf "$np" 127.0.0.1 "$port")
    local -a ranks=()
    for ((r = 0; r < np; r++)); do
        MPJ_HOME=$(mpj_home) timeout -k 5 "${MPJ_TIMEOUT:-600}" "$JDK/bin/java" -cp "$(mpj_classpath)" \
            "$cls" "$r" "$conf" niodev "$@" >"$tmp/out.$r" 2>&1 &
        ranks+=($!); pids+=($!)
    done
    ranks+=("${pids[0]}")  # the rendezvous server: when it fails, the ranks would wait for it in vain
    # Poll rather than `wait -n`: a process that ended before the loop (the rendezvous, once it has
    # answered) may already be reaped, and `wait -n` then fails with "no such job".
    local -a running=("${ranks[@]}") still
    while [ "${#running[@]}" -gt 0 ] && [ "$rc" -eq 0 ]; do
        still=()
        for r in "${running[@]}"; do
            if kill -0 "$r" 2>/dev/null; then
                still+=("$r")
            elif ! wait "$r" 2>/dev/null; then
                rc=$?
                if [ "$rc" -eq 127 ]; then rc=0; continue; fi    # reaped already: its status is gone, not a failure sign
                failed=$r
                break
            fi
        done
        running=("${still[@]}")
        [ "${#running[@]}" -eq 0 ] || [ "$rc" -ne 0 ] || sleep 0.02
    done
    if [ "$rc" -ne 0 ]; then
        for r in "${ranks[@]}"; do kill "$r" 2>/dev/null || true; done
        wait "${ranks[@]}" 2>/dev/null || true
        for ((r = 0; r < np; r++)); do sed "s/^/[rank $r] /" "$tmp/out.$r" >&2; done
        cat "$tmp/rendezvous.err" >&2
        if [ "$failed" = "${pids[0]}" ]; then mpj_die "the rendezvous server failed (status $rc)"; return 1; fi
        mpj_die "a niodev rank exited with status $rc"; return 1
    fi
    cp "$tmp/out.0" "$tmp/out"
}

mpj_run_nodes() {  # NP CLASS ARG...
    local np="$1" cls="$2" port conf rc=0; shift 2
    [ "$np" -ge 2 ] || { mpj_die "nodes needs at least 2 ranks (one per node) but found $np"; return 1; }
    mpj_rendezvous sj-n1 10.200.0.1 "$np"
    port=$(<"$tmp/port")
    conf=$(mpj_niodev_conf "$np" 10.200.0.1 "$port")
    # srun -N 2 spreads the ranks over both nodes; -K ends the step when a rank fails. Each task takes
    # its rank from SLURM_PROCID (hence the single quotes: expanded by the task's shell).
    # shellcheck disable=SC2016
    MPJ_HOME=$(mpj_home) mpj_timed "${MPJ_TIMEOUT:-600}" \
        "$ROOT/scripts/slurm-cluster.sh" srun -N 2 -n "$np" -K \
        bash -c 'exec "$0" -cp "$1" "$2" "$SLURM_PROCID" "${@:3}"' \
        "$JDK/bin/java" "$(mpj_classpath)" "$cls" "$conf" niodev "$@" >"$tmp/out" 2>&1 || rc=$?
    if [ "$rc" -ne 0 ]; then
        cat "$tmp/out" "$tmp/rendezvous.err" >&2
        mpj_die "srun of the niodev ranks failed with status $rc"; return 1
    fi
    wait "${pids[0]}" || { cat "$tmp/rendezvous.err" >&2; mpj_die "the rendezvous server failed"; return 1; }
    # The rendezvous table names each rank by the address it connected from: both nodes must appear.
    if ! grep -q ' 10\.200\.0\.1$' "$tmp/table" || ! grep -q ' 10\.200\.0\.2$' "$tmp/table"; then
        cat "$tmp/out" "$tmp/table" >&2
        mpj_die "the ranks did not run on both nodes"; return 1
    fi
}
