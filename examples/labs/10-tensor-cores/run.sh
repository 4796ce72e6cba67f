#!/usr/bin/env bash
# Lab 10: tensor cores (wmma) vs FMA instructions for a GEMM, on the GPUs
# that have tensor cores (the textbook's Fermi and Kepler do not).
GPUS=${GPUS:-"a100 h100"}
. "$(dirname "$0")/../lib.sh"

N=256
FLOP=$((2 * N * N * N))
NAMES=("FMA, 16x16 smem tiles" "wmma 16x16x16 (tensor)")
lab_timed gm gemm.launch
lab_hw gm lab_gemm
lab_trace gm gemm.launch warp
lab_sql gm "SELECT l.launch_index, 'mma_insts', sum(r.reps) FROM warp_runs r
    JOIN launches l ON r.id BETWEEN l.first_run_id AND l.last_run_id
    JOIN instructions i ON i.insn_id BETWEEN r.insn_id AND r.insn_id + r.n - 1
    WHERE i.opname LIKE 'wmma.mma%' GROUP BY l.launch_index
  UNION ALL SELECT l.launch_index, 'fma_insts', sum(r.reps) FROM warp_runs r
    JOIN launches l ON r.id BETWEEN l.first_run_id AND l.last_run_id
    JOIN instructions i ON i.insn_id BETWEEN r.insn_id AND r.insn_id + r.n - 1
    WHERE i.opname LIKE 'fma.%' GROUP BY l.launch_index"

lab_title "C = A B, $N^3, half in / float out: cycles (GFLOP/s at the model's clock); H100 (real): measured, tests/golden/lab_gemm"
lab_row kernel 18 $GPUS "H100 (real)" "warp insts" "fma insts" "mma insts"
for i in 0 1; do
  cols=()
  for g in $GPUS H100; do
    c=$(lab_v gm $g $i cycles)
    cols+=("$c ($(lab_calc "$FLOP * $(lab_clock_mhz $g) / $c / 1000" 0))")
  done
  lab_row "${NAMES[$i]}" 18 "${cols[@]}" "$(lab_v gm "${GPUS%% *}" $i inst_executed)" \
    "$(lab_v gm trace $i fma_insts)" "$(lab_v gm trace $i mma_insts)"
done
echo "(one wmma.mma is 16 x 16 x 16 = 4096 multiply-adds for the warp; one warp-wide fma is 32)"

lab_title "direction checks"
for g in $GPUS; do
  lc=$(lab_launch_cycles $g)
  # measured on an H100 (tests/golden/lab_gemm): FMA 20472 cycles, wmma 22839.
  # Each warp's wmma.load reads its fragments from global memory every k
  # step and waits for them: at 256^3 the tensor cores sit idle.
  # each fragment load is 4 requests of 8 lines, and the L1 takes a line at
  # a time (l1_lines_per_cycle): 16 warps x 8 requests x 8 lines per k step
  lab_check "$g: the naive tensor-core GEMM is no faster than the tiled FMA GEMM (H100: 22839 vs 20472 cycles)" \
    "$(lab_v gm $g 1 cycles) >= $(lab_v gm $g 0 cycles)"
  lab_check "$g: the tensor-core GEMM executes > 10x fewer warp instructions" \
    "$(lab_v gm $g 0 inst_executed) > 10 * $(lab_v gm $g 1 inst_executed)"
done
lab_check "one wmma.mma per 16x16 tile and k step: (N/16)^3 = $(((N / 16) ** 3)) mma instructions" \
  "$(lab_v gm trace 1 mma_insts) == $(((N / 16) ** 3))"

lab_finish "(not in the textbook, which predates tensor cores) a warp-wide mma does 4096 multiply-adds where an FFMA does 32: the GEMM needs far fewer instructions; but fed straight from global memory (no shared-memory staging) every fragment load is 4 requests of 8 lines each and the L1 looks up one line a cycle, so on an H100 this naive wmma GEMM is not faster than the tiled FMA one"
