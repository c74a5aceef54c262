#!/bin/bash
# Builds l2_excess_probe.cu and runs it under ncu (--clock-control none): on the device machine, from
# the repository root, `bash test/fidelity/probes/run_l2_excess_probe.sh`; $OUT gets the raw CSVs
# (kept here as l2_excess_probe_<name>_h200.csv):
#   flushed:   run 1, caches flushed before each kernel, few metrics (3 passes)
#   carry:     run 2, --cache-control none
#   multipass: kernel 0 with the ground truth's whole metric list (11 passes); needs GT_METRICS =
#              groundtruth/h200/metrics_used.txt
#   only_*:    run 3, the read-only stream twice: kernel replay with one pass (k1), application
#              replay under each cache control, and after allocating 8 GB more (big)
cd "$(dirname "$0")"
NCU=$(command -v ncu || ls -d /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | tail -n1)
nvcc -arch=sm_90 -O3 -o l2excess l2_excess_probe.cu || exit 1
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__sectors_write.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_op_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sector_hit_rate.pct
run() {  # name, program arguments (quoted), ncu options...
  local n=$1 a=$2; shift 2
  timeout 200 "$NCU" --clock-control none "$@" -f -o "$OUT/$n" ./l2excess $a > "$OUT/$n.log" 2>&1
  "$NCU" -i "$OUT/$n.ncu-rep" --page raw --csv --print-units base > "$OUT/$n.csv" && rm -f "$OUT/$n.ncu-rep"
}
run flushed "" --cache-control all --metrics $M
run carry carry --cache-control none --metrics $M
[ -n "${GT_METRICS:-}" ] && run multipass "" --cache-control all --metrics "$(grep -v '^#' "$GT_METRICS" | paste -sd, -),$M" -c 1
run only_k1_all only --cache-control all --metrics dram__bytes_write.sum
run only_app_all only --replay-mode application --cache-control all --metrics $M
run only_app_none only --replay-mode application --cache-control none --metrics $M
run only_k1_all_big "only big" --cache-control all --metrics dram__bytes_write.sum
grep -h "passes\|err" "$OUT"/*.log | head -40
