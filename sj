#!/usr/bin/env bash
# ./sj — the SJ for Java command line. Finds a JDK 21+, builds what it needs on first use, runs.
# Usage: ./sj protocol check|print|dual|fsm TEXT-or-@FILE   (./sj --help for everything)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
STATE="$ROOT/.sj"
CLASSPATH_FILE="$STATE/classpath"
MAIN_CLASS="org.sessionj.cli.SjCommand"

# The major version of the JDK at $1, or nothing when $1 is not a JDK.
jdk_major() {
    local home="$1" version
    [ -x "$home/bin/java" ] && [ -f "$home/release" ] || return 0
    version=$(sed -n 's/^JAVA_VERSION="\([^"]*\)".*/\1/p' "$home/release")
    version=${version#1.}
    echo "${version%%[.+-]*}"
}

# JAVA_HOME first, then the usual install locations; never blindly the `java` on PATH.
find_jdk() {
    local candidate major
    for candidate in "${JAVA_HOME:-}" /usr/lib/jvm/* /usr/java/* /opt/java/* /opt/jdk* \
        "$HOME"/.sdkman/candidates/java/* "$HOME"/.jdks/* /Library/Java/JavaVirtualMachines/*/Contents/Home; do
        [ -n "$candidate" ] && [ -d "$candidate" ] || continue
        major=$(jdk_major "$candidate")
        if [ -n "$major" ] && [ "$major" -ge 21 ] 2>/dev/null; then
            echo "$candidate"
            return 0
        fi
    done
    return 1
}

JDK=$(find_jdk) || {
    echo "sj: no JDK 21 or newer found (looked at JAVA_HOME, /usr/lib/jvm, /usr/java, /opt, ~/.sdkman, ~/.jdks)." >&2
    echo "sj: install one (e.g. 'apt-get install openjdk-21-jdk') or point JAVA_HOME at it." >&2
    exit 1
}

# Rebuild when any source or build file is newer than the last build.
needs_build() {
    [ -f "$CLASSPATH_FILE" ] || return 0
    # Written by an older ./sj with the module's classes directory, which no cache can hold: once more.
    grep -q '/sj-examples/target/classes:' "$CLASSPATH_FILE" && return 0
    # Written by an older ./sj with the test dependencies (JUnit, AssertJ, Byte Buddy) on it: every JVM
    # opened their jars too, on every look-up that searches the whole class path. Once more.
    grep -q '/org/junit/' "$CLASSPATH_FILE" && return 0
    [ -n "$(find "$ROOT" -path "$ROOT/.sj" -prune -o -path '*/target' -prune -o -path "$ROOT/.git" -prune -o \
        \( -name '*.java' -o -name 'pom.xml' -o -path '*/src/main/resources/*' \) -newer "$CLASSPATH_FILE" -print -quit)" ]
}

# JCTools and Netty use sun.misc.Unsafe for their queues and buffers, and Netty loads its native epoll
# transport; newer JDKs warn about both on every start unless told that this application allows it.
JAVA_OPTS=()
major=$(jdk_major "$JDK")
[ "$major" -ge 22 ] && JAVA_OPTS+=(--enable-native-access=ALL-UNNAMED)
[ "$major" -ge 23 ] && JAVA_OPTS+=(--sun-misc-unsafe-memory-access=allow)
# At exit a JDK 25 JVM waits up to 300 ms (30 attempts of 10 ms) for threads running native code to
# stop, and the runtime's event loops and ipc doorbell always have one blocked in epoll: every command
# that had used a session took 0.3 s longer to exit, twice per demo job (each child rank, then rank 0).
# Threads in native code cannot touch the JVM's data without stopping first, so no wait is needed
# (docs/benchmarks.md "The demos' whole job, tenth session").
[ "$major" -ge 25 ] && JAVA_OPTS+=(-XX:UserThreadWaitAttemptsAtExit=0)
# Netty's buffer allocators have JFR events, enabled whenever the JDK has JFR (not only while a
# recording runs): the first session of every JVM loaded those event classes, and loading a JFR event
# class makes the JDK initialise JFR's metadata and rewrite the class's bytecode (the class-file API),
# 100-130 ms of CPU per JVM, at the rendezvous of each demo rank (docs/benchmarks.md "The demos'
# whole job, fifteenth session"). SJ_JAVA_OPTS=-Dio.netty.jfr.enabled=true brings them back (the
# last -D wins), for a JFR recording that should show Netty's buffer events.
JAVA_OPTS+=(-Dio.netty.jfr.enabled=false)
# A demo's ranks across processes (or srun tasks) are short JVMs, three of them on a small machine, and
# the JIT compilers took half of their CPU: C1 and C2 compiled at start-up what the AOT cache's profiles
# said was hot in the training run. Compiling a method only after three times as many calls leaves
# the code that runs once (start-up, connecting) interpreted and still compiles every loop and message
# path the timed region repeats (docs/benchmarks.md "The demos, eleventh session"). The ranks started
# from this JVM inherit it; SJ_JAVA_OPTS=-XX:CompileThresholdScaling=1 restores the default.
# The demo programs' own classes (org.sessionj.examples and below) keep the JVM's default thresholds
# (a per-method scaling multiplies the global one: 3 × 0.34): their loops are the timed region's
# work, which an MPI rank's JVM compiles at the default thresholds too. At 3× the π and n-Body loops
# ran 15–35 % longer in the interpreter and C1 before C2 took over (docs/benchmarks.md "The demos,
# fourteenth session"). `quiet`: a CompileCommand otherwise prints itself on standard output.
demo_ranks() {
    [ "${1:-}" = demo ] || return 1
    local previous="" arg
    for arg in "$@"; do
        case "$previous $arg" in
            "--deploy processes"|"--deploy slurm"|*" --deploy=processes"|*" --deploy=slurm") return 0 ;;
        esac
        previous="$arg"
    done
    return 1
}
demo_ranks "$@" && JAVA_OPTS+=(-XX:CompileThresholdScaling=3 -XX:CompileCommand=quiet
    "-XX:CompileCommand=CompileThresholdScaling,org.sessionj.examples.*::*,0.34")
# A JVM cannot tell whether its standard error is a terminal; the demos' progress bar needs to know.
[ -t 2 ] && JAVA_OPTS+=(-Dsessionj.stderr.terminal=true)

# A cache of the classes the command line loads and links, made once per build and JDK and never
# committed (docs/benchmarks.md "Cold start"): JDK 25+ an AOT cache (JEP 483/514/515: also the methods'
# profiles) recorded by a training run of typical commands (org.sessionj.cli.AotTraining); JDK 21-24
# a dynamic CDS archive the JVM writes at the first exit (-XX:+AutoCreateSharedArchive). Only classes
# from jars can be cached: a class path with a directory on it gets none. SJ_AOT=0 turns it off;
# SJ_AOT=FILE chooses the file (the only way to get one with SJ_CLASSPATH). Child ranks of a demo start
# from the same file (rank 0 passes its options on).
CACHE_OPTS=()
# Whether any of $2... (empty ones skipped) is newer than the file $1.
newer_than() {
    local file="$1" other
    shift
    for other in "$@"; do
        [ -n "$other" ] && [ "$other" -nt "$file" ] && return 0
    done
    return 1
}
# The default cache file for class path $1: in the checkout's .sj when this user can write there, else
# in the user's cache directory; its name keyed on the JDK (where it is and its exact version: a cache
# from another JDK is refused by the JVM, silently here, so each JDK gets its own) and the class path
# (two checkouts may share the user's directory). Nothing when neither directory can be written.
default_cache() {
    local dir key
    for dir in "$STATE" "${XDG_CACHE_HOME:-${HOME:-/nonexistent}/.cache}/sj"; do
        [ -d "$dir" ] && [ -w "$dir" ] || { mkdir -p "$dir" 2>/dev/null && [ -w "$dir" ]; } || continue
        read -r key _ < <(cksum <<< "$JDK $(cat "$JDK/release" 2>/dev/null) $1")
        if [ "$major" -ge 25 ]; then echo "$dir/sj-jdk$major-$key.aot"; else echo "$dir/sj-jdk$major-$key.jsa"; fi
        return 0
    done
}
# $1: class path; $2: the cache file; $3: a file newer than the cache when the class path changed, or empty.
# A jar rewritten since the cache was recorded (./mvnw package) makes it stale too: recorded again.
use_cache() {
    local cp="$1" cache="$2" stamp="$3" entry tmp lock
    local -a entries
    [ -n "$cache" ] || return 0
    IFS=: read -ra entries <<< "$cp"
    for entry in "${entries[@]}"; do
        [ -d "$entry" ] && return 0
    done
    if [ "$major" -lt 25 ]; then
        # The JVM checks and rewrites this archive itself; its notes about classes it skips stay quiet.
        CACHE_OPTS=('-Xlog:cds*=off' -XX:+AutoCreateSharedArchive -XX:SharedArchiveFile="$cache")
        return 0
    fi
    if [ ! -s "$cache" ] || newer_than "$cache" "$stamp" "${entries[@]}"; then
        # A training run that failed is not retried until the class path changes.
        [ -f "$cache.failed" ] && ! newer_than "$cache.failed" "$stamp" "${entries[@]}" && return 0
        # One recording at a time: the ranks of a job started together (srun) all find no cache; the
        # first records it, the others run without it rather than train too (a lock older than 10
        # minutes was left by a run that was killed, and is taken over).
        lock="$cache.lock"
        if ! mkdir "$lock" 2>/dev/null; then
            [ -n "$(find "$lock" -maxdepth 0 -mmin -10 2>/dev/null)" ] && return 0
            rm -rf "$lock"
            mkdir "$lock" 2>/dev/null || return 0
        fi
        echo "sj: recording an AOT cache for faster starts (once per build and JDK; SJ_AOT=0 turns it off) ..." >&2
        tmp="$cache.$$.tmp"
        if "$JDK/bin/java" "${JAVA_OPTS[@]}" -XX:AOTCacheOutput="$tmp" -cp "$cp" org.sessionj.cli.AotTraining \
                >"$cache.log" 2>&1 </dev/null && [ -s "$tmp" ]; then
            mv -f "$tmp" "$cache"
            rm -f "$cache.failed" "$tmp.config"
            rmdir "$lock"
        else
            rm -f "$tmp" "$tmp.config"
            touch "$cache.failed"
            rmdir "$lock"
            echo "sj: could not record the AOT cache (log: $cache.log); running without it" >&2
            return 0
        fi
    fi
    # A cache the JVM cannot use after all (a jar changed under it) only costs its speed: no warnings.
    CACHE_OPTS=('-Xlog:aot*=off,cds*=off' -XX:AOTCache="$cache")
}

if [ -n "${SJ_CLASSPATH:-}" ]; then
    # Tests (and IDE users) run the launcher against a class path they already have.
    if [ -n "${SJ_AOT:-}" ] && [ "$SJ_AOT" != 0 ]; then
        use_cache "$SJ_CLASSPATH" "$SJ_AOT" ""
    fi
    exec "$JDK/bin/java" "${JAVA_OPTS[@]}" "${CACHE_OPTS[@]}" ${SJ_JAVA_OPTS:-} -cp "$SJ_CLASSPATH" "$MAIN_CLASS" "$@"
fi

if needs_build; then
    echo "sj: building the command line (first use or sources changed; ./mvnw package -DskipTests) ..." >&2
    mkdir -p "$STATE"
    log="$STATE/build.log"
    if ! JAVA_HOME="$JDK" "$ROOT/mvnw" -q -f "$ROOT/pom.xml" -pl sj-examples -am package -DskipTests \
            dependency:build-classpath -DincludeScope=runtime -Dmdep.outputFile=target/sj-classpath.txt \
            >"$log" 2>&1; then
        cat "$log" >&2
        echo "sj: build failed (log above, also in $log)" >&2
        exit 1
    fi
    # The module's jar, not its classes directory: classes in a directory cannot be cached (above).
    jar=$(ls "$ROOT"/sj-examples/target/sj-examples-*.jar | grep -v -e '-sources\.jar$' -e '-javadoc\.jar$' -e '-tests\.jar$' | head -1)
    { echo -n "$jar:"; cat "$ROOT/sj-examples/target/sj-classpath.txt"; } > "$CLASSPATH_FILE.tmp"
    mv "$CLASSPATH_FILE.tmp" "$CLASSPATH_FILE"
fi

CLASSPATH="$(cat "$CLASSPATH_FILE")"
if [ "${SJ_AOT:-}" != 0 ]; then
    # The file earlier versions of this script kept, for any JDK: replaced by one per JDK.
    [ -e "$STATE/sj.aot" ] && rm -f "$STATE/sj.aot" "$STATE/sj.aot.log" "$STATE/sj.aot.failed"
    use_cache "$CLASSPATH" "${SJ_AOT:-$(default_cache "$CLASSPATH")}" "$CLASSPATH_FILE"
fi
exec "$JDK/bin/java" "${JAVA_OPTS[@]}" "${CACHE_OPTS[@]}" ${SJ_JAVA_OPTS:-} -cp "$CLASSPATH" "$MAIN_CLASS" "$@"
