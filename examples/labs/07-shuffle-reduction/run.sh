#!/usr/bin/env bash
# Lab 7: reduction in global memory, shared memory, and with warp shuffles
# (textbook 5.3 reduceInteger.cu, 5.6 reduceIntegerShfl.cu).
. "$(dirname "$0")/../lib.sh"

NAMES=(reduceGmem reduceSmem reduceSmemUnroll reduceShfl)
# kepler's run also records a trace: nvprof's transactions (K40)
LAB_PROFILE=${LAB_PROFILE-kepler}
lab_timed rs reduce_smem.launch
lab_trace rs reduce_smem.launch all

lab_title "cycles per GPU"
lab_row kernel 12 $GPUS
for i in 0 1 2 3; do
  cols=()
  for g in $GPUS; do cols+=("$(lab_v rs $g $i cycles)"); done
  lab_row "${NAMES[$i]}" 12 "${cols[@]}"
done

v() { lab_v rs kepler "$1" "$2"; }     # counters: the same for every GPU (fermi has no reduceShfl)
lab_title "global and shared memory traffic, instructions (262144 ints)"
lab_row kernel 10 gld_req gld_sect gst_req gst_sect smem_wavef inst inst/warp
for i in 0 1 2 3; do
  lab_row "${NAMES[$i]}" 10 "$(v $i gld_requests)" "$(v $i gld_sectors)" "$(v $i gst_requests)" "$(v $i gst_sectors)" \
    "$(v $i shared_ld_wavefronts)" "$(v $i inst_executed)" "$(lab_fmt "$(lab_v rs trace $i inst_per_warp)" 1)"
done

lab_title "direction checks"
lab_check "shared memory cuts global load requests > 4x and store requests > 8x (textbook 5.5x and 9x)" \
  "$(v 0 gld_requests) > 4 * $(v 1 gld_requests) && $(v 0 gst_requests) > 8 * $(v 1 gst_requests)"
lab_check "unrolling 4 blocks per thread cuts store requests 4x (textbook 131072 -> 32768)" \
  "$(v 1 gst_requests) == 4 * $(v 2 gst_requests)"
lab_check "shuffles replace the shared-memory tree: far fewer shared wavefronts" \
  "$(v 3 shared_ld_wavefronts) * 8 < $(v 1 shared_ld_wavefronts)"
for g in fermi kepler; do
  c() { lab_v rs $g "$1" cycles; }
  if [ $g = fermi ]; then
    lab_check "$g: reduceSmemUnroll fastest, faster than reduceSmem" "$(c 2) < $(c 1) && $(c 2) < $(c 0)"
  else
    # nvcc interleaves the four loads with the adds; issued as ptxas orders
    # them (issue_order = scheduled), they are in flight together
    lab_check "$g: reduceSmemUnroll fastest, faster than reduceSmem" "$(c 2) < $(c 1) && $(c 2) < $(c 3) && $(c 2) < $(c 0)"
  fi
  [ $g = fermi ] && continue      # no shfl on sm_20: reduce_smem.fermi.launch leaves reduceShfl out
  lab_check "$g: reduceShfl faster than reduceSmem (textbook 2.85 vs 4.00 us)" "$(c 3) < $(c 1)"
done
lab_check "fermi cannot run reduceShfl (shfl needs sm_30): ptxemu refuses it" \
  "$(if "$PTXEMU" check -q --gpu fermi "$LAB_DIR/reduce_smem.launch" 2>&1 | grep -q 'needs sm_30'; then echo 1; else echo 0; fi) == 1"
lab_check "fermi: reduceGmem slower than reduceSmem" "$(lab_v rs fermi 0 cycles) > $(lab_v rs fermi 1 cycles)"
lab_check "kepler: reduceGmem slower than reduceSmem (textbook 2.12 vs 1.15 ms)" \
  "$(lab_v rs kepler 0 cycles) > $(lab_v rs kepler 1 cycles)"

# nvprof's gld/gst_transactions on the K40 (textbook 5.3, 16M ints in blocks
# of 128: Gmem 2,883,584 / 1,179,648, Smem 524,288 / 131,072, SmemUnroll
# 524,288 / 32,768), scaled to this lab's 262144 ints (1/64)
if [[ " $LAB_PROFILE " == *" kepler "* ]]; then
  k() { lab_v rs kepler-prof "$1" "$2"; }
  lab_title "nvprof's global transactions on kepler (trace of the timed run; textbook K40 / 64)"
  lab_row kernel 12 gld_trans gst_trans textbook
  tb=("45056 / 18432" "8192 / 2048" "8192 / 512" "-")
  for i in 0 1 2 3; do lab_row "${NAMES[$i]}" 12 "$(k $i gld_transactions)" "$(k $i gst_transactions)" "${tb[$i]}"; done
  lab_check "kepler, nvprof: reduceSmem 8192 load / 2048 store transactions, reduceSmemUnroll 8192 / 512 (textbook 524,288 / 131,072 and 524,288 / 32,768 for 64x the data)" \
    "near($(k 1 gld_transactions), 8192) && near($(k 1 gst_transactions), 2048) && near($(k 2 gld_transactions), 8192) && near($(k 2 gst_transactions), 512)"
  lab_check "kepler, nvprof: reduceGmem 45056 load / 18432 store transactions (textbook 2,883,584 / 1,179,648 for 64x the data)" \
    "near($(k 0 gld_transactions), 45056) && near($(k 0 gst_transactions), 18432)"
fi

lab_finish "K40, 16M ints: reduceGmem 2.12 ms > reduceSmem 1.15 ms > reduceSmemUnroll 0.42 ms; global load/store transactions 2.9M/1.2M -> 0.52M/0.13M -> 0.52M/0.03M; reduceShfl 2.85 us < reduceSmem 4.00 us"
