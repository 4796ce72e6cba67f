#!/usr/bin/env bash
# Lab 5: shared-memory bank conflicts (textbook 5.2: checkSmemSquare.cu,
# checkSmemRectangle.cu), 4-byte banks (fermi) and 8-byte banks (kepler) in
# both of Kepler's bank modes: 4-byte addressing (the K40's default, the
# textbook's runs) and 8-byte (cudaDeviceSetSharedMemConfig), "kepler8".
. "$(dirname "$0")/../lib.sh"
lab_gpu_variant kepler8 kepler shared_bank_mode=8
# every GPU's run also records a trace: nvprof's metrics (fermi, kepler)
LAB_PROFILE=${LAB_PROFILE-fermi kepler kepler8}

NAMES=("RowReadRow 32x32" "ColReadCol 32x32" "RowReadCol 32x32" "RowReadColDyn 32x32" "RowReadColPad 32x32"
       "RowReadColDynPad 32x32" "RowReadRow 32x16" "ColReadCol 16x32" "RowReadCol 32x16" "RowReadColDyn 32x16"
       "RowReadColPad(1) 32x16" "RowReadColPad(2) 32x16" "RowReadColDynPad 32x16")
lab_timed sm smem.launch
lab_trace sm smem.launch mem
lab_sql sm "SELECT l.launch_index, 'ld_requests', s.shared_ld_requests FROM launch_mem_stats s JOIN launches l USING (launch_id)"

t() { lab_v sm trace "$1" "$2"; }
# the load wavefronts per request that each GPU model's counters give
w() { lab_calc "$(lab_v sm "$1" "$2" shared_ld_wavefronts) / $(t "$2" ld_requests)" 1; }
lab_title "shared-memory transactions (wavefronts) per request, and cycles"
lab_row kernel 9 "ld/req" "st/req" $(for g in $GPUS; do echo "ld/req@$g"; done) $(for g in $GPUS; do echo "cyc@$g"; done)
for i in "${!NAMES[@]}"; do
  cols=(); cyc=()
  for g in $GPUS; do cols+=("$(w $g $i)"); cyc+=("$(lab_v sm $g $i cycles)"); done
  lab_row "${NAMES[$i]}" 9 "$(lab_fmt "$(t $i shared_load_transactions_per_request)" 1)" \
    "$(lab_fmt "$(t $i shared_store_transactions_per_request)" 1)" "${cols[@]}" "${cyc[@]}"
done

lab_title "direction checks"
ld() { t "$1" shared_load_transactions_per_request; }
st() { t "$1" shared_store_transactions_per_request; }
lab_check "square: RowReadRow 1/1, ColReadCol 32/32 (4-byte banks: a column of 32 ints is one bank)" \
  "near($(ld 0), 1) && near($(st 0), 1) && near($(ld 1), 32) && near($(st 1), 32)"
lab_check "square: RowReadCol and RowReadColDyn load 32, store 1" \
  "near($(ld 2), 32) && near($(st 2), 1) && near($(ld 3), 32) && near($(st 3), 1)"
lab_check "square: one padding column removes the conflicts (static and dynamic): 1/1" \
  "near($(ld 4), 1) && near($(st 4), 1) && near($(ld 5), 1) && near($(st 5), 1)"
lab_check "rectangle: ColReadCol 16/16, RowReadCol and Dyn load 16 store 1 (fermi's numbers)" \
  "near($(ld 7), 16) && near($(st 7), 16) && near($(ld 8), 16) && near($(st 8), 1) && near($(ld 9), 16)"
lab_check "rectangle: NPAD=1 still 2-way, NPAD=2 and DynPad conflict-free (textbook K40: 2 and 1)" \
  "near($(ld 10), 2) && near($(ld 11), 1) && near($(ld 12), 1)"
for g in $GPUS; do
  c() { lab_v sm $g "$1" cycles; }
  lab_check "$(basename "$g" .gpu): conflicting ColReadCol slower than RowReadRow, padded RowReadColPad faster than RowReadCol" \
    "$(c 1) > $(c 0) && $(c 4) < $(c 2)"
done
if [[ " $GPUS " == *" kepler "* ]]; then
  lab_check "kepler (8-byte banks): square ColReadCol 16 per request (textbook K40: 16/16)" "near($(w kepler 1), 16)"
  lab_check "kepler (8-byte banks): rectangle ColReadCol 8 per request (textbook K40: 8/8)" "near($(w kepler 7), 8)"
fi

# nvprof's shared_load/store_transactions_per_request, per GPU and bank mode
# (the traces of the timed runs).  fermi: 4-byte banks; kepler: the K40's
# 4-byte mode, where words i and i + 32 of a 64-word row share a bank
# without conflict (textbook 5.1.3, figures measured on the K40c); kepler8:
# 8-byte mode, bank = (address / 8) % 32 (CUDA C guide, compute capability
# 3.x).  Expected (load/store): RowReadRow 1/1 everywhere; square ColReadCol
# 32/16/16, RowReadCol 32/16/16 load; square Pad 1 / 1 / 1.5 (8-byte mode:
# half the warps 2-way, one pad word is half a bank); rectangle ColReadCol
# 16/8/8, RowReadCol 16/8/8, NPAD=1 2/2/2, NPAD=2 1.
EXPECT_LD=(
  "1 1 1" "32 16 16" "32 16 16" "32 16 16" "1 1 1.5" "1 1 1.5"
  "1 1 1" "16 8 8" "16 8 8" "16 8 8" "2 2 2" "1 1 1" "1 1 1")
EXPECT_ST=(
  "1 1 1" "32 16 16" "1 1 1" "1 1 1" "1 1 1" "1 1 1"
  "1 1 1" "16 8 8" "1 1 1" "1 1 1" "1 1 1" "1 1 1" "1 1 1")
PROF_GPUS=(fermi kepler kepler8)
have_prof=1
for g in "${PROF_GPUS[@]}"; do [[ " $LAB_PROFILE " == *" $g "* ]] || have_prof=0; done
if [ $have_prof = 1 ]; then
  lab_title "nvprof's shared load/store transactions per request (traces of the timed runs)"
  lab_row kernel 14 "fermi" "kepler (4-byte)" "kepler8 (8-byte)"
  pv() { lab_v sm "$1-prof" "$2" "$3"; }
  for i in "${!NAMES[@]}"; do
    cols=()
    for g in "${PROF_GPUS[@]}"; do
      cols+=("$(lab_fmt "$(pv $g $i shared_load_transactions_per_request)" 1)/$(lab_fmt "$(pv $g $i shared_store_transactions_per_request)" 1)")
    done
    lab_row "${NAMES[$i]}" 14 "${cols[@]}"
  done
  for k in 0 1 2; do
    g=${PROF_GPUS[$k]}
    cond="1"
    for i in "${!NAMES[@]}"; do
      read -r -a el <<<"${EXPECT_LD[$i]}"; read -r -a es <<<"${EXPECT_ST[$i]}"
      cond="$cond && near($(pv $g $i shared_load_transactions_per_request), ${el[$k]}) && near($(pv $g $i shared_store_transactions_per_request), ${es[$k]})"
    done
    case $g in
      fermi) what="fermi (4-byte banks): every kernel's load/store transactions per request (square column 32-way, rectangle 16-way, padding 1)";;
      kepler) what="kepler, 4-byte mode: every kernel as the K40c measured (square ColReadCol 16/16, RowReadCol 16/1, Pad 1/1; rectangle 8/8, 8/1, NPAD=1 2, NPAD=2 1)";;
      *) what="kepler, 8-byte mode: every kernel by the 8-byte rule (as 4-byte mode, but one pad word leaves the square tile's column read 1.5 per request)";;
    esac
    lab_check "$what" "$cond"
    lab_check "$g: metric_set is nvprof" "\"$(pv $g 0 metric_set)\" == \"nvprof\""
  done
fi

lab_finish "K40c (8-byte banks, 4-byte mode): square ColReadCol 16/16, RowReadCol 16/1, Pad 1/1; rectangle ColReadCol 8/8, RowReadCol 8/1, NPAD=1 2, NPAD=2 1; fermi (4-byte banks) 32-way; padded ~ row-major time"
