#!/usr/bin/env bash
# The firewall of the chat's real-network test (ChatFirewallRealTest, scripts/chat-real.sh): the layout
# of scripts/http-firewall.sh under names and addresses of its own, so both suites can run at once:
#
#   sjchat-client  10.202.0.2   a chat client that may reach only ports 80 and 443 of the relay
#                               (nftables, policy drop; answers on connections made to it still go out)
#   sjchat-relay   10.202.0.3   the relay (./sj relay) on port 80
#   sjchat-server  10.202.0.4   the chat server, and a chat client on tcp beside it
#
# Same commands: install | up | lift | block | down | run NS CMD...
set -euo pipefail
SJ_NET_PREFIX=sjchat SJ_NET_SUBNET=10.202.0 exec "$(dirname "${BASH_SOURCE[0]}")/http-firewall.sh" "$@"
