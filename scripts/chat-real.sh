#!/usr/bin/env bash
# The chat across a real firewall (ChatFirewallRealTest): network namespaces sjchat-*, 10.202.0.0/24,
# nftables (scripts/chat-firewall.sh installs nftables/iproute2 if missing); ./sj relay, ./sj chat server
# and two chat clients, one of them allowed to reach only the relay. Needs root. Tears everything down.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ "$(id -u)" = 0 ] || { echo "chat-real: run as root (namespaces, nftables, apt-get)" >&2; exit 1; }
trap '"$ROOT/scripts/chat-firewall.sh" down >/dev/null 2>&1 || true' EXIT
cd "$ROOT"
./mvnw -q -Pchat-real -pl sj-examples -am verify -Dtest='ChatFirewallRealTest' -Dsurefire.failIfNoSpecifiedTests=false "$@"
grep -h "Tests run" sj-examples/target/surefire-reports/*ChatFirewallRealTest.txt
