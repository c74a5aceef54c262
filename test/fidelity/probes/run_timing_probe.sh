#!/bin/bash
# Builds timing_probe.cu and runs it under ncu (--clock-control none, caches flushed): on the device
# machine, from the repository root, `bash test/fidelity/probes/run_timing_probe.sh`; $OUT gets the CSV.
set -x
cd "$(dirname "$0")"
NCU=$(command -v ncu || ls -d /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | tail -n1)
nvcc -arch=sm_90 -O3 -o probe timing_probe.cu || exit 1
M=gpu__time_duration.sum,sm__cycles_active.avg,sm__warps_active.avg.per_cycle_active,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,launch__grid_size,launch__block_size,launch__occupancy_limit_shared_mem,smsp__warps_issue_stalled_drain.sum,smsp__warps_issue_stalled_long_scoreboard.sum,sm__ctas_launched.sum,gpc__cycles_elapsed.max
timeout 500 $NCU --clock-control none --cache-control all --metrics $M -f -o $OUT/probe ./probe > $OUT/ncu.log 2>&1
$NCU -i $OUT/probe.ncu-rep --page raw --csv --print-units base > $OUT/timing_probe_h200.csv
tail -5 $OUT/ncu.log
