#!/bin/bash
# Builds l2_copy_sweep_probe.cu and runs it under ncu (--clock-control none) three ways: `flushed`
# with --cache-control all in one replay pass (3 metrics), `flushed` with the ground truth's metric
# list (multi-pass, as run_all.sh: ncu's replay residue in the L2), and `clean` with application
# replay and the L2 kept between kernels. On the device machine, from the repository root, with
# ../shared/groundtruth/h200/metrics_used.txt copied to $1: `bash test/fidelity/probes/run_l2_copy_sweep_probe.sh DIR`.
# $OUT gets the raw CSVs (kept here as l2_copy_sweep_probe_{flushed1,flushed11,clean}_h200.csv), and
# `flushed` in one pass with the persisting limit at 0 and at its maximum (_flushed1_limit{0,max}).
MU=$(cd "$(dirname "$1")" && pwd)/$(basename "$1"); cd "$(dirname "$0")"
NCU=$(command -v ncu || ls -d /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | tail -n1)
nvcc -arch=sm_90 -O3 -o l2copysweep l2_copy_sweep_probe.cu || exit 1
M1=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_write.sum
M=$(grep -v '^#' "$MU/metrics_used.txt" | paste -sd, -)
prof() {  # tag, ncu options, metrics, mode[, persisting limit]
  timeout 280 "$NCU" --clock-control none $2 --metrics "$3" -f -o "$OUT/$1" ./l2copysweep $4 $5 >> "$OUT/ncu.log" 2>&1
  "$NCU" -i "$OUT/$1.ncu-rep" --page raw --csv --print-units base > "$OUT/l2_copy_sweep_probe_$1_h200.csv" && rm -f "$OUT/$1.ncu-rep"
}
prof flushed1 "--cache-control all" "$M1" flushed
prof clean "--cache-control none --replay-mode application" "$M1,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum" clean
prof flushed11 "--cache-control all" "$M" flushed
prof flushed1_limit0 "--cache-control all" "$M1" flushed 0
prof flushed1_limitmax "--cache-control all" "$M1" flushed 39321600
grep -h "passes\|rror" "$OUT/ncu.log" | sort | uniq -c | head
