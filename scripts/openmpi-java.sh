#!/usr/bin/env bash
# Open MPI's Java bindings on Debian: installs openmpi-bin and libopenmpi-dev when missing and builds
# the mpi.jar Debian does not ship (it ships libmpi_java.so and mpijavac, not the jar) from Debian's
# own source package of the installed Open MPI version, with the JDK 21+ that ./sj uses.
#
#   sudo scripts/openmpi-java.sh        # prints the path of mpi.jar on stdout
#
# Idempotent: every step already done is skipped (a second run only prints the path). The jar lives in
# ${SJ_CACHE:-/var/cache/sessionj}/openmpi-java/openmpi-VERSION/mpi.jar, so an upgraded Open MPI gets
# its own jar. JDK: $JDK when it names a JDK 21+, else the one ./sj finds. Needs root only to install
# packages and to write the default cache. The source comes through apt's ordinary client with a
# private configuration (the system's deb entries as deb-src, private lists, no system file touched).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${SJ_CACHE:-/var/cache/sessionj}/openmpi-java"

die() { echo "openmpi-java: $*" >&2; exit 1; }
as_root() { [ "$(id -u)" -eq 0 ] || die "$1 needs root"; }
quiet_apt() {  # apt-get ARGS…, its output shown only when it fails
    local log
    log=$(DEBIAN_FRONTEND=noninteractive apt-get "$@" 2>&1) || { tail -n 20 <<<"$log" >&2; return 1; }
}
first() { echo "$1"; }   # the first match of a glob (the glob itself when nothing matches)
installed() { [ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" = installed ]; }

install_openmpi() {
    installed openmpi-bin && installed libopenmpi-dev && return 0
    as_root "installing openmpi-bin and libopenmpi-dev"
    echo "openmpi-java: installing Open MPI from Debian (openmpi-bin libopenmpi-dev) ..." >&2
    quiet_apt update -q || die "apt-get update failed"
    quiet_apt install -y -q --no-install-recommends openmpi-bin libopenmpi-dev ||
        die "apt-get install openmpi-bin libopenmpi-dev failed"
}

# The JDK 21+ ./sj would use (its own find_jdk), unless $JDK already names one.
java_home() {
    if [ -n "${JDK:-}" ] && [ -x "$JDK/bin/javac" ] && [ -x "$JDK/bin/jar" ]; then
        local major
        major=$("$JDK/bin/javac" -version 2>&1 | sed -n 's/^javac \([0-9]*\).*/\1/p')
        if [ "${major:-0}" -ge 21 ]; then echo "$JDK"; return 0; fi
    fi
    bash -c 'source <(sed -n "/^jdk_major()/,/^}/p;/^find_jdk()/,/^}/p" "$0"); find_jdk' "$ROOT/sj" ||
        die "no JDK 21 or newer found (looked where ./sj looks: JAVA_HOME, /usr/lib/jvm, ...)"
}

# The system's deb entries as deb-src entries, in a private sources directory ($1).
write_deb_src() {
    local dir="$1" f
    mkdir -p "$dir"
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] && sed 's/^Types:.*/Types: deb-src/' "$f" > "$dir/$(basename "$f")"
    done
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -f "$f" ] && sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p' "$f" > "$dir/$(basename "$f").list"
    done
    return 0
}

# Downloads Debian's source package openmpi=$1 into $2/src and leaves the Java sources of the bindings,
# with any Debian patch touching them applied, in $2/src/java.
fetch_java_sources() {
    local version="$1" tmp="$2" apt_opts orig
    apt_opts=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$tmp/sources"
              -o "Dir::State::Lists=$tmp/lists" -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache=)
    write_deb_src "$tmp/sources"
    mkdir -p "$tmp/lists/partial" "$tmp/src"
    chmod 755 "$tmp"
    [ "$(id -u)" -ne 0 ] || ! id _apt >/dev/null 2>&1 || chown _apt "$tmp/src"   # root's apt downloads as _apt
    echo "openmpi-java: downloading Debian's source package openmpi $version ..." >&2
    quiet_apt "${apt_opts[@]}" update -q || die "apt-get update (deb-src) failed"
    (cd "$tmp/src" && quiet_apt "${apt_opts[@]}" source --download-only -q "openmpi=$version") ||
        die "apt-get source --download-only openmpi=$version failed"
    command -v xz >/dev/null || quiet_apt install -y -q --no-install-recommends xz-utils ||
        die "apt-get install xz-utils (to unpack the source) failed"
    orig=$(first "$tmp/src"/openmpi_*.orig.tar.*)
    [ -f "$orig" ] || die "the source package has no openmpi_*.orig.tar.* (found: $(ls "$tmp/src"))"
    mkdir -p "$tmp/src/tree"
    tar -xf "$orig" -C "$tmp/src/tree" --strip-components=1 --wildcards '*/ompi/mpi/java/java/*.java' ||
        die "no ompi/mpi/java/java/*.java in $(basename "$orig")"
    apply_debian_patches "$tmp/src"
    mv "$tmp/src/tree/ompi/mpi/java/java" "$tmp/src/java"
}

# Debian's quilt patches that touch the Java bindings (none in 4.1.4-3), applied in series order.
apply_debian_patches() {
    local src="$1" debian patch
    debian=$(first "$src"/openmpi_*.debian.tar.*)
    [ -f "$debian" ] || return 0
    tar -xf "$debian" -C "$src" debian/patches 2>/dev/null || return 0
    [ -f "$src/debian/patches/series" ] || return 0
    while read -r patch _; do
        case "$patch" in ''|'#'*) continue ;; esac
        grep -q '^+++ [^ ]*ompi/mpi/java/java/' "$src/debian/patches/$patch" || continue
        command -v patch >/dev/null || quiet_apt install -y -q --no-install-recommends patch ||
            die "apt-get install patch failed (Debian patch $patch touches the Java bindings)"
        patch -s -p1 -d "$src/tree" < "$src/debian/patches/$patch" >&2 ||
            die "Debian patch $patch does not apply to the Java bindings"
    done < "$src/debian/patches/series"
}

build_jar() {
    local jar="$1" version="$2" jdk tmp
    jdk=$(java_home)
    mkdir -p "$(dirname "$jar")" 2>/dev/null || die "cannot create the cache directory $(dirname "$jar") (run as root or set SJ_CACHE)"
    tmp=$(mktemp -d)
    # shellcheck disable=SC2064
    trap "rm -rf '$tmp'" EXIT
    fetch_java_sources "$version" "$tmp"
    echo "openmpi-java: compiling the bindings with $jdk (--release 21) ..." >&2
    mkdir -p "$tmp/classes"
    "$jdk/bin/javac" --release 21 -nowarn -Xlint:none -encoding UTF-8 -d "$tmp/classes" "$tmp/src/java"/*.java \
        >"$tmp/javac.log" 2>&1 || { tail -n 20 "$tmp/javac.log" >&2; die "javac failed on Open MPI's Java sources"; }
    [ -f "$tmp/classes/mpi/MPI.class" ] || die "javac produced no mpi/MPI.class"
    "$jdk/bin/jar" --create --file "$tmp/mpi.jar" -C "$tmp/classes" mpi || die "jar failed"
    mv -f "$tmp/mpi.jar" "$jar"       # atomic: a concurrent reader sees no half-written jar
}

install_openmpi
VERSION=$(dpkg-query -W -f='${source:Version}' openmpi-bin) || die "cannot read the version of openmpi-bin"
LIBDIR=$(ompi_info --parsable --path libdir | sed -n 's/^path:libdir://p')
[ -e "$LIBDIR/libmpi_java.so" ] || die "Open MPI $VERSION has no Java bindings ($LIBDIR/libmpi_java.so missing)"
JAR="$CACHE/openmpi-$VERSION/mpi.jar"
[ -s "$JAR" ] || build_jar "$JAR" "$VERSION"
echo "$JAR"
