#!/bin/bash
# Builds l2_dirty_probe.cu and runs it under ncu (--clock-control none, caches flushed): on the device
# machine, from the repository root, `bash test/fidelity/probes/run_l2_dirty_probe.sh`; $OUT gets the CSV.
set -x
cd "$(dirname "$0")"
NCU=$(command -v ncu || ls -d /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | tail -n1)
nvcc -arch=sm_90 -O3 -o l2probe l2_dirty_probe.cu || exit 1
M=gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,launch__grid_size,launch__occupancy_limit_shared_mem,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_read.sum
timeout 500 $NCU --clock-control none --cache-control all --metrics $M -f -o $OUT/l2probe ./l2probe > $OUT/ncu.log 2>&1
$NCU -i $OUT/l2probe.ncu-rep --page raw --csv --print-units base > $OUT/l2_dirty_probe_h200.csv
tail -5 $OUT/ncu.log
