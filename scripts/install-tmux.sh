#!/usr/bin/env bash
# Installs tmux (Debian package) when it is missing; the chat terminal test drives ./sj chat client in it.
# Idempotent: does nothing when tmux is on the PATH.
set -euo pipefail
if command -v tmux >/dev/null 2>&1; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "install-tmux.sh: tmux is missing and installing it needs root (apt-get install tmux)" >&2
    exit 1
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tmux >/dev/null
command -v tmux >/dev/null
