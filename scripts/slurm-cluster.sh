#!/usr/bin/env bash
# A throw-away Slurm cluster on this machine, for running the demos under srun.
#
#   scripts/slurm-cluster.sh up [1|2]     start one node, or two nodes in network namespaces
#   scripts/slurm-cluster.sh srun ARGS…   run srun inside the cluster (ARGS as for srun)
#   scripts/slurm-cluster.sh status       sinfo
#   scripts/slurm-cluster.sh down         stop every daemon, remove namespaces and state
#
# Installs Slurm from Debian packages when missing (idempotent). Needs root (apt-get, ip netns).
# Two nodes: namespaces sj-n1 (10.200.0.1) and sj-n2 (10.200.0.2) joined by a veth pair; the
# controller and node n1 live in sj-n1, node n2 in sj-n2; srun runs from sj-n1.
set -euo pipefail

DIR="${SJ_CLUSTER_DIR:-/tmp/sj-slurm}"
CONF="$DIR/slurm.conf"
NS1=sj-n1 NS2=sj-n2
IP1=10.200.0.1 IP2=10.200.0.2

die() { echo "slurm-cluster: $*" >&2; exit 1; }

install_slurm() {
    command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v srun >/dev/null && return 0
    [ "$(id -u)" -eq 0 ] || die "Slurm is not installed and installing it needs root"
    echo "slurm-cluster: installing Slurm from Debian packages ..." >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq --no-install-recommends slurmctld slurmd slurm-client >/dev/null
}

in_ns() { # run "$@" in namespace $1 (or here when $1 is empty)
    local ns="$1"; shift
    if [ -n "$ns" ]; then nsenter --net="/run/netns/$ns" "$@"; else "$@"; fi
}

write_conf() {
    local nodes="$1" host ctl_addr node_lines node_names
    host=$(hostname -s)
    if [ "$nodes" = 1 ]; then
        ctl_addr=127.0.0.1
        node_lines="NodeName=$host NodeAddr=127.0.0.1 CPUs=4 Boards=1 SocketsPerBoard=1 CoresPerSocket=4 ThreadsPerCore=1 RealMemory=1000"
        node_names=$host
    else
        ctl_addr=$IP1
        node_lines="NodeName=n1 NodeAddr=$IP1 NodeHostname=$host CPUs=4 Boards=1 SocketsPerBoard=1 CoresPerSocket=4 ThreadsPerCore=1 RealMemory=1000
NodeName=n2 NodeAddr=$IP2 NodeHostname=$host CPUs=4 Boards=1 SocketsPerBoard=1 CoresPerSocket=4 ThreadsPerCore=1 RealMemory=1000"
        node_names=n1,n2
    fi
    mkdir -p "$DIR/state" "$DIR/spool"
    cat > "$CONF" <<CONF
ClusterName=sj
SlurmctldHost=$host($ctl_addr)
AuthType=auth/none
CredType=cred/none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmUser=root
SlurmdUser=root
SlurmdParameters=config_overrides
ReturnToService=2
MpiDefault=none
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool/%n
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd-%n.pid
SlurmctldLogFile=$DIR/slurmctld.log
SlurmdLogFile=$DIR/slurmd-%n.log
TmpFS=$DIR/tmp-%n
$node_lines
PartitionName=debug Nodes=$node_names Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
CONF
    echo "$nodes" > "$DIR/nodes"
}

make_namespaces() {
    ip netns add "$NS1"; ip netns add "$NS2"
    ip link add sj-veth1 type veth peer name sj-veth2
    ip link set sj-veth1 netns "$NS1"; ip link set sj-veth2 netns "$NS2"
    ip -n "$NS1" addr add "$IP1/24" dev sj-veth1; ip -n "$NS2" addr add "$IP2/24" dev sj-veth2
    for ns in "$NS1" "$NS2"; do ip -n "$ns" link set lo up; done
    ip -n "$NS1" link set sj-veth1 up; ip -n "$NS2" link set sj-veth2 up
}

ctl_ns() { [ "$(cat "$DIR/nodes" 2>/dev/null)" = 2 ] && echo "$NS1" || echo ""; }

up() {
    local nodes="${1:-1}"
    [ "$nodes" = 1 ] || [ "$nodes" = 2 ] || die "expected 1 or 2 nodes but found '$nodes'"
    install_slurm
    down >/dev/null 2>&1 || true
    mkdir -p "$DIR"
    write_conf "$nodes"
    export SLURM_CONF="$CONF"
    if [ "$nodes" = 1 ]; then
        mkdir -p "$DIR/spool/$(hostname -s)" "$DIR/tmp-$(hostname -s)"
        slurmctld -i -f "$CONF"
        slurmd -f "$CONF"
    else
        mkdir -p "$DIR/spool/n1" "$DIR/spool/n2" "$DIR/tmp-n1" "$DIR/tmp-n2"
        make_namespaces
        in_ns "$NS1" slurmctld -i -f "$CONF"
        in_ns "$NS1" slurmd -f "$CONF" -N n1
        in_ns "$NS2" slurmd -f "$CONF" -N n2
    fi
    local i
    for i in $(seq 1 100); do  # up to 10 s for every node to report idle
        if [ "$(in_ns "$(ctl_ns)" sinfo -h -o %T 2>/dev/null | grep -c idle)" -ge 1 ] &&
           ! in_ns "$(ctl_ns)" sinfo -h -o %T 2>/dev/null | grep -qv idle; then
            echo "slurm-cluster: $nodes node(s) up (SLURM_CONF=$CONF)" >&2
            return 0
        fi
        sleep 0.1
    done
    in_ns "$(ctl_ns)" sinfo >&2 || true
    die "nodes did not become idle; logs in $DIR"
}

down() {
    local pidfile pids="" i pid alive
    for pidfile in "$DIR"/slurmd-*.pid "$DIR"/slurmctld.pid; do
        [ -f "$pidfile" ] && pids="$pids $(cat "$pidfile")"
    done
    pids="$pids $(pgrep -f "slurm(ctld|d) .*-f $CONF" || true)"
    # shellcheck disable=SC2086
    [ -z "${pids// /}" ] || kill $pids 2>/dev/null || true
    pkill -9 -f slurmstepd 2>/dev/null || true  # a leftover step daemon ignores SIGTERM
    for i in $(seq 1 50); do  # up to 5 s for the daemons to finish writing their state
        alive=0
        for pid in $pids; do kill -0 "$pid" 2>/dev/null && alive=1; done
        [ "$alive" = 0 ] && break
        sleep 0.1
    done
    ip netns del "$NS1" 2>/dev/null || true
    ip netns del "$NS2" 2>/dev/null || true
    rm -rf "$DIR"
    echo "slurm-cluster: down" >&2
}

cmd="${1:-}"; shift || true
case "$cmd" in
    up) up "$@" ;;
    down) down ;;
    srun) [ -f "$CONF" ] || die "no cluster is up (run: $0 up)"
          SLURM_CONF="$CONF" in_ns "$(ctl_ns)" srun "$@" ;;
    status) [ -f "$CONF" ] || die "no cluster is up"; SLURM_CONF="$CONF" in_ns "$(ctl_ns)" sinfo ;;
    *) die "usage: $0 up [1|2] | srun ARGS... | status | down" ;;
esac
