#!/usr/bin/env bash
# The fault suite (docs/reliability.md, "Fault tests"): peer JVMs killed (kill -9) and frozen
# (SIGSTOP) mid-session on tcp, tls and ipc; a reader that stops reading; 10,000 sessions in a row; a
# thousand idle connections next to a real client; a full shared-memory directory (a small tmpfs the
# test mounts itself; skipped without root); TLS handshake floods against tls, https and the relay. Each test checks a bounded detection time and that no
# threads, file descriptors, direct memory or ipc files are left behind.
#
#   scripts/faults.sh [-Dtest=PeerFaultTest ...]     extra arguments go to Maven
#
# The suite runs twice: with TCP on Netty's event loops, then with blocking sockets (sessionj.tcp.io=blocking);
# sj-transport-http's part (https and the relay) runs once.
# Measured times are printed as "FAULTS ..." lines; they are collected in target/faults/figures.txt.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p target/faults
# Only the fault tests run (the modules the suite needs are built, not tested); -Dtest=... narrows it.
tests=(-Dtest='*FaultTest')
for arg in "$@"; do
    case $arg in -Dtest=*) tests=() ;; esac
done
./mvnw -Pfaults -pl sj-transport-netty,sj-transport-http -am verify -Dsurefire.failIfNoSpecifiedTests=false "${tests[@]}" "$@" \
    2>&1 | tee target/faults/maven.log
status=${PIPESTATUS[0]}
# The suite runs twice (the second time with sessionj.tcp.io=blocking); each run's figures, labelled.
{
    grep -h '^FAULTS ' sj-transport-netty/target/surefire-reports/*-output.txt 2>/dev/null
    grep -h '^FAULTS ' sj-transport-http/target/surefire-reports/*-output.txt 2>/dev/null
    grep -h '^FAULTS ' sj-transport-netty/target/surefire-reports-tcp-blocking/*-output.txt 2>/dev/null \
        | sed 's/^FAULTS /FAULTS [tcp.io=blocking] /'
} | tee target/faults/figures.txt
exit "$status"
