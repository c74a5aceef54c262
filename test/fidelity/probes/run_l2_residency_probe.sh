#!/bin/bash
# Builds l2_residency_probe.cu and runs it under ncu (--clock-control none, application replay, the
# L2 kept between kernels): on the device machine, from the repository root,
# `bash test/fidelity/probes/run_l2_residency_probe.sh`; $OUT gets the raw CSV (kept here as
# l2_residency_probe_h200.csv).
cd "$(dirname "$0")"
NCU=$(command -v ncu || ls -d /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | tail -n1)
nvcc -arch=sm_90 -O3 -o l2residency l2_residency_probe.cu || exit 1
M=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sector_hit_rate.pct
timeout 400 "$NCU" --clock-control none --cache-control none --replay-mode application --metrics $M -f -o "$OUT/l2residency" ./l2residency > "$OUT/ncu.log" 2>&1
"$NCU" -i "$OUT/l2residency.ncu-rep" --page raw --csv --print-units base > "$OUT/l2_residency_probe_h200.csv" && rm -f "$OUT/l2residency.ncu-rep"
tail -3 "$OUT/ncu.log"
