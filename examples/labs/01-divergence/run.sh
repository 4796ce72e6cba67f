#!/usr/bin/env bash
# Lab 1: warp divergence (textbook 3.2.2, simpleDivergence.cu).
. "$(dirname "$0")/../lib.sh"

lab_timed o3 divergence.launch
lab_trace o3 divergence.launch warp
lab_trace g divergence-G.launch warp
for t in o3 g; do
  lab_sql "$t" "SELECT l.launch_index, 'branches', s.branches FROM launch_warp_stats s JOIN launches l USING (launch_id)
    UNION ALL SELECT l.launch_index, 'divergent', s.divergent_branches FROM launch_warp_stats s JOIN launches l USING (launch_id)
    UNION ALL SELECT l.launch_index, 'inst', s.inst_executed FROM launch_warp_stats s JOIN launches l USING (launch_id)"
done

t() { lab_v "$1" trace "$2" "$3"; }
lab_title "branches per launch (trace): nvcc -G (as the textbook's nvprof table) and -O3"
lab_row kernel 13 "-G branch" "-G diverg." "-G br_eff%" "-O3 branch" "-O3 diverg." "-O3 br_eff%"
NAMES=("mathKernel1 (tid%2)" "mathKernel2 (warp%2)" "mathKernel3 (2 ifs)")
for i in 0 1 2; do
  lab_row "${NAMES[$i]}" 13 "$(t g $i branches)" "$(t g $i divergent)" "$(lab_fmt "$(t g $i branch_efficiency)")" \
    "$(t o3 $i branches)" "$(t o3 $i divergent)" "$(lab_fmt "$(t o3 $i branch_efficiency)")"
done

lab_title "long paths (256 iterations a side, 16384 threads): divergence serialises them"
lab_row kernel 12 branch_eff% warp_exec% inst $(for g in $GPUS; do echo "cyc_$g"; done)
NAMES=([3]="mathKernelLong1 (tid%2)" [4]="mathKernelLong2 (warp%2)")
for i in 3 4; do
  cols=()
  for g in $GPUS; do cols+=("$(lab_v o3 "$g" $i cycles)"); done
  lab_row "${NAMES[$i]}" 12 "$(lab_fmt "$(t o3 $i branch_efficiency)")" \
    "$(lab_fmt "$(t o3 $i warp_execution_efficiency)")" "$(t o3 $i inst)" "${cols[@]}"
done

lab_title "direction checks"
lab_check "-G: mathKernel2 (warp-granular) has no divergent branch" "$(t g 1 divergent) == 0"
lab_check "-G: mathKernel1 diverges: branch efficiency < 100%" "$(t g 0 branch_efficiency) < 100"
lab_check "-G: mathKernel3 (two ifs) has twice the divergent branches of mathKernel1" \
  "$(t g 2 divergent) == 2 * $(t g 0 divergent)"
lab_check "-G: branch efficiency mathKernel3 < mathKernel1 < mathKernel2" \
  "$(t g 2 branch_efficiency) < $(t g 0 branch_efficiency) && $(t g 0 branch_efficiency) < $(t g 1 branch_efficiency)"
lab_check "-O3: the short branches are predicated (100% branch efficiency, as in the textbook)" \
  "$(t o3 0 divergent) + $(t o3 1 divergent) + $(t o3 2 divergent) == 0"
lab_check "long paths: tid%2 diverges, warp%2 does not" "$(t o3 3 divergent) > 0 && $(t o3 4 divergent) == 0"
lab_check "long paths: tid%2 executes more warp instructions (both sides)" "$(t o3 3 inst) > 1.8 * $(t o3 4 inst)"
for g in $GPUS; do
  lc=$(lab_launch_cycles $g)
  lab_check "$g: long paths: tid%2 takes > 1.5x the cycles of warp%2 (launch overhead of $lc cycles taken off)" \
    "$(lab_v o3 $g 3 cycles) - $lc > 1.5 * ($(lab_v o3 $g 4 cycles) - $lc)"
done

lab_finish "-G: branch efficiency 83.33% / 100% / 71.43%, divergent branches 2 / 0 / 4 (mathKernel1/2/3); -O3: 100% (predication); warp-granular branches do not diverge"
