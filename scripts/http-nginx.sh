#!/usr/bin/env bash
# An nginx reverse proxy in front of an SJ relay, for the http transport's real-component tests.
# Never touches a system nginx: its own prefix directory, config, pid file and loopback port.
#
#   scripts/http-nginx.sh install                         # Debian's nginx-light, once (idempotent)
#   scripts/http-nginx.sh start DIR PORT UPSTREAM_PORT [READ_TIMEOUT] [--websocket]
#   scripts/http-nginx.sh stop DIR
#
# start writes DIR/nginx.conf: a stock reverse proxy (proxy_pass, nothing else: HTTP/1.0 to the
# upstream, request and response buffering on, client_max_body_size 1m) listening on 127.0.0.1:PORT,
# with proxy_read_timeout READ_TIMEOUT (default 60s, nginx's own default). --websocket adds the
# upgrade headers of nginx's WebSocket proxying guide; without it WebSocket upgrades do not pass.
set -euo pipefail

NGINX=/usr/sbin/nginx

install_nginx() {
    if [ -x "$NGINX" ]; then
        return 0
    fi
    if [ "$(id -u)" != 0 ]; then
        echo "http-nginx: nginx is not installed and installing it needs root (apt-get install nginx-light)" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    # --no-install-recommends; policy-rc.d keeps the package from starting the system nginx.
    local policy=/usr/sbin/policy-rc.d created=0
    if [ ! -e "$policy" ]; then
        printf '#!/bin/sh\nexit 101\n' > "$policy" && chmod +x "$policy" && created=1
    fi
    apt-get install -y -qq --no-install-recommends nginx-light >/dev/null
    [ "$created" = 1 ] && rm -f "$policy"
    [ -x "$NGINX" ] || { echo "http-nginx: nginx did not install" >&2; exit 1; }
}

start_nginx() {
    local dir="$1" port="$2" upstream="$3" timeout="${4:-60s}" websocket="${5:-}"
    install_nginx
    mkdir -p "$dir/logs" "$dir/tmp"
    local upgrade=""
    if [ "$websocket" = "--websocket" ]; then
        upgrade='
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection "upgrade";'
    fi
    cat > "$dir/nginx.conf" <<CONF
daemon on;
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/logs/error.log warn;
events { worker_connections 1024; }
http {
    access_log $dir/logs/access.log;
    client_body_temp_path $dir/tmp/body;
    proxy_temp_path $dir/tmp/proxy;
    fastcgi_temp_path $dir/tmp/fastcgi;
    uwsgi_temp_path $dir/tmp/uwsgi;
    scgi_temp_path $dir/tmp/scgi;
    server {
        listen 127.0.0.1:$port;
        location / {
            proxy_pass http://127.0.0.1:$upstream;
            proxy_read_timeout $timeout;$upgrade
        }
    }
}
CONF
    "$NGINX" -p "$dir" -c "$dir/nginx.conf" -t -q
    "$NGINX" -p "$dir" -c "$dir/nginx.conf"
    # Ready when the pid file is there and the port answers.
    for _ in $(seq 1 100); do
        if [ -s "$dir/nginx.pid" ] && (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            echo "http-nginx: listening on 127.0.0.1:$port -> 127.0.0.1:$upstream (read timeout $timeout${websocket:+, websocket})"
            return 0
        fi
        sleep 0.05
    done
    echo "http-nginx: nginx did not come up; see $dir/logs/error.log" >&2
    exit 1
}

stop_nginx() {
    local dir="$1"
    [ -s "$dir/nginx.pid" ] || return 0
    local pid
    pid=$(cat "$dir/nginx.pid")
    "$NGINX" -p "$dir" -c "$dir/nginx.conf" -s quit 2>/dev/null || kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do
        kill -0 "$pid" 2>/dev/null || { rm -f "$dir/nginx.pid"; return 0; }
        sleep 0.05
    done
    kill -9 "$pid" 2>/dev/null || true
    rm -f "$dir/nginx.pid"
}

case "${1:-}" in
    install) install_nginx ;;
    start) shift; [ $# -ge 3 ] || { echo "usage: $0 start DIR PORT UPSTREAM_PORT [TIMEOUT] [--websocket]" >&2; exit 2; }
        start_nginx "$@" ;;
    stop) shift; [ $# -eq 1 ] || { echo "usage: $0 stop DIR" >&2; exit 2; }; stop_nginx "$1" ;;
    *) echo "usage: $0 install | start DIR PORT UPSTREAM_PORT [TIMEOUT] [--websocket] | stop DIR" >&2; exit 2 ;;
esac
