#!/bin/bash
# Builds l2_drain_probe.cu and runs it under ncu (--clock-control none, application replay, the L2
# kept between kernels): on the device machine, from the repository root,
# `bash test/fidelity/probes/run_l2_drain_probe.sh`; $OUT gets the raw CSV (kept here as l2_drain_probe_h200.csv).
cd "$(dirname "$0")"
NCU=$(command -v ncu || ls -d /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | tail -n1)
nvcc -arch=sm_90 -O3 -o l2drain l2_drain_probe.cu || exit 1
./l2drain > "$OUT/plain.log" 2>&1
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,launch__occupancy_limit_shared_mem
timeout 400 "$NCU" --clock-control none --cache-control none --replay-mode application --metrics $M -f -o "$OUT/l2drain" ./l2drain > "$OUT/ncu.log" 2>&1
"$NCU" -i "$OUT/l2drain.ncu-rep" --page raw --csv --print-units base > "$OUT/l2_drain_probe_h200.csv" && rm -f "$OUT/l2drain.ncu-rep"
tail -3 "$OUT/ncu.log"; tail -2 "$OUT/plain.log"
