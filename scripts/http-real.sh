#!/usr/bin/env bash
# The http transport's real-component tests: a real nginx in front of the relay, and a real firewall
# (network namespaces sjhttp-*, 10.201.0.0/24, nftables). Installs nginx-light and nftables through
# scripts/http-nginx.sh and scripts/http-firewall.sh (idempotent), tears everything down after.
# Needs root. About a minute on top of the build.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ "$(id -u)" = 0 ] || { echo "http-real: run as root (namespaces, nftables, apt-get)" >&2; exit 1; }
trap '"$ROOT/scripts/http-firewall.sh" down >/dev/null 2>&1 || true' EXIT
cd "$ROOT"
./mvnw -q -Phttp-real -pl sj-transport-http -am verify -Dtest='*RealTest' -Dsurefire.failIfNoSpecifiedTests=false "$@"
grep -h "Tests run" sj-transport-http/target/surefire-reports/*RealTest.txt
grep -h "firewall test client" sj-transport-http/target/surefire-reports/*FirewallRealTest-output.txt 2>/dev/null || true
