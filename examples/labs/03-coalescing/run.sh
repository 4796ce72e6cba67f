#!/usr/bin/env bash
# Lab 3: aligned and coalesced global memory access (textbook 4.3:
# readSegment.cu, writeSegment.cu, simpleMathAoS.cu / simpleMathSoA.cu).
. "$(dirname "$0")/../lib.sh"
# fermi's and kepler's runs also record a trace: nvprof's metrics (M2050, K40)
LAB_PROFILE=${LAB_PROFILE-fermi kepler}

NAMES=("read  off 0 (L1)" "read  off 11 (L1)" "read  off 128 (L1)"
       "read  off 0 (.cg)" "read  off 11 (.cg)" "read  off 128 (.cg)"
       "write off 0" "write off 11" "write off 128" "AoS {x,y}" "SoA x[],y[]")
lab_timed co coalescing.launch
lab_trace co coalescing.launch mem
# 128-byte L1 lines per load request, and the efficiency of such line
# transactions (fermi's cached loads: the textbook's "L1 on" numbers)
lab_sql co "SELECT l.launch_index, 'lines_per_req', 1.0 * sum(m.lines) / count(*) FROM mem_accesses m
    JOIN launches l USING (launch_id) WHERE m.space_id = 0 AND m.kind_id = 0 GROUP BY l.launch_index
  UNION ALL SELECT l.launch_index, 'line_eff', 100.0 * sum(m.bytes) / (128.0 * sum(m.lines)) FROM mem_accesses m
    JOIN launches l USING (launch_id) WHERE m.space_id = 0 AND m.kind_id = 0 GROUP BY l.launch_index"

t() { lab_v co trace "$1" "$2"; }
lab_title "load and store transactions (trace; address-determined, the same on every GPU)"
lab_row variant 11 "ld sect/req" "ld_eff%" "ld line/req" "ld_line_eff%" "st sect/req" "st_eff%"
for i in "${!NAMES[@]}"; do
  lab_row "${NAMES[$i]}" 11 "$(lab_fmt "$(t $i gld_transactions_per_request)")" "$(lab_fmt "$(t $i gld_efficiency)" 1)" \
    "$(lab_fmt "$(t $i lines_per_req)")" "$(lab_fmt "$(t $i line_eff)" 1)" \
    "$(lab_fmt "$(t $i gst_transactions_per_request)")" "$(lab_fmt "$(t $i gst_efficiency)" 1)"
done

lab_title "cycles per GPU (L1 hit rate %)"
lab_row variant 16 $GPUS
for i in "${!NAMES[@]}"; do
  cols=()
  for g in $GPUS; do cols+=("$(lab_v co $g $i cycles) ($(lab_fmt "$(lab_v co $g $i l1_hit_pct)" 0))"); done
  lab_row "${NAMES[$i]}" 16 "${cols[@]}"
done

lab_title "direction checks"
lab_check "offset 11 needs 5 sectors per load request, offsets 0 and 128 need 4" \
  "near($(t 1 gld_transactions_per_request), 5) && near($(t 0 gld_transactions_per_request), 4) && near($(t 2 gld_transactions_per_request), 4)"
lab_check "load efficiency 80% at offset 11 with 32-byte segments (.cg), 100% at 0 and 128" \
  "near($(t 4 gld_efficiency), 80) && near($(t 3 gld_efficiency), 100) && near($(t 5 gld_efficiency), 100)"
lab_check "with 128-byte L1 lines, offset 11 touches 2 lines per request: line efficiency 50%" \
  "near($(t 1 lines_per_req), 2) && near($(t 1 line_eff), 50) && near($(t 0 line_eff), 100)"
lab_check "misaligned stores: store efficiency 80% at offset 11, 100% at 0 and 128" \
  "near($(t 7 gst_efficiency), 80) && near($(t 6 gst_efficiency), 100) && near($(t 8 gst_efficiency), 100)"
lab_check "AoS: 50% load and store efficiency; SoA: 100%" \
  "near($(t 9 gld_efficiency), 50) && near($(t 9 gst_efficiency), 50) && near($(t 10 gld_efficiency), 100) && near($(t 10 gst_efficiency), 100)"
for g in fermi kepler; do
  lab_check "$g: misaligned loads are slower than aligned ones (offset 11 vs 0, L1)" "$(lab_v co $g 1 cycles) > $(lab_v co $g 0 cycles)"
  if [ $g = kepler ]; then
    lab_check "$g: ... by more than 5% (textbook: 7% with L1, 27% with .cg)" "$(lab_v co $g 1 cycles) > 1.05 * $(lab_v co $g 0 cycles)"
  else
    lab_size "$g: ... by more than 5% (textbook: 7% with L1, 27% with .cg)" "$(lab_v co $g 1 cycles) > 1.05 * $(lab_v co $g 0 cycles)" \
      "slower, but by about 1%: the fifth sector comes in the 128-byte line the neighbouring warp's miss already fetched, one more L1 cycle"
  fi
  lab_check "$g: misaligned stores are not faster than aligned ones (offset 11 vs 0)" "$(lab_v co $g 7 cycles) >= $(lab_v co $g 6 cycles)"
  # ECC on (the Tesla default): a store of part of a check word of a sector
  # the L2 does not hold reads the sector from DRAM first (l2_write_granule_bytes)
  if [ $g = fermi ]; then
    lab_check "$g: misaligned stores more than 5% slower (textbook: 0.184 vs 0.134 ms)" "$(lab_v co $g 7 cycles) > 1.05 * $(lab_v co $g 6 cycles)"
  else
    lab_size "$g: misaligned stores more than 5% slower (textbook, on the Fermi M2070: 0.184 vs 0.134 ms)" "$(lab_v co $g 7 cycles) > 1.05 * $(lab_v co $g 6 cycles)" \
      "slower, but by less: kepler leaves ECC's read of partly written sectors out (l2_write_granule_bytes = 0); read at the write, it costs the diagonal transpose its partition-camping gain (lab 4)"
  fi
  lab_check "$g: SoA faster than AoS (textbook: 0.200 vs 0.286 ms)" "$(lab_v co $g 10 cycles) < $(lab_v co $g 9 cycles)"
done

# nvprof's figures (the metric definitions of the GPU's generation: ptxemu
# stats on a trace of --gpu fermi / kepler prints these)
if [[ " $LAB_PROFILE " == *" fermi "* ]]; then
  p() { lab_v co fermi-prof "$1" "$2"; }
  lab_title "nvprof's metrics on fermi (trace of the timed run; textbook M2050: L1 on 100 / 49.81 / 100 %, .cg 100 / 80 / 100 %)"
  lab_row variant 12 metric_set gld_eff% gld_trans gld_t/req gst_eff%
  for i in "${!NAMES[@]}"; do
    lab_row "${NAMES[$i]}" 12 "$(p $i metric_set)" "$(lab_fmt "$(p $i gld_efficiency)" 2)" "$(p $i gld_transactions)" \
      "$(lab_fmt "$(p $i gld_transactions_per_request)")" "$(lab_fmt "$(p $i gst_efficiency)" 1)"
  done
  lab_check "fermi, nvprof: gld_efficiency 49.81% at offset 11 with L1 (128-byte lines), 100% at 0 and 128 (textbook Table, M2050)" \
    "near($(p 1 gld_efficiency), 49.81) && near($(p 0 gld_efficiency), 100) && near($(p 2 gld_efficiency), 100)"
  lab_check "fermi, nvprof: gld_efficiency 80% at offset 11 without L1 (-dlcm=cg: 32-byte segments)" \
    "near($(p 4 gld_efficiency), 80) && near($(p 3 gld_efficiency), 100) && near($(p 5 gld_efficiency), 100)"
  lab_check "fermi, nvprof: gld_transactions at offset 11 about twice offset 0's and 128's (textbook 131,039 vs 65,184 / 65,744)" \
    "between($(p 1 gld_transactions) / $(p 0 gld_transactions), 1.9, 2.1) && between($(p 1 gld_transactions) / $(p 2 gld_transactions), 1.9, 2.1)"
  lab_check "fermi, nvprof: gst_efficiency 100 / 80 / 100% (textbook writeSegment)" \
    "near($(p 6 gst_efficiency), 100) && near($(p 7 gst_efficiency), 80) && near($(p 8 gst_efficiency), 100)"
  lab_check "fermi, nvprof: AoS gld/gst_efficiency 50/50%, SoA 100/100% (textbook simpleMathAoS/SoA)" \
    "near($(p 9 gld_efficiency), 50) && near($(p 9 gst_efficiency), 50) && near($(p 10 gld_efficiency), 100) && near($(p 10 gst_efficiency), 100)"
fi
if [[ " $LAB_PROFILE " == *" kepler "* ]]; then
  k() { lab_v co kepler-prof "$1" "$2"; }
  lab_check "kepler, nvprof: global loads cached in L2 only (the K40's default): offset 11 gld_efficiency 80%, 2 transactions per request against 1" \
    "near($(k 1 gld_efficiency), 80) && near($(k 1 gld_transactions_per_request), 2) && near($(k 0 gld_transactions_per_request), 1)"
fi

lab_finish "offset 11: gld_efficiency 49.8% with L1 (128-B lines), 80% without (32-B segments), gst_efficiency 80%, and slower than offsets 0/128; AoS 50% vs SoA 100% efficiency, SoA faster"
