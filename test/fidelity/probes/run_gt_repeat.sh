#!/bin/bash
# How far the H200 repeats itself: family 1 of the ground truth (micro.cu, `--cache-control all`,
# the ground truth's 77 metrics, kernel replay) profiled REPEATS times in a row as run_all.sh does,
# and the kernels whose DRAM writes are small or sit near the L2's dirty room also alone, one
# process each; and family 1 twice in one replay pass (DRAM and L2 write metrics only: ncu's multi-pass
# # replay leaves no dirty lines behind, run `single_*`). On the device machine, from the repository
# root, with micro.cu and metrics_used.txt copied into $1: `bash test/fidelity/probes/run_gt_repeat.sh DIR`. $OUT gets one CSV
# (gt_repeat_h200.csv: run, kernel, dram write/read bytes, L2 write sectors) and the ncu logs.
GT=$(cd "$1" && pwd); cd "$(dirname "$0")"
NCU=$(command -v ncu || ls -d /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | tail -n1)
nvcc -arch=sm_90 -O3 -lineinfo -o "$GT/micro" "$GT/micro.cu" || exit 1
M=$(grep -v '^#' "$GT/metrics_used.txt" | paste -sd, -)
REPEATS=${REPEATS:-6}
SOLO="g_ld_u32_coalesced g_ld_u32_misaligned g_ld_u32_stride2 g_ld_u32_broadcast g_st_u64_coalesced g_ld_u64_coalesced"
prof() {  # tag, program argument[, metrics]
  timeout 120 "$NCU" --clock-control none --cache-control all --metrics "${3:-$M}" -k 'regex:^g_' -f -o "$GT/$1" "$GT/micro" $2 >> "$OUT/ncu.log" 2>&1
  "$NCU" -i "$GT/$1.ncu-rep" --page raw --csv --print-units base > "$GT/$1.csv"
}
for r in $(seq 1 "$REPEATS"); do prof "family_$r" g; done
for r in $(seq 1 "${SOLO_RUNS:-3}"); do for k in $SOLO; do prof "solo_${r}_$k" $k; done; done
for r in 1 2; do prof "single_$r" g dram__bytes_write.sum,dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_write.sum; done
python3 - "$GT" > "$OUT/gt_repeat_h200.csv" <<'PY'
import csv, glob, os, sys
cols = ['dram__bytes_write.sum', 'dram__bytes_read.sum', 'lts__t_sectors_srcunit_tex_op_write.sum']
print('run,kernel,' + ','.join(cols))
for f in sorted(glob.glob(os.path.join(sys.argv[1], '*.csv'))):
    rows = list(csv.reader(open(f)))
    if len(rows) < 3: continue
    h = rows[0]
    for r in rows[2:]:
        print(os.path.basename(f)[:-4] + ',' + r[h.index('Kernel Name')].split('(')[0].replace('void ', '') + ','
              + ','.join(r[h.index(c)].replace(',', '') for c in cols))
PY
grep -h "passes\|rror" "$OUT/ncu.log" | sort | uniq -c | head
