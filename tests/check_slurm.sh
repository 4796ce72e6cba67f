#!/bin/sh
# "ptxemu sweep --slurm" on a real Slurm: a one-node cluster on localhost
# (munged, slurmctld and slurmd started here in the background, no
# systemd; 2 CPUs, one partition), a sweep of 2 workloads x 3 L2 sizes
# submitted as one job array, collected and checked with SQL; then a second
# sweep is cancelled (scancel) after its first points and a rerun must run
# only the missing ones.  Everything is torn down at the end.
#
# It needs root and Debian's slurm-wlm and munge: installed with apt-get
# when missing.  Skips (77) when not root or neither the packages nor
# apt-get are there; .ci/run (root) must see it pass.  Not in "make check".
# PTXEMU_SLURM_TEST=0 skips it anywhere.
. "$srcdir/tests/lib.sh"
[ "${PTXEMU_SLURM_TEST:-1}" = 0 ] && { echo "SKIP: PTXEMU_SLURM_TEST=0"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIP: not root (a Slurm cluster needs root to start)"; exit 77; }
if ! command -v slurmctld >/dev/null 2>&1 || ! command -v slurmd >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1 || ! command -v sbatch >/dev/null 2>&1; then
  command -v apt-get >/dev/null 2>&1 || { echo "SKIP: no Slurm and no apt-get to install it"; exit 77; }
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null 2>&1 ||
    { apt-get update -qq >/dev/null 2>&1; apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null 2>&1; } ||
    { echo "SKIP: apt-get could not install slurm-wlm and munge"; exit 77; }
fi
need_sqlite3
PATH=$PATH:/usr/sbin:/sbin

tmp=$(mktemp -d /tmp/ptxemu-slurm.XXXXXX)
chmod 755 "$tmp"
pids=""
teardown() {
  # the cluster's jobs first: cancelled, and their step daemons (one
  # socket each in the spool folder) gone, before the daemons are stopped
  if [ -n "${SLURM_CONF:-}" ]; then
    scancel --full --quiet --user=root 2>/dev/null
    for i in $(seq 1 60); do
      [ -z "$(squeue -h 2>/dev/null)" ] && [ -z "$(ls "$tmp/spool" 2>/dev/null | grep '_')" ] && break
      sleep 1
    done
  fi
  for p in $pids; do kill "$p" 2>/dev/null; done
  sleep 1
  for p in $pids; do kill -9 "$p" 2>/dev/null; done
  rm -rf "$tmp"
}
trap teardown EXIT
trap 'exit 1' INT TERM

# ---- munge: a key and a socket of our own --------------------------------
mkdir -p "$tmp/munge" && chmod 700 "$tmp/munge"
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$tmp/munge/munge.key"
munged --force --key-file="$tmp/munge/munge.key" --socket="$tmp/munge/munge.sock" --pid-file="$tmp/munge/munged.pid" \
  --log-file="$tmp/munge/munged.log" --seed-file="$tmp/munge/munged.seed" || { bad "munged did not start"; cat "$tmp/munge/munged.log"; finish; exit 1; }
sleep 0.5
pids="$(cat "$tmp/munge/munged.pid")"

# ---- slurm.conf: localhost, 2 CPUs, partition "sweep" -------------------
port=$((20000 + $$ % 20000))
mkdir -p "$tmp/state" "$tmp/spool"
export SLURM_CONF="$tmp/slurm.conf"
cat > "$SLURM_CONF" <<EOF
ClusterName=ptxemutest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge/munge.sock
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SlurmdTimeout=60
MaxArraySize=1001
NodeName=localhost NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=sweep Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -D -i -f "$SLURM_CONF" >"$tmp/slurmctld.out" 2>&1 &
pids="$pids $!"
slurmd -D -N localhost -f "$SLURM_CONF" >"$tmp/slurmd.out" 2>&1 &
pids="$pids $!"
# the node is up when sinfo says idle
up=no
for i in $(seq 1 60); do
  if sinfo -h -N -o '%T' 2>/dev/null | grep -q '^idle'; then up=yes; break; fi
  sleep 1
done
if [ "$up" != yes ]; then
  bad "the one-node cluster did not come up"
  tail -20 "$tmp/slurmctld.log" "$tmp/slurmd.log" "$tmp/slurmctld.out" "$tmp/slurmd.out" 2>/dev/null
  finish; exit 1
fi
ok

# wait for job $1 to leave the queue (at most $2 seconds)
wait_job() {
  for i in $(seq 1 "$2"); do
    [ -z "$(squeue -h -j "$1" 2>/dev/null)" ] && return 0
    sleep 1
  done
  return 1
}

# ---- a sweep: 2 workloads x 3 L2 sizes, one array task per point --------
src=$(cd "$srcdir" && pwd)
mkdir -p "$tmp/w"
cp "$src/tests/sweep/spin.ptx" "$src/tests/sweep/spin.launch" "$tmp/w/"
sed 's/^arg u32 200$/arg u32 2000/; /^expect/d' "$src/tests/sweep/spin.launch" > "$tmp/w/spin2k.launch"
cat > "$tmp/w/s.spec" <<EOF
launch spin spin.launch
launch spin2k spin2k.launch
param l2_bytes 1M..4M *2
baseline l2_bytes=4194304
EOF
t0=$(date +%s.%N)
out=$("$PTXEMU" sweep "$tmp/w/s.spec" "$tmp/run" --slurm --partition=sweep 2>&1)
job=$(echo "$out" | sed -n 's/^submitted job \([0-9]*\): 6 points in 6 array tasks$/\1/p')
if [ -n "$job" ]; then ok; else bad "sweep --slurm: $out"; finish; exit 1; fi
if wait_job "$job" 900; then ok; else bad "job $job did not finish in 900 s"; squeue; fi
t1=$(date +%s.%N)
got=$("$PTXEMU" sweep status "$tmp/run" 2>&1)
if echo "$got" | grep -q '^6 points: 6 done, 0 failed, 0 pending, 0 running, 0 missing'; then ok; else bad "status after the job: $got"; cat "$tmp/run/slurm/"*.out 2>/dev/null | head; fi
"$PTXEMU" sweep collect "$tmp/run" -o "$tmp/r.db" >/dev/null || bad "collect"
got=$(q "$tmp/r.db" "SELECT count(*), count(DISTINCT workload), count(DISTINCT l2_bytes), sum(status = 'done'), sum(is_baseline) FROM points")
if [ "$got" = "6|2|3|6|2" ]; then ok; else bad "merged points table: $got"; fi
got=$(q "$tmp/r.db" "SELECT count(*) FROM point_totals WHERE cycles > 0 AND inst_executed > 0")
if [ "$got" = 6 ]; then ok; else bad "every point has counters: $got"; fi
got=$(q "$tmp/r.db" "SELECT count(*) FROM speedup WHERE is_baseline AND abs(speedup - 1) < 1e-9")
if [ "$got" = 2 ]; then ok; else bad "baseline speed-ups: $got"; fi
# the longer loop takes longer, on every L2 size
got=$(q "$tmp/r.db" "SELECT count(*) FROM point_totals a JOIN point_totals b USING (l2_bytes) WHERE a.workload = 'spin' AND b.workload = 'spin2k' AND b.cycles > a.cycles")
if [ "$got" = 3 ]; then ok; else bad "spin2k slower than spin: $got"; fi
# deterministic: the cluster's counters are those of a local run of the same points
"$PTXEMU" sweep -j 2 "$tmp/w/s.spec" "$tmp/local" >/dev/null 2>&1
"$PTXEMU" sweep collect "$tmp/local" -o "$tmp/l.db" >/dev/null
a=$(q "$tmp/r.db" "SELECT group_concat(point_id || name || value) FROM (SELECT * FROM metrics WHERE name <> 'emu_wall_ns' ORDER BY point_id, rowid)")
b=$(q "$tmp/l.db" "SELECT group_concat(point_id || name || value) FROM (SELECT * FROM metrics WHERE name <> 'emu_wall_ns' ORDER BY point_id, rowid)")
if [ -n "$a" ] && [ "$a" = "$b" ]; then ok; else bad "Slurm and local counters differ"; fi
# the per-point overhead of the Slurm path: submit-to-last-result time
# against the points' own run time on the 2 CPUs
awk -v t0="$t0" -v t1="$t1" -v w="$(q "$tmp/r.db" "SELECT sum(wall_seconds) FROM points")" 'BEGIN {
  printf "slurm: 6 points, submit to last result %.2f s; the points ran %.2f s in all; overhead about %.2f s a point (2 CPUs)\n",
    t1 - t0, w, ((t1 - t0) * 2 - w) / 6 }'

# ---- cancel a job after its first points, then resume ------------------
sed 's/^arg u32 200$/arg u32 300000/; /^expect/d' "$src/tests/sweep/spin.launch" > "$tmp/w/slow.launch"
cat > "$tmp/w/c.spec" <<EOF
launch slow slow.launch
launch spin spin.launch
param l2_bytes 1048576 2097152 4194304
EOF
# one task at a time (%1) so that a cancel finds some done and some not
out=$("$PTXEMU" sweep "$tmp/w/c.spec" "$tmp/cancel" --slurm --partition=sweep --array=0-5%1 2>&1)
job=$(echo "$out" | sed -n 's/^submitted job \([0-9]*\):.*/\1/p')
[ -n "$job" ] || { bad "second submit: $out"; finish; exit 1; }
for i in $(seq 1 3000); do
  [ -n "$(ls "$tmp/cancel/points/" 2>/dev/null)" ] && break
  sleep 0.2
done
scancel "$job"
wait_job "$job" 60 || bad "scancel: job $job still queued"
sleep 1
got=$("$PTXEMU" sweep status "$tmp/cancel" 2>&1)
ndone=$(echo "$got" | sed -n 's/^6 points: \([0-9]*\) done.*/\1/p')
if [ -n "$ndone" ] && [ "$ndone" -ge 1 ] && [ "$ndone" -lt 6 ] && echo "$got" | grep -q " 0 pending, 0 running, $((6 - ndone)) missing"; then ok; else bad "status after scancel: $got"; fi
ls -l --time-style=+%s.%N "$tmp/cancel/points/" | awk '{ print $6, $7 }' | sort > "$tmp/before"
out=$("$PTXEMU" sweep "$tmp/w/c.spec" "$tmp/cancel" --slurm --partition=sweep 2>&1)
job=$(echo "$out" | sed -n "s/^submitted job \([0-9]*\): $((6 - ndone)) points in $((6 - ndone)) array tasks\$/\1/p")
if [ -n "$job" ]; then ok; else bad "the rerun submits only the $((6 - ndone)) missing points: $out"; fi
[ -n "$job" ] && { wait_job "$job" 900 || bad "rerun job $job did not finish"; }
ls -l --time-style=+%s.%N "$tmp/cancel/points/" | awk '{ print $6, $7 }' | sort > "$tmp/after"
if [ -z "$(comm -23 "$tmp/before" "$tmp/after")" ]; then ok; else bad "points finished before the cancel ran again"; fi
got=$("$PTXEMU" sweep status "$tmp/cancel" 2>&1)
if echo "$got" | grep -q '^6 points: 6 done'; then ok; else bad "status after the rerun: $got"; fi
"$PTXEMU" sweep collect "$tmp/cancel" -o "$tmp/c.db" >/dev/null
got=$(q "$tmp/c.db" "SELECT count(*) FROM points WHERE status = 'done' AND l2_bytes IN (1048576, 2097152, 4194304)")
if [ "$got" = 6 ]; then ok; else bad "merged table after the resume: $got"; fi
finish
