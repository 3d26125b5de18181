# SJ (this project) as a peer of scripts/compare.sh: `./sj demo ALGO` with ranks as threads of one
# JVM, as processes on this host, or as srun tasks on the two namespace nodes. Sourced, not run.

sj_setup() {
    "$ROOT/sj" --version >/dev/null      # builds ./sj's class path once, not in every rank
    # Every run then starts from a private copy of the project's own jars and classes (SJ_CLASSPATH),
    # not from the worktree's target/ directories: a Maven build of the worktree during the comparison
    # rewrites those jars in place, under the JVMs running from them, whose next class loads then fail.
    # (A run's rank 0 then lost its accepting threads to NoClassDefFoundError and waited its whole
    # --timeout for ranks it could no longer accept: "only 1 of 3 ranks registered within 600 s".)
    # It also keeps ./sj from rebuilding between runs when a source changes meanwhile.
    local entry copy i=0 entries=() path=()
    mkdir -p "$WORK/sj-classpath"
    IFS=: read -ra entries < "$ROOT/.sj/classpath"
    for entry in "${entries[@]}"; do
        case "$entry" in
            "$ROOT"/*)
                copy="$WORK/sj-classpath/$i-$(basename "$entry")"
                cp -r "$entry" "$copy"
                path+=("$copy")
                i=$((i + 1)) ;;
            *) path+=("$entry") ;;       # ~/.m2: never written by this project's builds
        esac
    done
    SJ_SNAPSHOT_CLASSPATH=$(IFS=:; echo "${path[*]}")
    export SJ_SNAPSHOT_CLASSPATH
    # Kept after the run (the driver's WORK is not): every SJ run's whole output, with the demo's own
    # phase times (set-up, connecting the ranks, run, total), and thread dumps of slow runs (sj_watched).
    SJ_LOGS="${SJ_COMPARE_LOGS:-${TMPDIR:-/tmp}/sj-compare-logs.$(date -u +%Y%m%d-%H%M%S)}"
    mkdir -p "$SJ_LOGS"
    export SJ_LOGS
    echo "sj: the output of every SJ run, and thread dumps of runs still going after ${SJ_DUMP_AFTER:-60} s, go to $SJ_LOGS" >&2
    sj_train_aot_cache
}

# sj_watched LOG CMD...: runs CMD with its output in LOG. If it is still running after SJ_DUMP_AFTER
# seconds (default 60), writes the threads of every JVM of this comparison's SJ runs (found by the
# snapshot class path in their command lines, so no one else's), virtual threads included, next to
# LOG: a run that stalls leaves evidence of where. Waits for CMD without polling, so the job time
# the driver measures is not lengthened.
sj_watched() {
    local log="$1" pid sleeper which="" rc=0 jvm; shift
    "$@" >"$log" 2>&1 &
    pid=$!
    sleep "${SJ_DUMP_AFTER:-60}" &
    sleeper=$!
    wait -n -p which "$pid" "$sleeper" || rc=$?
    if [ "$which" = "$sleeper" ]; then
        for jvm in $(pgrep -f -- "$WORK/sj-classpath" || true); do
            "$JDK/bin/jcmd" "$jvm" Thread.dump_to_file -format=text "${log%.log}.threads-$jvm-$(date -u +%H%M%S).txt" \
                >/dev/null 2>&1 || true
        done
        echo "sj: $(basename "$log" .log) still running after ${SJ_DUMP_AFTER:-60} s: thread dumps next to $log" >&2
        rc=0
        wait "$pid" || rc=$?
    else
        kill "$sleeper" 2>/dev/null || true
        wait "$sleeper" 2>/dev/null || true
    fi
    return "$rc"
}

# JDK 25+: the AOT cache of ./sj itself (JEP 483/514/515: classes loaded and linked, method profiles),
# recorded by ./sj's own training run (org.sessionj.cli.AotTraining: the command line, the demos on
# threads and across processes) for the snapshot's class path, so that the command line and this
# comparison use one cache made one way. Every SJ rank starts from it: ./sj passes it to rank 0
# (SJ_AOT=FILE with SJ_CLASSPATH) and rank 0 to its children (ProcessesDeployment.childJvmOptions);
# under srun each rank's ./sj gets the same SJ_AOT. SJ_AOT=0 runs without. The cache needs jars only:
# the snapshot's class directories (sj-examples' classes) are jarred first. Sets SJ_AOT_FILE (empty
# without a cache); the header says which.
sj_train_aot_cache() {
    SJ_AOT_FILE=""
    SJ_AOT_STATE="off (SJ_AOT=0)"
    export SJ_AOT_FILE SJ_AOT_STATE
    [ "${SJ_AOT:-1}" != 0 ] || return 0
    local major entries=() path=() entry log="$WORK/sj-aot-training.log"
    major=$("$JDK/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
    if [ "${major:-0}" -lt 25 ] 2>/dev/null; then
        SJ_AOT_STATE="off (JDK $major has no -XX:AOTCacheOutput)"
        return 0
    fi
    IFS=: read -ra entries <<<"$SJ_SNAPSHOT_CLASSPATH"
    for entry in "${entries[@]}"; do
        if [ -d "$entry" ]; then
            "$JDK/bin/jar" cf "$entry.jar" -C "$entry" . && path+=("$entry.jar") || path+=("$entry")
        else
            path+=("$entry")
        fi
    done
    SJ_SNAPSHOT_CLASSPATH=$(IFS=:; echo "${path[*]}")
    local attempt
    for attempt in 1 2; do
        SJ_CLASSPATH="$SJ_SNAPSHOT_CLASSPATH" SJ_AOT="$WORK/sj.aot" "$ROOT/sj" --version >"$log" 2>&1 || true
        [ -s "$WORK/sj.aot" ] && break
        # Said, not hidden: a failed training is a failed demo run (its log keeps the ranks' own words).
        echo "sj: AOT training run $attempt failed: $(grep -m1 -e 'failed' "$WORK/sj.aot.log" 2>/dev/null | cut -c1-300)" >&2
        [ "$attempt" = 1 ] && cp "$WORK/sj.aot.log" "$SJ_LOGS/aot-training-failed.log" 2>/dev/null
        rm -f "$WORK/sj.aot.failed"
    done
    if [ -s "$WORK/sj.aot" ]; then
        SJ_AOT_FILE="$WORK/sj.aot"
        SJ_AOT_STATE="on (JDK $major AOT cache from ./sj's training run; SJ_AOT=0 to run without)"
    else
        SJ_AOT_STATE="off (the training run failed twice: $(grep -m1 -e 'failed' "$WORK/sj.aot.log" 2>/dev/null \
            | cut -c1-200 || tail -n 1 "$log"))"
        echo "sj: running without an AOT cache, the training run failed (log: $WORK/sj.aot.log)" >&2
    fi
}

sj_supports() {
    return 0
}

# sj_run VARIANT DEPLOY NP ALGO ARG...  (ARGs as the MPI programs take them) → run time in ms
sj_run() {
    local variant="$1" deploy="$2" np="$3" algo="$4" out
    shift 4
    local demo=()
    case "$algo" in
        pi)     demo=(pi --workers $((np - 1)) --size "$1") ;;
        jacobi) demo=(jacobi --workers $((np - 1)) --size "$1" --steps "$2" "--$variant") ;;
        nbody)  demo=(nbody --workers "$np" --size "$1" --steps "$2" --seed "$3" "--$variant") ;;
        *) echo "sj: unknown algorithm $algo" >&2; return 1 ;;
    esac
    # How long rank 0 waits for the others to register: JVMs start slowly on a loaded machine.
    demo+=(--timeout "${SJ_DEMO_TIMEOUT:-60}")
    local log
    log="$SJ_LOGS/$(date -u +%H%M%S.%3N)-$deploy-$algo-$1-$variant.log"
    case "$deploy" in
        threads|processes) sj_watched "$log" env SJ_CLASSPATH="$SJ_SNAPSHOT_CLASSPATH" SJ_AOT="${SJ_AOT_FILE:-0}" \
                               "$ROOT/sj" demo "${demo[@]}" --deploy "$deploy" ;;
        nodes) sj_watched "$log" env SJ_CLASSPATH="$SJ_SNAPSHOT_CLASSPATH" SJ_AOT="${SJ_AOT_FILE:-0}" \
                   "$ROOT/scripts/slurm-cluster.sh" srun --kill-on-bad-exit=1 -N 2 -n "$np" "$ROOT/sj" demo "${demo[@]}" --deploy slurm ;;
        *) echo "sj: unknown deployment $deploy" >&2; return 1 ;;
    esac || { cat "$log" >&2; return 1; }
    out=$(<"$log")
    grep -q "^  verified:" <<<"$out" || { echo "$out" >&2; return 1; }
    sed -n 's/.*[ ,]run \([0-9.]*\) ms.*/\1/p' <<<"$out" | head -1
}

sj_noalias_run() { sj_run noalias "$@"; }
sj_ordinary_run() { sj_run ordinary "$@"; }
