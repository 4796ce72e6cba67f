#!/bin/sh
# Outputs, numbers, launch shapes, traces and documented statuses under
# hostile conditions: devices, links and FIFOs as outputs, full disks, NaN
# and out-of-range numbers, malformed --grid/--block, two writers on one
# trace, a trace in a folder the reader cannot write, crafted traces.
. "$srcdir/tests/lib.sh"
d="$srcdir/tests/hostile_io"
k="$d/io.ptx"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxemu-hostile.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
# status NAME WANT PATTERN CMD...: exit status WANT and PATTERN on stderr/stdout
status() {
  name=$1 want=$2 pat=$3; shift 3
  out=$("$@" 2>&1); st=$?
  if [ "$st" -ne "$want" ]; then bad "$name: exit status $st, want $want"; echo "$out" | head -4; return; fi
  if [ -n "$pat" ] && ! echo "$out" | grep -q -- "$pat"; then bad "$name: output lacks '$pat'"; echo "$out" | head -4; return; fi
  ok
}

# ---- outputs: regular files replaced, links followed, devices and FIFOs in place
"$PTXEMU" asm -o "$tmp/real.pxo" "$k" && ln -s real.pxo "$tmp/link.pxo"
echo old > "$tmp/real.pxo"
status "asm -o onto a link" 0 "" "$PTXEMU" asm -o "$tmp/link.pxo" "$k"
if [ -L "$tmp/link.pxo" ] && head -c 3 "$tmp/real.pxo" | grep -q PXO; then ok; else bad "asm -o replaced the link or not its target"; fi
# a private null device when root (a broken ptxemu must not replace the
# system's /dev/null); otherwise /dev/null, which it could not replace
null=/dev/null
if [ "$(id -u)" = 0 ] && mknod -m 666 "$tmp/null" c 1 3 2>/dev/null; then null=$tmp/null; fi
status "asm -o a device" 0 "" "$PTXEMU" asm -o "$null" "$k"
if [ -c "$null" ]; then ok; else bad "$null is no longer a character device"; fi
ln -s real.bin "$tmp/dump.bin"
status "dump onto a link" 0 "" "$PTXEMU" run "$k" --kernel shape -e 'buffer o 24 zero' --arg ptr:o -e "dump o $tmp/dump.bin"
if [ -L "$tmp/dump.bin" ] && [ "$(wc -c < "$tmp/real.bin")" -eq 24 ]; then ok; else bad "dump replaced the link or wrote no target"; fi
if mkfifo "$tmp/fifo" 2>/dev/null; then
  cat "$tmp/fifo" > "$tmp/fifo.out" &
  reader=$!
  status "asm -o FIFO" 0 "" "$PTXEMU" asm -o "$tmp/fifo" "$k"
  # a ptxemu that replaced the FIFO leaves the reader waiting for ever
  n=0; while kill -0 "$reader" 2>/dev/null && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
  kill "$reader" 2>/dev/null; wait "$reader" 2>/dev/null
  if [ -p "$tmp/fifo" ] && head -c 3 "$tmp/fifo.out" | grep -q PXO; then ok; else bad "asm -o replaced the FIFO or wrote nothing into it"; fi
fi
# every write and close is checked: a full device is exit 73
# (a private /dev/full when root, as for /dev/null)
full=/dev/full
if [ "$(id -u)" = 0 ] && mknod -m 666 "$tmp/full" c 1 7 2>/dev/null; then full=$tmp/full; fi
if [ -c "$full" ] && [ -w "$full" ]; then
  status "--stats to a full device" 73 "cannot write '$full'" "$PTXEMU" run "$k" --kernel shape -e 'buffer o 24 zero' --arg ptr:o --stats "$full"
  status "dump to a full device" 73 "cannot write '$full'" "$PTXEMU" run "$k" --kernel shape -e 'buffer o 24 zero' --arg ptr:o -e "dump o $full"
  status "dis -o a full device" 73 "cannot write '$full'" "$PTXEMU" dis -o "$full" "$k"
  status "asm -o a full device" 73 "cannot write '$full'" "$PTXEMU" asm -o "$full" "$k"
  "$PTXEMU" run "$k" --kernel shape -e 'buffer o 24 zero' --arg ptr:o --trace "$tmp/full.db" -q
  status "report -o a full device" 73 "cannot write '$full'" "$PTXEMU" report -o "$full" "$tmp/full.db"
  status "dis to a full stdout" 73 "standard output" sh -c '"$0" dis "$1" > "$2"' "$PTXEMU" "$k" "$full"
fi
status "output is a folder" 73 "cannot write" "$PTXEMU" asm -o "$tmp" "$k"
# /dev/stdout is the caller's stream, written in place even when it is a file
"$PTXEMU" run "$k" --kernel shape -e 'buffer o 24 zero' --arg ptr:o --stats /dev/stdout > "$tmp/stdout.txt" 2>/dev/null
if grep -q "^launch 0 shape " "$tmp/stdout.txt"; then ok; else bad "--stats /dev/stdout into a file wrote '$(head -c 80 "$tmp/stdout.txt")'"; fi

# ---- numbers: strict, with the option and its range in the message
for v in nan inf -inf 1e19 1e300 -1 0 5x 1.5 0x "" " 5" 2e9x; do
  status "--max-insts '$v'" 64 "bad --max-insts '$v': a whole number from 1 to 1e15" "$PTXEMU" run "$k" --kernel shape -e 'buffer o 24 zero' --arg ptr:o --max-insts "$v"
done
status "--max-insts 2e9" 0 "" "$PTXEMU" run "$k" --kernel shape -e 'buffer o 24 zero' --arg ptr:o --max-insts 2e9
for v in nan inf 0 1e300 -1 0.0001 1s; do
  status "--max-seconds '$v'" 64 "bad --max-seconds '$v': a number of seconds from 0.001 to 1e7" "$PTXEMU" run "$k" --kernel shape --max-seconds "$v"
done
for v in nan inf -1 0 1e300 64Q 1.5 9999999T; do
  status "--max-memory '$v'" 64 "bad --max-memory '$v': a size from 1 byte to 16T" "$PTXEMU" run "$k" --kernel shape --max-memory "$v"
done
status "--trace-max-size nan" 64 "--trace-max-size wants a size such as 500M, from 0 (no cap) to 1024T" "$PTXEMU" run "$k" --kernel shape --trace "$tmp/t.db" --trace-max-size nan
status "--trace-blocks -1" 64 "--trace-blocks wants A-B" "$PTXEMU" run "$k" --kernel shape --trace "$tmp/t.db" --trace-blocks -1
status "--trace-pcs 4294967296" 64 "--trace-pcs wants A-B" "$PTXEMU" run "$k" --kernel shape --trace "$tmp/t.db" --trace-pcs 4294967296
status "--shared 1e300" 64 "bad --shared '1e300': a byte count from 0 to 232448" "$PTXEMU" run "$k" --kernel shape --shared 1e300
status "occupancy --regs -1" 64 "bad --regs '-1': a whole number from 0 to 1024" "$PTXEMU" occupancy "$k" --kernel shape --block 32 --regs -1
status "occupancy --block 32x33x65" 64 "bad --block" "$PTXEMU" occupancy "$k" --kernel shape --block 32x33x65
status "stats --launch 1e300" 64 "bad --launch '1e300': a launch id from 1 to 2^63-1" "$PTXEMU" stats --launch 1e300 "$tmp/none.db"
# GPU configuration files: the same parser rules
"$PTXEMU" gpus --params h100 > "$tmp/base.gpu"
for bad in "clock_mhz = nan" "clock_mhz = 1e300" "clock_mhz = -1" "clock_mhz = 5 MHz" "l2_atomic_cycles = nan" \
           "l2_atomic_cycles = inf" "shared_carveouts_kb = 0,-1" "sms = 0x"; do
  key=${bad%% =*}
  grep -v "^$key =" "$tmp/base.gpu" > "$tmp/bad.gpu"
  echo "$bad" >> "$tmp/bad.gpu"
  status "gpu file '$bad'" 65 "'$key' must be\|bad list value" "$PTXEMU" gpus --params "$tmp/bad.gpu"
done

# ---- --grid / --block: X[,Y[,Z]] or XxYxZ within the hardware limits
status "grid 16x8 block 32x32" 0 "" "$PTXEMU" run "$k" --kernel shape --grid 16x8 --block 32x32 -e 'buffer o 24 zero' --arg ptr:o -e "dump o $tmp/shape.bin"
if [ "$(od -An -tu4 "$tmp/shape.bin" | tr -s ' \n' ' ')" = " 32 32 1 16 8 1 " ]; then ok; else bad "grid 16x8 block 32x32 ran as $(od -An -tu4 "$tmp/shape.bin")"; fi
status "grid 2,3,4 block 4,2,2" 0 "" "$PTXEMU" run "$k" --kernel shape --grid 2,3,4 --block 4,2,2 -e 'buffer o 24 zero' --arg ptr:o -e "dump o $tmp/shape.bin"
if [ "$(od -An -tu4 "$tmp/shape.bin" | tr -s ' \n' ' ')" = " 4 2 2 2 3 4 " ]; then ok; else bad "grid 2,3,4 block 4,2,2 ran as $(od -An -tu4 "$tmp/shape.bin")"; fi
for g in 5x x5 2,3,4,5 2x3x4x5 4294967297 2147483648 0 1,65536 1,1,65536 -1 1,,2 "1, 2" 2x3,4; do
  status "--grid '$g'" 64 "--grid" "$PTXEMU" run "$k" --kernel shape --grid "$g"
done
for b in 32x33 1025 1,1,65 0 2048 1x1x1x1 32,; do
  status "--block '$b'" 64 "--block" "$PTXEMU" run "$k" --kernel shape --block "$b"
done

# ---- a bad free is a kernel fault (exit 3), as ptxemu(1) says
status "bad free" 3 "kernel fault: device heap" "$PTXEMU" run "$k" --kernel bad_free
if grep -q "which malloc did not return" "$srcdir/man/ptxemu.1" && ! grep -q "which therefore gives 4" "$srcdir/man/ptxemu.1"; then ok; else bad "ptxemu(1) on a bad free"; fi
# the object format version the manual gives is the one written
"$PTXEMU" asm -o "$tmp/v.pxo" "$k"
ver=$(od -An -tu4 -j4 -N4 "$tmp/v.pxo" | tr -d ' ')
if grep -q "format version (now $ver)" "$srcdir/man/ptxemu.1"; then ok; else bad "ptxemu(1) gives another object format version than $ver"; fi

# ---- an im2col tensor map with 2^32-1 wide dimensions (no signed overflow)
abs=$(cd "$srcdir" && pwd)
sed -e "s|\.\./exec|$abs/tests/exec|" -e "s|OUT|$tmp|" "$d/im2col_huge.launch" > "$tmp/im2col.launch"
status "im2col dims 4294967295" 0 "" "$PTXEMU" run "$tmp/im2col.launch"
if cmp -s "$tmp/im2col_huge.bin" "$tmp/im2col_big.bin"; then ok; else bad "im2col dims 4294967295 reads other pixels than dims 100000"; fi

# ---- traces
# a trace write that fails stops the launch at once: exit 73, recorded in runs
if [ "$(id -u)" = 0 ] && mkdir "$tmp/mnt" && mount -t tmpfs -o size=6m tmpfs "$tmp/mnt" 2>/dev/null; then
  status "disk full during a launch" 73 "kernel fault: stopped" \
    "$PTXEMU" run "$k" --kernel spin -e 'buffer o 4 zero' --arg ptr:o --gpu fermi --max-insts 1e15 --max-seconds 60 --trace "$tmp/mnt/t.db" --trace-max-size 0
  if command -v sqlite3 >/dev/null 2>&1; then
    if [ "$(q "$tmp/mnt/t.db" 'SELECT exit_status FROM runs')" = 73 ]; then ok; else bad "disk full: runs.exit_status is $(q "$tmp/mnt/t.db" 'SELECT exit_status FROM runs')"; fi
  fi
  umount "$tmp/mnt"
  # wherever the disk fills (smaller disks: the last rows' write found no
  # room in some of them), a run whose trace opened records its status
  if command -v sqlite3 >/dev/null 2>&1; then
    for kb in 2100 2500 2700 3100 4100; do
      mount -t tmpfs -o size=${kb}k tmpfs "$tmp/mnt" || continue
      "$PTXEMU" run "$k" --kernel spin -e 'buffer o 4 zero' --arg ptr:o --gpu fermi --max-insts 1e15 --max-seconds 60 \
        --trace "$tmp/mnt/t.db" --trace-max-size 0 >/dev/null 2>"$tmp/full.err"
      st=$?
      if grep -q "recording stopped" "$tmp/full.err"; then
        es=$(q "$tmp/mnt/t.db" 'SELECT exit_status FROM runs')
        if [ $st = 73 ] && [ "$es" = 73 ]; then ok; else bad "disk of ${kb} KiB full: exit $st, runs.exit_status '$es'"; fi
      fi
      umount "$tmp/mnt"
    done
  fi
else
  echo "(no tmpfs: the disk-full case is not tested)"
fi
# two writers on one trace (launches that end normally, overlapping when
# the machine lets them): each runs row records its own process's status;
# the one that finds the other's rows where its own were to go exits 73
if command -v sqlite3 >/dev/null 2>&1; then
  "$PTXEMU" run "$k" --kernel count -e 'buffer o 4 zero' --arg ptr:o --arg u32:100000 --gpu fermi --max-insts 1e15 --trace "$tmp/race.db" -q >/dev/null 2>"$tmp/a.err" &
  pa=$!
  sleep 0.3
  "$PTXEMU" run "$k" --kernel count -e 'buffer o 4 zero' --arg ptr:o --arg u32:100000 --gpu fermi --max-insts 999999999999999 --trace "$tmp/race.db" -q >/dev/null 2>"$tmp/b.err"
  sb=$?
  wait "$pa"; sa=$?
  ra=$(q "$tmp/race.db" "SELECT exit_status FROM runs WHERE command_line LIKE '%1e15%'")
  rb=$(q "$tmp/race.db" "SELECT exit_status FROM runs WHERE command_line LIKE '%999999999999999%'")
  if [ "$ra" = "$sa" ] || [ -z "$ra" -a "$sa" = 73 ]; then ok; else bad "race: first writer exits $sa, its runs row says '$ra'"; cat "$tmp/a.err"; fi
  if [ "$rb" = "$sb" ] || [ -z "$rb" -a "$sb" = 73 ]; then ok; else bad "race: second writer exits $sb, its runs row says '$rb'"; cat "$tmp/b.err"; fi
  case "$sa$sb" in 00|073|730) ok ;; *) bad "race: exit statuses $sa and $sb"; cat "$tmp/a.err" "$tmp/b.err" | head -6 ;; esac
fi
# a reader without write access to the trace's folder
mkdir "$tmp/ro"
"$PTXEMU" run "$k" --kernel shape -e 'buffer o 24 zero' --arg ptr:o --trace "$tmp/ro/t.db" -q
chmod 755 "$tmp" "$tmp/ro"; chmod 644 "$tmp/ro/t.db"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
  as_reader="setpriv --reuid=65534 --regid=65534 --clear-groups"
else
  chmod a-w "$tmp/ro"; as_reader=
fi
if $as_reader "$PTXEMU" --version >/dev/null 2>&1; then
  status "stats in a read-only folder" 0 "run 1:" $as_reader "$PTXEMU" stats "$tmp/ro/t.db"
  status "report in a read-only folder" 0 "" $as_reader "$PTXEMU" report -o "$null" "$tmp/ro/t.db"
  # a writable file in that folder is written in place (no temporary name there)
  : > "$tmp/ro/out.bin"; chmod 666 "$tmp/ro/out.bin"
  status "dump to a writable file in a read-only folder" 0 "" $as_reader "$PTXEMU" run "$k" --kernel shape -e 'buffer o 24 zero' --arg ptr:o -e "dump o $tmp/ro/out.bin"
  if [ "$(wc -c < "$tmp/ro/out.bin")" -eq 24 ]; then ok; else bad "dump in a read-only folder wrote $(wc -c < "$tmp/ro/out.bin") bytes"; fi
  status "dump to a new file in a read-only folder" 73 "Permission denied" $as_reader "$PTXEMU" run "$k" --kernel shape -e 'buffer o 24 zero' --arg ptr:o -e "dump o $tmp/ro/new.bin"
else
  echo "(ptxemu cannot run as another user here: the read-only folder case is not tested)"
fi
chmod u+w "$tmp/ro"
status "stats of a non-database" 65 "not a SQLite database" "$PTXEMU" stats "$k"
status "stats of a missing file" 66 "cannot open" "$PTXEMU" stats "$tmp/missing.db"
# a crafted trace: huge counts, lengths, cycles and ids never overflow or loop
if command -v sqlite3 >/dev/null 2>&1; then
  "$PTXEMU" run "$k" --kernel shape --grid 2 --block 64 -e 'buffer o 24 zero' --arg ptr:o --gpu fermi --trace "$tmp/c.db" --trace-level all -q
  cp "$tmp/c.db" "$tmp/c2.db"
  q "$tmp/c.db" "UPDATE warp_runs SET n = 9223372036854775807, reps = 9223372036854775807, threads = 9223372036854775807,
                   pred_threads = -9223372036854775807, issue_cycle = -9223372036854775807 WHERE id = (SELECT min(id) FROM warp_runs);
                 UPDATE warp_runs SET issue_cycle = 9223372036854775807, insn_id = 9223372036854775807 WHERE id = (SELECT max(id) FROM warp_runs);
                 UPDATE mem_accesses SET sectors = 9223372036854775807, bytes = 9223372036854775807, wavefronts = -9223372036854775807;" >/dev/null
  cp "$tmp/c2.db" "$tmp/c3.db"
  q "$tmp/c3.db" "UPDATE blocks SET inst_executed = 9223372036854775807" >/dev/null
  # values SQL's own sums take, whose products and differences in C overflowed
  cp "$tmp/c2.db" "$tmp/c4.db"
  q "$tmp/c4.db" "UPDATE warp_runs SET reps = 4611686018427387904, threads = 32, issue_cycle = -9223372036854775807 WHERE id = (SELECT min(id) FROM warp_runs);
                  UPDATE warp_runs SET issue_cycle = 9223372036854775807 WHERE id = (SELECT min(id) + 1 FROM warp_runs);
                  UPDATE mem_accesses SET sectors = 4611686018427387904 WHERE id = (SELECT min(id) FROM mem_accesses);" >/dev/null
  for c in c c3 c4; do
    out=$(timeout 60 "$PTXEMU" report -o "$tmp/c.html" "$tmp/$c.db" 2>&1); st=$?
    case $st in 0|65) ok ;; *) bad "report of crafted trace $c: exit status $st"; echo "$out" | head -5 ;; esac
    out=$(timeout 60 "$PTXEMU" stats --by-line "$tmp/$c.db" 2>&1); st=$?
    case $st in 0|65) ok ;; *) bad "stats of crafted trace $c: exit status $st"; echo "$out" | head -5 ;; esac
  done
  q "$tmp/c2.db" "UPDATE instructions SET insn_id = insn_id + 4611686018427387904 WHERE insn_id = (SELECT max(insn_id) FROM instructions)" >/dev/null
  status "report of a trace with scattered instruction ids" 65 "damaged trace" timeout 60 "$PTXEMU" report -o "$tmp/c.html" "$tmp/c2.db"
fi
finish
