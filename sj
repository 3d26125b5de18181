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
    [ -n "$(find "$ROOT" -path "$ROOT/.sj" -prune -o -path '*/target' -prune -o -path "$ROOT/.git" -prune -o \
        \( -name '*.java' -o -name 'pom.xml' -o -path '*/src/main/resources/*' \) -newer "$CLASSPATH_FILE" -print -quit)" ]
}

# JCTools and Netty use sun.misc.Unsafe for their queues and buffers, and Netty loads its native epoll
# transport; newer JDKs warn about both on every start unless told that this application allows it.
JAVA_OPTS=()
major=$(jdk_major "$JDK")
[ "$major" -ge 22 ] && JAVA_OPTS+=(--enable-native-access=ALL-UNNAMED)
[ "$major" -ge 23 ] && JAVA_OPTS+=(--sun-misc-unsafe-memory-access=allow)
# A JVM cannot tell whether its standard error is a terminal; the demos' progress bar needs to know.
[ -t 2 ] && JAVA_OPTS+=(-Dsessionj.stderr.terminal=true)

if [ -n "${SJ_CLASSPATH:-}" ]; then
    # Tests (and IDE users) run the launcher against a class path they already have.
    exec "$JDK/bin/java" "${JAVA_OPTS[@]}" ${SJ_JAVA_OPTS:-} -cp "$SJ_CLASSPATH" "$MAIN_CLASS" "$@"
fi

if needs_build; then
    echo "sj: building the command line (first use or sources changed; ./mvnw package -DskipTests) ..." >&2
    mkdir -p "$STATE"
    log="$STATE/build.log"
    if ! JAVA_HOME="$JDK" "$ROOT/mvnw" -q -f "$ROOT/pom.xml" -pl sj-examples -am package -DskipTests \
            dependency:build-classpath -Dmdep.outputFile=target/sj-classpath.txt >"$log" 2>&1; then
        cat "$log" >&2
        echo "sj: build failed (log above, also in $log)" >&2
        exit 1
    fi
    { echo -n "$ROOT/sj-examples/target/classes:"; cat "$ROOT/sj-examples/target/sj-classpath.txt"; } > "$CLASSPATH_FILE.tmp"
    mv "$CLASSPATH_FILE.tmp" "$CLASSPATH_FILE"
fi

exec "$JDK/bin/java" "${JAVA_OPTS[@]}" ${SJ_JAVA_OPTS:-} -cp "$(cat "$CLASSPATH_FILE")" "$MAIN_CLASS" "$@"
