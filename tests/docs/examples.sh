#!/bin/sh
# tests/docs/examples.sh - the examples of the manual pages (man/*.1, man/*.5)
# print what they show.
#
# Extraction: an example is an .EX/.EE block with a command line ("$ ...")
# that runs ptxemu.  In it a line starting with "$ " is a command (a line ending
# in "\" continues it) and the lines up to the next command are its output.
# roff escapes are undone: \- \e \\ \(aq \(dq \fB \fI \fR \fP \& \| \^ and
# "\ ".  Another escape, a request, or output before the first command in
# an example fails, naming the page and line.
#
# Running: the commands of a page run in order, with sh, in one scratch
# directory that links the repository's top-level directories (so paths
# are relative to the repository root, and the files the commands write
# stay there); "ptxemu" is $PTXEMU.  Skipped, and listed:
#  - commands that write a file the manual opens in an editor
#    ("> my.gpu", then "$ vi my.gpu"), and the editor itself;
#  - commands naming an input file (*.launch .ptx .gpu .pxo .db .txt .bin)
#    that does not exist.
#
# Comparison: stdout and stderr together against the shown output,
# exactly, after masking on both sides what varies between runs: wall
# times ("0.012 s", "3.5 ms"), emu_wall_ns, inst/s, paths under /tmp, and
# dates.  A shown line "..." (roff ".\|.\|.") ends the comparison (the
# output is truncated); a shown line ending in " ..." matches any line that
# begins with what precedes it.  A command shown without output only has
# to exit 0.
. "$srcdir/tests/lib.sh"
top=$(cd "$srcdir" && pwd) || exit 1
case $PTXEMU in /*) ;; */*) PTXEMU=$(pwd)/$PTXEMU ;; esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxemu-docs.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin" "$tmp/ex" "$tmp/run"
ln -s "$PTXEMU" "$tmp/bin/ptxemu"

editors='vi|vim|nano|emacs'
pages=$(ls "$top"/man/*.1 "$top"/man/*.5)
# files the manual opens in an editor
edited=$(cat $pages | sed -n -E "s/^\\\$ ($editors) +([^ ]+) *\$/\\2/p" | sort -u | tr '\n' ' ')

# The extraction writes, per command N, ex/N.cmd and ex/N.exp, and a line
# "ex/N|PAGE:LINE|SHOWN|SKIP|INPUTS" to ex/index.
for p in $pages; do
  awk -v page="man/${p##*/}" -v dir="$tmp/ex" -v edited=" $edited " -v editors="^($editors)\$" '
  function unesc(s,   o, c, i, n) {
    o = ""; n = length(s)
    for (i = 1; i <= n; i++) {
      c = substr(s, i, 1)
      if (c != "\\") { o = o c; continue }
      c = substr(s, ++i, 1)
      if (c == "-") o = o "-"
      else if (c == "e" || c == "\\") o = o "\\"
      else if (c == " ") o = o " "
      else if (c == "&" || c == "|" || c == "^") ;
      else if (c == "f" && substr(s, i + 1, 1) ~ /[BIRP]/) i++
      else if (c == "(" && substr(s, i + 1, 2) == "aq") { o = o "\047"; i += 2 }
      else if (c == "(" && substr(s, i + 1, 2) == "dq") { o = o "\""; i += 2 }
      else { err = "unknown roff escape \\" c; return "" }
    }
    return o
  }
  function fail(ln, msg) { printf "%s:%d: cannot parse the example: %s\n", page, ln, msg; bad = 1 }
  function newcmd(ln) {
    k++; cmdf[k] = sprintf("%s/%05d", dir, ++serial); loc[k] = page ":" ln; shown[k] = 0
    printf "" > (cmdf[k] ".exp"); close(cmdf[k] ".exp")
  }
  # the skip rules and the input files of command j (quotes removed)
  function analyze(j,   t, n, i, w, prev) {
    skip[j] = ""; inputs[j] = ""
    t = cmd[j]; gsub(/[\047"]/, " ", t); gsub(/>>?/, " > ", t); gsub(/[;|&<()\\]/, " ", t)
    n = split(t, w, " "); prev = ""
    if (w[1] ~ editors) skip[j] = "opens an editor"
    for (i = 1; i <= n; i++) {
      if (prev == ">" && index(edited, " " w[i] " ")) skip[j] = "writes " w[i] ", which the manual edits"
      else if (prev != ">" && prev != "-o" && prev != "--stats" && prev != "--trace" \
               && w[i] ~ /\.(launch|ptx|gpu|pxo|db|txt|bin)$/)
        inputs[j] = inputs[j] " " w[i]
      prev = w[i]
    }
  }
  function endblock(   i, j) {
    if (!example) return
    k = 0; cont = 0
    for (i = 1; i <= nl; i++) {
      err = ""; s = unesc(raw[i])
      if (err != "") { fail(lno[i], err); return }
      if (raw[i] ~ /^[.\047]/) { fail(lno[i], "a roff request in an example"); return }
      if (cont) { cmd[k] = cmd[k] "\n" s }
      else if (substr(s, 1, 2) == "$ ") { newcmd(lno[i]); cmd[k] = substr(s, 3) }
      else if (k == 0) { fail(lno[i], "output before the first \"$ \" command"); return }
      else { print s >> (cmdf[k] ".exp"); close(cmdf[k] ".exp"); shown[k] = 1; continue }
      cont = (s ~ /\\$/)
    }
    if (cont) { fail(lno[nl], "a command continued past .EE"); return }
    for (j = 1; j <= k; j++) {
      analyze(j)
      printf "%s\n", cmd[j] > (cmdf[j] ".cmd"); close(cmdf[j] ".cmd")
      printf "%s|%s|%d|%s|%s\n", cmdf[j], loc[j], shown[j], skip[j], inputs[j] >> (dir "/index")
    }
    close(dir "/index")
  }
  /^\.EX/ { if (inex) fail(FNR, ".EX inside .EX"); inex = 1; nl = 0; example = 0; start = FNR; next }
  /^\.EE/ { if (!inex) fail(FNR, ".EE without .EX"); else endblock(); inex = 0; next }
  inex { raw[++nl] = $0; lno[nl] = FNR; if ($0 ~ /^\$ .*ptxemu /) example = 1 }
  END { if (inex) fail(start, ".EX without .EE"); exit bad }
  ' serial="$(cat "$tmp/ex/index" 2>/dev/null | wc -l)" "$p" || bad "man/${p##*/}: the examples cannot be extracted"
done
[ -s "$tmp/ex/index" ] || { bad "no examples found in man/"; finish; exit; }

# the same masks on the shown and the actual output
mask() {
  sed -E -e 's/emu_wall_ns [0-9]+/emu_wall_ns #/g' \
         -e 's/[0-9]+(\.[0-9]+)? (s|ms|us|ns)\b/# \2/g' \
         -e 's/[0-9]+(\.[0-9]+)? (M )?(thread-)?inst\/s/# \2\3inst\/s/g' \
         -e 's|/tmp/[^ :'"'"'"]*|/tmp/#|g' \
         -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}([ T][0-9]{2}:[0-9]{2}(:[0-9]{2})?)?/#date/g' "$1"
}
# 0 when actual output $2 matches the shown output $1 (both masked)
matches() {
  awk 'NR == FNR { e[++n] = $0; next } { a[++m] = $0 }
    END {
      for (i = 1; i <= n; i++) {
        t = e[i]; gsub(/^[ \t]+|[ \t]+$/, "", t)
        if (t == "...") exit 0
        if (i > m) exit 1
        if (e[i] ~ / \.\.\.$/) { p = substr(e[i], 1, length(e[i]) - 4); if (substr(a[i], 1, length(p)) != p) exit 1 }
        else if (e[i] != a[i]) exit 1
      }
      exit (m > n)
    }' "$1" "$2"
}

page=; checked=0; skipped=0

while IFS="|" read -r id loc shown skip inputs; do
  p=${loc%%:*}
  if [ "$p" != "$page" ]; then   # a fresh scratch directory for each page
    page=$p; w="$tmp/run/${p##*/}"; mkdir "$w"
    for d in "$top"/*; do [ -d "$d" ] && ln -s "$d" "$w/"; done
  fi
  first=$(head -n 1 "$id.cmd" | sed "s/ *\\\\$/ .../")
  if [ -z "$skip" ]; then
    for f in $inputs; do [ -e "$w/$f" ] || { skip="needs $f"; break; }; done
  fi
  if [ -n "$skip" ]; then
    echo "SKIP: $loc: \$ $first ($skip)"; skipped=$((skipped + 1)); continue
  fi
  checked=$((checked + 1))
  (cd "$w" && PATH="$tmp/bin:$PATH" sh "$id.cmd") >"$id.act" 2>&1 </dev/null
  rc=$?
  if [ "$shown" = 0 ]; then
    if [ "$rc" = 0 ]; then ok; echo "ok: $loc: \$ $first"
    else bad "$loc: \$ $first: exit status $rc"; cat "$id.act"; fi
    continue
  fi
  mask "$id.exp" >"$id.exp.m"; mask "$id.act" >"$id.act.m"
  if matches "$id.exp.m" "$id.act.m"; then ok; echo "ok: $loc: \$ $first"
  else
    bad "$loc: \$ $first: the output differs from the manual's (- shown, + actual, masked)"
    diff -u "$id.exp.m" "$id.act.m" | tail -n +3
  fi
done <"$tmp/ex/index"
echo "$checked commands run, $skipped skipped"
finish
