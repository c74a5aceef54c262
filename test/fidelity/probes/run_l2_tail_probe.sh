#!/bin/bash
# Builds l2_tail_probe.cu and runs it under ncu (--clock-control none, caches flushed): on the device
# machine, from the repository root, `bash test/fidelity/probes/run_l2_tail_probe.sh`; $OUT gets the
# raw CSVs (kept here as l2_tail_probe*_h200.csv):
#   l2_tail_probe_h200.csv:           the kernels with and without an idle tail (one pass)
#   l2_tail_probe_plain_p<N>_h200.csv: the plain kernels replayed in 1, 3 and 11 passes (11: the ground
#                                      truth's metric list, GT_METRICS = groundtruth/h200/metrics_used.txt)
cd "$(dirname "$0")"
NCU=$(command -v ncu || ls -d /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | tail -n1)
nvcc -arch=sm_90 -O3 -o l2tail l2_tail_probe.cu || exit 1
M=dram__bytes_write.sum,dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_write.sum
run() {  # name, program argument, metrics
  timeout 300 "$NCU" --clock-control none --cache-control all --metrics "$3" -f -o "$OUT/$1" ./l2tail $2 > "$OUT/$1.log" 2>&1
  "$NCU" -i "$OUT/$1.ncu-rep" --page raw --csv --print-units base > "$OUT/$1_h200.csv" && rm -f "$OUT/$1.ncu-rep"
}
run l2_tail_probe "" $M,gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active
run l2_tail_probe_plain_p1 plain dram__bytes_write.sum
run l2_tail_probe_plain_p3 plain $M,gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,lts__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,dram__sectors_write.sum
[ -n "${GT_METRICS:-}" ] && run l2_tail_probe_plain_p11 plain "$(grep -v '^#' "$GT_METRICS" | paste -sd, -),$M"
grep -h "passes\|err" "$OUT"/*.log | head -30
