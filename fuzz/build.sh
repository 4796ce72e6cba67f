#!/bin/sh
# fuzz/build.sh - build the libFuzzer harnesses into fuzz/out/ (clang only).
# Needs a configured and built tree first (./configure && make): the flex,
# bison and GPU-config outputs (ptx/parser.c, ptx/lexer.c,
# gpu/builtin_configs.c) are taken from it.
#   CC=clang-15 fuzz/build.sh          another clang
#   FUZZ_SAN=address,undefined ...     other sanitizers (fuzzer is always on)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
CC=${CC:-clang}
SAN=${FUZZ_SAN:-address,undefined}
out="$here/out"
obj="$out/obj"
mkdir -p "$obj"
CFLAGS="-std=gnu11 -g -O1 -fno-omit-frame-pointer -I$top -w"
LIBS="-lsqlite3 -lzstd -llz4 -lm"

# the library sources, exactly as Makefile.am lists them (.c only)
srcs=$(sed -n '/^libptxemu_a_SOURCES *=/,/[^\\]$/p' "$top/Makefile.am" | tr ' \t\\' '\n\n\n' | grep '\.c$')
srcs="$srcs ptx/parser.c ptx/lexer.c gpu/config.c gpu/builtin_configs.c"
# and those added with "libptxemu_a_SOURCES +=" lines (each once)
srcs=$(printf '%s\n' $srcs $(sed -n 's/^libptxemu_a_SOURCES *+= *//p' "$top/Makefile.am" | tr ' \t' '\n\n' | grep '\.c$') | awk '!seen[$0]++')
for g in ptx/parser.c ptx/lexer.c gpu/builtin_configs.c; do
  [ -f "$top/$g" ] || { echo "fuzz/build.sh: $g missing: run ./configure && make first" >&2; exit 1; }
done

objs=
pids=
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
n=0
for s in $srcs; do
  o="$obj/$(echo "$s" | tr / _ | sed 's/\.c$/.o/')"
  objs="$objs $o"
  if [ ! -f "$o" ] || [ "$top/$s" -nt "$o" ] || [ "$0" -nt "$o" ]; then
    # fuzzer-no-link: coverage instrumentation without libFuzzer's main
    $CC $CFLAGS -fsanitize=fuzzer-no-link,$SAN -c "$top/$s" -o "$o" &
    pids="$pids $!"
    n=$((n + 1))
    if [ $n -ge "$jobs" ]; then for p in $pids; do wait "$p"; done; pids=; n=0; fi
  fi
done
for p in $pids; do wait "$p"; done

# fuzz_trace also drives "ptxemu stats", which lives in cli/
extra_fuzz_trace="$top/cli/cmd_stats.c"
for h in fuzz_ptx fuzz_object fuzz_launch fuzz_emu fuzz_par fuzz_fatbin fuzz_gpu fuzz_trace; do
  eval "extra=\${extra_$h:-}"
  $CC $CFLAGS -fsanitize=fuzzer,$SAN "$here/$h.c" $extra $objs $LIBS -o "$out/$h"
  echo "built $out/$h"
done
