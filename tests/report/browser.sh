#!/bin/sh
# tests/report/browser.sh - load report pages in a real headless browser
# (Debian's chromium): no console message at all (the pages have no
# script, so any message is an error, such as an SVG path the browser
# cannot parse), every figure in the rendered DOM, and a screenshot that
# shows the figures' colours without any script having run.
# Skipped (77) without chromium or python3.
. "$srcdir/tests/lib.sh"
browser=
for b in "${CHROMIUM:-}" chromium chromium-browser google-chrome; do
  [ -n "$b" ] && command -v "$b" >/dev/null 2>&1 && { browser=$b; break; }
done
[ -n "$browser" ] || { echo "SKIP: no chromium (apt-get install chromium)"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }
need_sqlite3
d="$srcdir/tests/report"
t="$srcdir/tests/traces"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxemu-browser.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp"            # the browser's profile and caches stay in tmp

# run the browser headless on page $1 with more arguments; stderr to $tmp/log
headless() {
  page=$1; shift
  timeout 120 "$browser" --headless --disable-gpu --no-sandbox --no-first-run --disable-extensions \
    --user-data-dir="$tmp/profile" --enable-logging=stderr --v=0 "$@" "file://$page" 2>"$tmp/log"
}

page_test() {   # NAME HTML COLOUR...: the checks of one page
  name=$1; html=$2; shift 2
  if headless "$html" --dump-dom >"$tmp/dom"; then ok; else bad "$name: the browser failed (exit $?)"; cat "$tmp/log"; return; fi
  if grep -q 'CONSOLE' "$tmp/log"; then bad "$name: console messages:"; grep 'CONSOLE' "$tmp/log"; else ok; fi
  # the rendered DOM holds every figure and section of the file
  for what in '<svg ' '<path ' '<section id=' '<tr id="l'; do
    want=$(grep -o "$what" "$html" | wc -l); got=$(grep -o "$what" "$tmp/dom" | wc -l)
    if [ "$want" -gt 0 ] && [ "$got" = "$want" ]; then ok; else bad "$name: '$what' $got times in the DOM, $want in the file"; fi
  done
  headless "$html" --hide-scrollbars --window-size=1280,3200 --screenshot="$tmp/shot.png" >/dev/null
  size=$(wc -c <"$tmp/shot.png" 2>/dev/null || echo 0)
  if [ "$size" -gt 20000 ]; then ok; else bad "$name: screenshot of $size bytes"; return; fi
  python3 "$d/png_colours.py" "$tmp/shot.png" "$@" >"$tmp/colours" || { bad "$name: $(cat "$tmp/colours")"; return; }
  read -r w h n <"$tmp/colours"
  if [ "$w" = 1280 ] && [ "$h" = 3200 ] && [ "$n" -gt 50 ]; then ok; else bad "$name: screenshot ${w}x$h with $n colours"; fi
  # each colour of a figure covers a visible area (it was drawn, without script)
  tail -n +2 "$tmp/colours" | while read -r colour px; do
    if [ "$px" -gt 200 ]; then echo ok; else echo "bad $colour: $px pixels"; fi
  done >"$tmp/res"
  if grep -q bad "$tmp/res"; then bad "$name: figure colours missing: $(grep bad "$tmp/res" | tr '\n' ' ')"; else ok; fi
}

# a functional trace: the timeline draws full warps (1f5f8b) and memory ticks (111111)
"$PTXEMU" check -q --trace "$tmp/f.db" --trace-level all "$t/memory.launch" >/dev/null 2>&1 || bad "traced run failed"
"$PTXEMU" report "$tmp/f.db" -o "$tmp/f.html" --launch 1 || bad "functional report failed"
page_test functional "$tmp/f.html" 1f5f8b 111111
# a timed trace (fake_timing.sql): stall colours long_scoreboard (d62728), selected (2ca02c),
# and the occupancy line (1f77b4)
"$PTXEMU" check -q --timing --gpu h100 --trace "$tmp/t.db" --trace-level all "$t/memory.launch" >/dev/null 2>&1 || bad "timed run failed"
sqlite3 -batch "$tmp/t.db" <"$d/fake_timing.sql" || bad "fake_timing.sql failed"
"$PTXEMU" report "$tmp/t.db" -o "$tmp/t.html" --launch 1 || bad "timed report failed"
page_test timed "$tmp/t.html" d62728 2ca02c 1f77b4
finish
