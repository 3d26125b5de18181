#!/usr/bin/env bash
# A firewall for the http transport's real-component tests: three network namespaces on one bridge
# (in a namespace of its own; the host's network is not touched), addresses in 10.201.0.0/24 only:
#
#   sjhttp-client  10.201.0.2   may reach only ports 80 and 443 of the relay (nftables, policy drop)
#   sjhttp-relay   10.201.0.3   the relay listens on port 80
#   sjhttp-server  10.201.0.4   the SJ server; reaches the relay like anyone
#
#   scripts/http-firewall.sh install   # Debian's nftables and iproute2, once (idempotent)
#   scripts/http-firewall.sh up        # namespaces, bridge, addresses, firewall (idempotent: down first)
#   scripts/http-firewall.sh lift      # remove the client's firewall (the same program then goes direct)
#   scripts/http-firewall.sh block     # put it back
#   scripts/http-firewall.sh down      # remove everything this script made
#   scripts/http-firewall.sh run NS CMD...   # run CMD in namespace sjhttp-NS
#
# Dropped packets (not rejected): a blocked connect hangs, as behind a real firewall, so the test
# shows that the requester falls back to the relay within sessionj.setupAttemptTimeout.
#
# SJ_NET_PREFIX (default sjhttp) and SJ_NET_SUBNET (default 10.201.0) give another suite the same
# layout under names and addresses of its own (scripts/chat-firewall.sh: sjchat-*, 10.202.0.0/24).
set -euo pipefail

P="${SJ_NET_PREFIX:-sjhttp}"
NET="${SJ_NET_SUBNET:-10.201.0}"
V="${P:0:3}"                     # veth names: sjh-client, sjh-client-br (at most 15 characters)
NAMESPACES=(client relay server)
declare -A ADDRESS=([client]=$NET.2 [relay]=$NET.3 [server]=$NET.4)
BRIDGE_NS=$P-net

need_root() {
    [ "$(id -u)" = 0 ] || { echo "$P-firewall: needs root (network namespaces, nftables)" >&2; exit 1; }
}

install_tools() {
    need_root
    if command -v nft >/dev/null && command -v ip >/dev/null && command -v nsenter >/dev/null; then
        return 0
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq --no-install-recommends nftables iproute2 util-linux >/dev/null
}

block() {
    nsenter --net=/run/netns/$P-client nft -f - <<NFT
table inet $P
delete table inet $P
table inet $P {
    chain output {
        type filter hook output priority 0; policy drop;
        oif "lo" accept
        ct state established,related accept
        ip daddr ${ADDRESS[relay]} tcp dport { 80, 443 } accept
    }
}
NFT
}

lift() {
    nsenter --net=/run/netns/$P-client nft delete table inet $P 2>/dev/null || true
}

down() {
    need_root
    for ns in "${NAMESPACES[@]}" net; do
        ip netns del "$P-$ns" 2>/dev/null || true
    done
}

up() {
    install_tools
    down
    ip netns add "$BRIDGE_NS"
    ip -n "$BRIDGE_NS" link add br0 type bridge
    ip -n "$BRIDGE_NS" link set br0 up
    for ns in "${NAMESPACES[@]}"; do
        ip netns add "$P-$ns"
        ip link add "$V-$ns" type veth peer name "$V-$ns-br"
        ip link set "$V-$ns" netns "$P-$ns"
        ip link set "$V-$ns-br" netns "$BRIDGE_NS"
        ip -n "$BRIDGE_NS" link set "$V-$ns-br" master br0 up
        ip -n "$P-$ns" addr add "${ADDRESS[$ns]}/24" dev "$V-$ns"
        ip -n "$P-$ns" link set "$V-$ns" up
        ip -n "$P-$ns" link set lo up
    done
    block
    echo "$P-firewall: up (client ${ADDRESS[client]} -> only relay ${ADDRESS[relay]}:80/443; server ${ADDRESS[server]})"
}

case "${1:-}" in
    install) install_tools ;;
    up) up ;;
    down) down ;;
    lift) need_root; lift ;;
    block) need_root; block ;;
    run) need_root; shift; ns="$1"; shift; exec nsenter --net="/run/netns/$P-$ns" "$@" ;;
    *) echo "usage: $0 install | up | lift | block | down | run NS CMD..." >&2; exit 2 ;;
esac
