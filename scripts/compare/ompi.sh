# Open MPI's Java bindings as a peer in scripts/compare.sh (sourced; defines only ompi_* functions).
# The driver runs with `set -euo pipefail` and has set ROOT (repo root), JDK (a JDK 21+, first on PATH)
# and WORK (its scratch directory). The programs are sj-bench/src/ompi (the MPJ baseline's algorithms),
# compiled with the MPI-free sj-bench/src/main/java/org/sessionj/bench/mpi they share with the MPJ programs.
#
#   ompi_setup                     install/build mpi.jar (scripts/openmpi-java.sh), compile the programs
#   ompi_supports DEPLOY           0 for processes and nodes, 1 for threads (no in-JVM mode in Open MPI)
#   ompi_run DEPLOY NP ALGO ARG…   one run; prints its run time in ms (the program's `run X ms`)
#
# Transports (see docs/mpi-comparison.md): processes = mpirun on this host, pml ob1 with the vader
# (shared-memory, CMA single copy) btl between ranks, as Open MPI chooses by itself; nodes = srun
# --mpi=pmix on the two-node cluster the driver started (scripts/slurm-cluster.sh up 2), pml ob1 with
# btl self,tcp on the namespaces' 10.200.0.0/24 for every pair of ranks, also two on the same node.

ompi_setup() {
    local jar libdir log="$WORK/ompi-setup.log"
    mkdir -p "$WORK/ompi-classes"
    jar=$(JDK="$JDK" "$ROOT/scripts/openmpi-java.sh" 2>"$log") || {
        echo "ompi: cannot set up Open MPI's Java bindings: $(grep -v '^ ' "$log" | tail -n 1)" >&2
        return 1
    }
    libdir=$(ompi_info --parsable --path libdir 2>/dev/null | sed -n 's/^path:libdir://p')
    [ -e "$libdir/libmpi_java.so" ] || { echo "ompi: no libmpi_java.so in Open MPI's libdir '$libdir'" >&2; return 1; }
    "$JDK/bin/javac" --release 21 -nowarn -d "$WORK/ompi-classes" -cp "$jar" \
        "$ROOT"/sj-bench/src/ompi/java/org/sessionj/bench/ompi/*.java \
        "$ROOT"/sj-bench/src/main/java/org/sessionj/bench/mpi/*.java >"$log" 2>&1 || {
        echo "ompi: javac failed on sj-bench/src/ompi and src/mpi: $(head -n 1 "$log")" >&2
        return 1
    }
    printf '%s\n%s\n' "$jar:$WORK/ompi-classes" "$libdir" > "$WORK/ompi-classes/.setup"
}

ompi_supports() {
    case "$1" in
        processes|nodes) return 0 ;;
        *) return 1 ;;
    esac
}

ompi_run() {
    local deploy="$1" np="$2" algo="$3" cls cp libdir out status ms yield
    shift 3
    case "$algo" in
        pi) cls=PiOmpi ;;
        jacobi) cls=JacobiOmpi ;;
        nbody) cls=NBodyOmpi ;;
        *) echo "ompi: expected an algorithm pi, jacobi or nbody but found '$algo'" >&2; return 1 ;;
    esac
    [ -f "$WORK/ompi-classes/.setup" ] || { echo "ompi: ompi_setup has not run" >&2; return 1; }
    { read -r cp; read -r libdir; } < "$WORK/ompi-classes/.setup"
    local java=("$JDK/bin/java" --enable-native-access=ALL-UNNAMED "-Djava.library.path=$libdir"
                -cp "$cp" "org.sessionj.bench.ompi.$cls" "$@")
    status=0
    case "$deploy" in
        processes)
            out=$(timeout -k 10 900 mpirun --allow-run-as-root --oversubscribe -n "$np" "${java[@]}" 2>&1) ||
                status=$? ;;
        nodes)
            # All pairs of ranks over TCP on the veth network only: vader (shared memory) is off because
            # both namespaces have the same hostname and /dev/shm, so two ranks with the same local rank
            # on the two nodes open the same vader segment file (2+2 ranks hang). Slurm declares 4 CPUs
            # per node, so Open MPI cannot see that all ranks share this machine's cores: yield when idle
            # whenever they are oversubscribed, the rule mpirun applies by itself for `processes`.
            yield=0
            [ "$np" -le "$(nproc)" ] || yield=1
            out=$(OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,tcp OMPI_MCA_btl_tcp_if_include=10.200.0.0/24 \
                  OMPI_MCA_mpi_yield_when_idle=$yield \
                  timeout -k 10 900 "$ROOT/scripts/slurm-cluster.sh" srun --mpi=pmix --kill-on-bad-exit=1 \
                  -N 2 -n "$np" "${java[@]}" 2>&1) || status=$? ;;
        *)
            echo "ompi: expected a deployment processes or nodes but found '$deploy'" >&2
            return 1 ;;
    esac
    ms=$(sed -n '/^run [0-9.]* ms$/{s/^run \([0-9.]*\) ms$/\1/p;q;}' <<<"$out")
    if [ "$status" -ne 0 ] || [ -z "$ms" ] || ! grep -q "verified" <<<"$out" || grep -q "VERIFICATION FAILED" <<<"$out"; then
        printf 'ompi: %s on %s with %s ranks failed (exit %s):\n%s\n' "$algo" "$deploy" "$np" "$status" "$out" >&2
        return 1
    fi
    echo "$ms"
}
