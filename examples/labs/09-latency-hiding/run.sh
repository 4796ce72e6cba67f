#!/usr/bin/env bash
# Lab 9: latency hiding (textbook 3.3.3 and 4.4: latency, Little's law,
# memory-level parallelism from more warps or from unrolling).
. "$(dirname "$0")/../lib.sh"

lab_timed la latency.launch
lab_trace la latency.launch mem
cfg() { lab_gpu_key "$1" "$2"; }
hop() { lab_calc "($(lab_v la "$1" "$3" cycles) - $(lab_v la "$1" "$2" cycles)) / ($3 == 1 ? 1024 : ($3 == 3 ? 8192 : 2048))" 1; }

lab_title "pointer chase: cycles per hop (one thread; the model's load latency in brackets)"
lab_row ring 16 $GPUS
RING=("1 KiB (L1)" "512 KiB (L2)" "16 MiB (DRAM)"); LAT=(lat_l1 lat_l2 lat_dram)
for r in 0 1 2; do
  cols=()
  for g in $GPUS; do cols+=("$(hop $g $((2 * r)) $((2 * r + 1))) ($(cfg $g ${LAT[$r]}))"); done
  lab_row "${RING[$r]}" 16 "${cols[@]}"
done

# DRAM read bytes per cycle of kernel time (launch overhead taken off)
bpc() { lab_calc "$(lab_v la "$1" "$2" dram_read_bytes) / ($(lab_v la "$1" "$2" cycles) - $(lab_launch_cycles "$1"))" 1; }
peak() { lab_calc "$(cfg "$1" dram_bandwidth_gbs) * 1000 / $(lab_clock_mhz "$1")" 1; }
lab_title "streaming 4 MiB: DRAM read bytes per cycle (achieved occupancy %)"
lab_row threads 16 $GPUS
LBL=([6]="512" [7]="4096" [8]="32768" [9]="262144" [10]="4096, 8 loads each" [11]="32768, 8 loads each")
for i in 6 7 8 9 10 11; do
  cols=()
  for g in $GPUS; do cols+=("$(bpc $g $i) ($(lab_fmt "$(lab_v la $g $i achieved_occupancy_pct)" 0))"); done
  lab_row "${LBL[$i]}" 16 "${cols[@]}"
done
cols=(); need=()
for g in $GPUS; do
  cols+=("$(peak $g)")
  need+=("$(lab_calc "$(cfg $g lat_dram) * $(peak $g) / 4" 0)")
done
lab_row "DRAM peak, B/cycle" 16 "${cols[@]}"
lab_row "threads for Little's law" 16 "${need[@]}"
echo "(Little's law: bytes in flight = latency x bandwidth = lat_dram x peak; / 4 bytes per thread)"

lab_title "direction checks"
for g in $GPUS; do
  if [ "$(cfg $g l1_caches_global)" = 1 ]; then
    lab_check "$g: the chase pays each level's latency: L1 < L2 < DRAM per hop" \
      "$(hop $g 0 1) < $(hop $g 2 3) && $(hop $g 2 3) < $(hop $g 4 5)"
  else
    # sm_35 caches global loads in L2 only: a 1 KiB ring is an L2 chase
    lab_check "$g: global loads skip L1 (1 KiB ring as slow as the L2 one), L2 < DRAM per hop" \
      "near($(hop $g 0 1), $(hop $g 2 3)) && $(hop $g 2 3) < $(hop $g 4 5)"
  fi
  # lat_dram is a row miss; hops that stay in an open DRAM row save the precharge and activate
  lab_check "$g: a DRAM hop costs at least a row hit's latency (400-800 cycles in the textbook)" \
    "$(hop $g 4 5) >= $(cfg $g lat_dram) - $(cfg $g dram_row_miss_cycles)"
  lab_check "$g: streaming throughput grows with the threads in flight (512 < 4096 < 32768)" \
    "$(bpc $g 6) < $(bpc $g 7) && $(bpc $g 7) < $(bpc $g 8)"
  lab_check "$g: 8 independent loads per thread beat 1 at the same thread count (ILP)" "$(bpc $g 10) > 1.5 * $(bpc $g 7)"
  lab_check "$g: no run exceeds the DRAM peak" \
    "$(bpc $g 8) <= $(peak $g) && $(bpc $g 9) <= $(peak $g) && $(bpc $g 11) <= $(peak $g)"
done
lab_check "h100 needs more parallelism: 32768 threads reach a smaller share of its peak than of fermi's" \
  "$(bpc h100 8) / $(peak h100) < $(bpc fermi 8) / $(peak fermi)"

lab_finish "arithmetic latency 10-20 cycles, global memory 400-800; to hide it a Fermi SM needs ~36 warps (Little's law: 74 KB in flight for 144 GB/s at 800 cycles); unrolling adds independent loads (readSegmentUnroll 3x faster)"
