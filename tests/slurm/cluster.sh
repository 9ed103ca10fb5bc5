#!/usr/bin/env bash
# cluster.sh: a real single-node Slurm cluster for tests, without systemd. Debian's munged,
# slurmctld and slurmd run in the background as the calling user (root on CI), configured for
# this host with proctrack/linuxproc, task/none, no accounting database (but a job completion log,
# jobcomp/filetxt, that sacct --completion reads), and one "gpu" GRES on
# the node (the PoCL device stands for it: --gres=gpu:1 makes array tasks take turns on it).
# Everything lives in DIR: munge key and socket, slurm.conf, state, spool, logs, pids.
#
#   cluster.sh start DIR   install what is missing (apt), write the config, start the daemons,
#                          wait until the node is idle; prints "export SLURM_CONF=DIR/slurm.conf"
#   cluster.sh stop DIR    stop slurmd, slurmctld and munged (their pids from DIR)
#   cluster.sh check       exit 0 when this machine can run the daemons, else print why and exit 77
set -euo pipefail

die() { echo "cluster.sh: $*" >&2; exit 1; }
cmd=${1:-}
dir=${2:-}

# The daemons need the binaries and, to start as root-owned services, root (or the right to
# write their own state dirs and bind ports, which a user account has too). A container without
# /proc/sys or with forbidden setsid would fail below with the daemons' own logs shown.
check() {
    local missing=()
    for b in munged slurmctld slurmd sbatch squeue scancel scontrol; do
        command -v "$b" >/dev/null 2>&1 || missing+=("$b")
    done
    if ((${#missing[@]})) && [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q slurm-wlm munge >/dev/null 2>&1 || true
        missing=()
        for b in munged slurmctld slurmd sbatch squeue scancel scontrol; do
            command -v "$b" >/dev/null 2>&1 || missing+=("$b")
        done
    fi
    if ((${#missing[@]})); then
        echo "cannot run Slurm here: missing ${missing[*]} (apt-get install slurm-wlm munge)"
        return 77
    fi
    [[ -d /proc/self ]] || { echo "cannot run Slurm here: no /proc (proctrack/linuxproc)"; return 77; }
    return 0
}

free_port() {
    python3 - <<'EOF'
import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()
EOF
}

start() {
    [[ -n $dir ]] || die "usage: cluster.sh start DIR"
    check >&2 || exit $?
    mkdir -p "$dir"/{munge,state,spool,log,run}
    dir=$(cd "$dir" && pwd)
    chmod 700 "$dir/munge"
    # munge: a fresh key, our own socket (clients find it through AuthInfo below).
    dd if=/dev/urandom of="$dir/munge/munge.key" bs=1 count=1024 status=none
    chmod 400 "$dir/munge/munge.key"
    munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
        --pid-file="$dir/run/munged.pid" --log-file="$dir/log/munged.log" \
        --seed-file="$dir/munge/munge.seed" ||
        die "munged did not start: $(tail -n 3 "$dir/log/munged.log" 2>/dev/null)"

    local host node ctldport dport cpus mem user
    host=$(hostname -s)
    node=beamscope-node
    ctldport=$(free_port)
    dport=$(free_port)
    cpus=$(nproc)
    mem=$(($(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 / 2))
    user=$(id -un)
    cat >"$dir/gres.conf" <<EOF
Name=gpu Count=1 File=/dev/null
EOF
    cat >"$dir/slurm.conf" <<EOF
# Beamscope's single-node test cluster (tests/slurm/cluster.sh); see docs/cluster.md.
ClusterName=beamscope-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctldport
SlurmdPort=$dport
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/log/jobcomp.txt
MpiDefault=none
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=1
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
GresTypes=gpu
ReturnToService=2
MinJobAge=${BEAMSCOPE_SLURM_MIN_JOB_AGE:-600}
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=2
NodeName=$node NodeHostname=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem Gres=gpu:1 State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=60 State=UP
EOF
    export SLURM_CONF=$dir/slurm.conf
    slurmctld -c -i >/dev/null 2>&1 || die "slurmctld did not start: $(tail -n 3 "$dir/log/slurmctld.log")"
    slurmd -N "$node" >/dev/null 2>&1 || die "slurmd did not start: $(tail -n 3 "$dir/log/slurmd.log")"
    for _ in $(seq 1 60); do
        if sinfo -h -N -o '%T' 2>/dev/null | grep -qx idle; then
            echo "export SLURM_CONF=$dir/slurm.conf"
            return 0
        fi
        sleep 0.5
    done
    echo "--- slurmctld.log" >&2; tail -n 15 "$dir/log/slurmctld.log" >&2 || true
    echo "--- slurmd.log" >&2; tail -n 15 "$dir/log/slurmd.log" >&2 || true
    stop
    die "the node did not become idle in 30 s"
}

stop() {
    [[ -n $dir ]] || die "usage: cluster.sh stop DIR"
    local p
    for d in slurmd slurmctld munged; do
        if [[ -f $dir/run/$d.pid ]]; then
            p=$(cat "$dir/run/$d.pid")
            kill "$p" 2>/dev/null || true
            for _ in $(seq 1 40); do kill -0 "$p" 2>/dev/null || break; sleep 0.25; done
            kill -9 "$p" 2>/dev/null || true
            rm -f "$dir/run/$d.pid"
        fi
    done
}

case $cmd in
start) start ;;
stop) stop ;;
check) check ;;
*) die "usage: cluster.sh start|stop DIR | check" ;;
esac
