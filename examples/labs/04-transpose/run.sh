#!/usr/bin/env bash
# Lab 4: matrix transpose (textbook 4.4.2 transpose.cu, 5.4 transposeRectangle.cu).
. "$(dirname "$0")/../lib.sh"

NAMES=("CopyRow 16x16" "CopyCol 16x16" "NaiveRow 16x16" "NaiveCol 16x16" "Unroll4Row 16x16"
       "Unroll4Col 16x16" "DiagonalRow 16x16" "copyGmem 32x16" "naiveGmem 32x16" "Smem 32x16"
       "SmemPad 32x16" "SmemUnrollPad 32x16")
BYTES=$((2 * 1024 * 1024 * 4))   # read + written (effective bandwidth)
# the textbook times these kernels on the K40 with L1 caching of global loads
# enabled (-Xptxas -dlcm=ca); kepler.gpu has the default, L2 only
lab_gpu_with kepler l1_caches_global=1
# fermi's and kepler's runs also record a trace: nvprof's metrics
LAB_PROFILE=${LAB_PROFILE-fermi kepler}
lab_timed tr transpose.launch
lab_hw tr lab_transpose
lab_trace tr transpose.launch mem
# 128-byte lines per request: the "transactions" of the textbook's
# Fermi/Kepler stores (1, 2 or 4 segments of one 128-byte region) and L1 loads
lab_sql tr "SELECT l.launch_index, 'st_lines', 1.0 * sum(m.lines) / count(*) FROM mem_accesses m
    JOIN launches l USING (launch_id) WHERE m.space_id = 0 AND m.kind_id = 1 GROUP BY l.launch_index
  UNION ALL SELECT l.launch_index, 'ld_line_eff', 100.0 * sum(m.bytes) / (128.0 * sum(m.lines)) FROM mem_accesses m
    JOIN launches l USING (launch_id) WHERE m.space_id = 0 AND m.kind_id = 0 GROUP BY l.launch_index"

bw() { lab_calc "$BYTES * $(lab_clock_mhz "$1") / $(lab_v tr "$1" "$2" cycles) / 1000" 1; }
lab_title "effective bandwidth, GB/s = 2 x 4 MiB / kernel time (cycles); H100 (real): measured, tests/golden/lab_transpose"
lab_row kernel 17 $GPUS "H100 (real)"
for i in "${!NAMES[@]}"; do
  cols=()
  for g in $GPUS H100; do cols+=("$(bw $g $i) ($(lab_v tr $g $i cycles))"); done
  lab_row "${NAMES[$i]}" 17 "${cols[@]}"
done

t() { lab_v tr trace "$1" "$2"; }
lab_title "transactions (trace; address-determined)"
lab_row kernel 10 "ld sec/req" "ld_eff%" "ld_line%" "st sec/req" "st line/req" "st_eff%" "smem ld/req" "smem st/req"
for i in "${!NAMES[@]}"; do
  lab_row "${NAMES[$i]}" 10 "$(lab_fmt "$(t $i gld_transactions_per_request)" 1)" "$(lab_fmt "$(t $i gld_efficiency)" 1)" \
    "$(lab_fmt "$(t $i ld_line_eff)" 1)" "$(lab_fmt "$(t $i gst_transactions_per_request)" 1)" "$(lab_fmt "$(t $i st_lines)" 1)" \
    "$(lab_fmt "$(t $i gst_efficiency)" 1)" "$(lab_fmt "$(t $i shared_load_transactions_per_request)" 1)" \
    "$(lab_fmt "$(t $i shared_store_transactions_per_request)" 1)"
done

lab_title "direction checks"
lab_check "store lines per request: copy 1, naive 32, shared-memory tile 2 (textbook: 1 / 32 / 2 transactions)" \
  "near($(t 7 st_lines), 1) && near($(t 8 st_lines), 32) && near($(t 9 st_lines), 2)"
lab_check "16x16 load (128-B lines) / store efficiency: CopyRow 50/100, CopyCol 6.25/25, NaiveRow 50/25, NaiveCol 6.25/100 (textbook Table 4-8)" \
  "near($(t 0 ld_line_eff), 50) && near($(t 0 gst_efficiency), 100) && near($(t 1 ld_line_eff), 6.25) && near($(t 1 gst_efficiency), 25) && near($(t 2 ld_line_eff), 50) && near($(t 2 gst_efficiency), 25) && near($(t 3 ld_line_eff), 6.25) && near($(t 3 gst_efficiency), 100)"
lab_check "shared tile: 16 wavefronts per column read (fermi's 4-byte banks), padding -> 1" \
  "near($(t 9 shared_load_transactions_per_request), 16) && near($(t 10 shared_load_transactions_per_request), 1) && near($(t 11 shared_load_transactions_per_request), 1)"
for g in fermi kepler; do
  c() { lab_v tr $g "$1" cycles; }
  lab_check "$g: NaiveCol faster than NaiveRow (L1 caches the strided loads)" "$(c 3) < $(c 2)"
  lab_check "$g: Unroll4Col faster than Unroll4Row" "$(c 5) < $(c 4)"
  lab_check "$g: padding and unrolling help the shared tile: SmemUnrollPad < SmemPad < Smem" "$(c 11) < $(c 10) && $(c 10) < $(c 9)"
  lab_check "$g: CopyRow faster than CopyCol (textbook 125.7 vs 58.8 GB/s)" "$(c 0) < $(c 1)"
  lab_check "$g: shared-memory transpose faster than naiveGmem (textbook 86.5 vs 37.2 GB/s)" "$(c 9) < $(c 8)"
  lab_check "$g: diagonal block order faster than NaiveRow (partition camping)" "$(c 6) < $(c 2)"
done

# nvprof's figures, from the traces of the timed runs (the metric
# definitions of the GPU's generation: 128-byte transactions, L1-cached
# loads in whole lines)
if [[ " $LAB_PROFILE " == *" fermi "* && " $LAB_PROFILE " == *" kepler "* ]]; then
  f() { lab_v tr fermi-prof "$1" "$2"; }
  k() { lab_v tr kepler-prof "$1" "$2"; }
  lab_title "nvprof's metrics: fermi (L1 on) and kepler (-dlcm=ca) traces"
  lab_row kernel 10 "f gld_eff" "f gst_eff" "k gld t/r" "k gst t/r" "f shl t/r" "k shl t/r"
  for i in "${!NAMES[@]}"; do
    lab_row "${NAMES[$i]}" 10 "$(lab_fmt "$(f $i gld_efficiency)")" "$(lab_fmt "$(f $i gst_efficiency)")" \
      "$(lab_fmt "$(k $i gld_transactions_per_request)" 1)" "$(lab_fmt "$(k $i gst_transactions_per_request)" 1)" \
      "$(lab_fmt "$(f $i shared_load_transactions_per_request)" 1)" "$(lab_fmt "$(k $i shared_load_transactions_per_request)" 1)"
  done
  lab_check "fermi, nvprof gld/gst_efficiency (textbook Table 4-8, M2090 L1 on): CopyRow 49.81/100, CopyCol 6.23/25, NaiveRow 50/25, NaiveCol 6.21/100" \
    "near($(f 0 gld_efficiency), 49.81) && near($(f 0 gst_efficiency), 100) && near($(f 1 gld_efficiency), 6.23) && near($(f 1 gst_efficiency), 25) && near($(f 2 gld_efficiency), 50) && near($(f 2 gst_efficiency), 25) && near($(f 3 gld_efficiency), 6.21) && near($(f 3 gst_efficiency), 100)"
  lab_check "kepler, nvprof gst_transactions_per_request copyGmem 1, naiveGmem 32, transposeSmem 2; gld_transactions_per_request 1 (textbook 5.4, K40)" \
    "near($(k 7 gst_transactions_per_request), 1) && near($(k 8 gst_transactions_per_request), 32) && near($(k 9 gst_transactions_per_request), 2) && near($(k 7 gld_transactions_per_request), 1) && near($(k 8 gld_transactions_per_request), 1) && near($(k 9 gld_transactions_per_request), 1) && near($(k 10 gld_transactions_per_request), 1)"
  lab_check "transposeSmem shared load/store transactions per request: K40 (4-byte mode) 8/1, M2090 16/1; padded 1/1 on both (textbook 5.4)" \
    "near($(k 9 shared_load_transactions_per_request), 8) && near($(k 9 shared_store_transactions_per_request), 1) && near($(f 9 shared_load_transactions_per_request), 16) && near($(f 9 shared_store_transactions_per_request), 1) && near($(k 10 shared_load_transactions_per_request), 1) && near($(f 10 shared_load_transactions_per_request), 1) && near($(k 10 shared_store_transactions_per_request), 1)"
fi

lab_finish "bandwidth CopyRow > NaiveCol > NaiveRow > CopyCol with L1 (fermi), Unroll4Col > Unroll4Row; store transactions/request copy 1, naive 32, smem tile 2; naive < Smem < SmemPad < SmemUnrollPad ~ copy"
