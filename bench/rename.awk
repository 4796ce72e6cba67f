# bench/rename.awk - turn one PTX module into a template that
# bench/asm_bench.sh can paste many times into one big module: the header
# (.version, .target, .address_size) is dropped, and every name the module
# defines at module scope (kernels, functions, variables; not .extern ones,
# which name things like vprintf) gets the suffix @@, which the caller
# replaces with a different number for each copy.  POSIX awk (mawk works).
{ line[NR] = $0 }

END {
  depth = 0
  for (i = 1; i <= NR; i++) {
    l = line[i]
    if (depth == 0) {
      if (l ~ /^[ \t]*\.(version|target|address_size)[ \t]/) { drop[i] = 1; continue }
      if (l !~ /\.extern/) {
        if (match(l, /\.entry[ \t]+[A-Za-z_$][A-Za-z0-9_$]*/)) {
          s = substr(l, RSTART, RLENGTH); sub(/\.entry[ \t]+/, "", s); def[s] = 1
        } else if (match(l, /\.func[ \t]/)) {
          s = substr(l, RSTART + RLENGTH); sub(/^[ \t]+/, "", s)
          if (s ~ /^\(/) sub(/^\([^)]*\)[ \t]*/, "", s)
          if (match(s, /^[A-Za-z_$][A-Za-z0-9_$]*/)) def[substr(s, 1, RLENGTH)] = 1
        } else if (l ~ /^[ \t]*(\.visible[ \t]+|\.weak[ \t]+|\.common[ \t]+)?\.(global|const|shared)[ \t]/) {
          s = l; sub(/\[.*/, "", s); sub(/[=;].*/, "", s); sub(/[ \t]+$/, "", s)
          n = split(s, w, /[ \t]+/); def[w[n]] = 1
        }
      }
    }
    t = l; sub(/\/\/.*/, "", t)
    depth += gsub(/\{/, "{", t) - gsub(/\}/, "}", t)
  }
  for (i = 1; i <= NR; i++) {
    if (drop[i]) continue
    l = line[i]; out = ""
    while (match(l, /[A-Za-z_$][A-Za-z0-9_$]*/)) {
      id = substr(l, RSTART, RLENGTH)
      prev = RSTART > 1 ? substr(l, RSTART - 1, 1) : ""
      out = out substr(l, 1, RSTART - 1) id
      if ((id in def) && prev != "." && prev != "%" && prev !~ /[0-9]/) out = out "@@"
      l = substr(l, RSTART + RLENGTH)
    }
    print out l
  }
}
