#!/usr/bin/env bash
# Lab 2: parallel reduction (textbook 3.4, reduceInteger.cu): divergence,
# unrolling and warp-synchronous code, on fermi, kepler and h100.
. "$(dirname "$0")/../lib.sh"

NAMES=(Neighbored NeighboredLess Interleaved Unrolling2 Unrolling4 Unrolling8
       UnrollWarps8 CompleteUnrollWarps8 ShflUnroll8)
N=786432          # ints (see reduce.launch)
lab_timed red reduce.launch
lab_hw red lab_reduce
lab_trace red reduce.launch all --trace-blocks 0-47   # every block does the same: 48 are enough

lab_title "cycles per GPU (speed-up over Neighbored); H100 (real): measured, tests/golden/lab_reduce"
lab_row variant 18 $GPUS "H100 (real)"
for i in "${!NAMES[@]}"; do
  cols=()
  for g in $GPUS H100; do
    c=$(lab_v red "$g" "$i" cycles); c0=$(lab_v red "$g" 0 cycles)
    cols+=("$c ($(lab_calc "$c0 / $c" 2)x)")
  done
  lab_row "${NAMES[$i]}" 18 "${cols[@]}"
done

lab_title "DRAM read throughput, GB/s (bytes read from DRAM / kernel time)"
lab_row variant 12 $GPUS
for i in "${!NAMES[@]}"; do
  cols=()
  for g in $GPUS; do
    cols+=("$(lab_calc "$(lab_v red "$g" "$i" dram_read_bytes) * $(lab_clock_mhz "$g") / $(lab_v red "$g" "$i" cycles) / 1000" 1)")
  done
  lab_row "${NAMES[$i]}" 12 "${cols[@]}"
done

lab_title "instructions and memory efficiency (trace; the same on every GPU)"
lab_row variant 12 inst/warp sass/warp branch_eff% gld_eff% gst_eff% occ%fermi occ%kepler
for i in "${!NAMES[@]}"; do
  lab_row "${NAMES[$i]}" 12 "$(lab_fmt "$(lab_v red trace "$i" inst_per_warp)" 1)" \
    "$(lab_fmt "$(lab_v red trace "$i" sass_inst_per_warp)" 1)" \
    "$(lab_fmt "$(lab_v red trace "$i" branch_efficiency)" 1)" \
    "$(lab_fmt "$(lab_v red trace "$i" gld_efficiency)" 1)" \
    "$(lab_fmt "$(lab_v red trace "$i" gst_efficiency)" 1)" \
    "$(lab_fmt "$(lab_v red fermi "$i" achieved_occupancy_pct)" 1)" \
    "$(lab_fmt "$(lab_v red kepler "$i" achieved_occupancy_pct)" 1)"
done

lab_title "direction checks"
for g in fermi kepler; do
  c() { lab_v red "$g" "$1" cycles; }
  lab_check "$g: Neighbored > NeighboredLess > Interleaved (cycles)" "$(c 0) > $(c 1) && $(c 1) > $(c 2)"
  lab_check "$g: Interleaved > Unrolling2 > Unrolling4 (cycles)" "$(c 2) > $(c 3) && $(c 3) > $(c 4)"
  # (fermi: with its eight loads in flight at once, as ptxas issues them,
  # Unrolling8 beats Unrolling4 despite 2 blocks of 512 per SM against 3)
  lab_check "$g: Unrolling8 faster than Unrolling4" "$(c 5) < $(c 4)"
  lab_check "$g: UnrollWarps8 no slower than Unrolling8" "$(c 6) <= $(c 5)"
  lab_check "$g: CompleteUnrollWarps8 no slower than Unrolling8" "$(c 7) <= $(c 5)"
  lab_check "$g: overall speed-up Neighbored/CompleteUnrollWarps8 > 2" "$(c 0) / $(c 7) > 2"
done
# the book's 9.2x is the M2070's; kepler's own figure is in the table
lab_check "fermi: overall speed-up Neighbored/CompleteUnrollWarps8 > 8 (textbook 9.2x)" \
  "$(lab_v red fermi 0 cycles) / $(lab_v red fermi 7 cycles) > 8"
t() { lab_v red trace "$1" "$2"; }
lab_check "inst_per_warp (PTX): Neighbored > NeighboredLess" "$(t 0 inst_per_warp) > $(t 1 inst_per_warp)"
# nvprof counts SASS: each 'rem' of Neighbored's tid % (2 * stride) is a
# sequence of about 20 instructions there (sass_inst_per_warp)
lab_check "inst_per_warp (SASS estimate): Neighbored > 2 x NeighboredLess (textbook 295.6 vs 115.3)" \
  "$(t 0 sass_inst_per_warp) > 2 * $(t 1 sass_inst_per_warp)"
lab_check "gld_efficiency: Neighbored, NeighboredLess < Interleaved < Unrolling8 <= UnrollWarps8" \
  "$(t 0 gld_efficiency) < $(t 2 gld_efficiency) && $(t 1 gld_efficiency) < $(t 2 gld_efficiency) && $(t 2 gld_efficiency) < $(t 5 gld_efficiency) && $(t 5 gld_efficiency) <= $(t 6 gld_efficiency)"
lab_check "branch_efficiency: Neighbored (divergent %) < NeighboredLess" "$(t 0 branch_efficiency) < $(t 1 branch_efficiency)"

lab_finish "Neighbored 11.7 ms > NeighboredLess 9.3 > Interleaved 7.0 > Unrolling2 3.4 > Unrolling4 1.8 > Unrolling8 1.4 > UnrollWarps8 1.36 > CompleteUnrollWarps8 1.28 (M2070, 16M ints); gld_efficiency 16.7/16.8/77.9/94.7/99.0%"
