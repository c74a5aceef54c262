#!/bin/bash
# filter_probe.cu on the device machine from the repository root: `bash test/fidelity/probes/occupancy/run_occ.sh`.
# occ_mode0/1.csv.gz: one row per warp (block, warp, SM, clock64 and %globaltimer at start and end) of
# the third of three launches, unprofiled; occ_ncu0/1.csv: ncu's duration and achieved occupancy.
B=/tmp/occ; mkdir -p $B; N=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu|tail -1)
nvcc -arch=sm_90 -O3 -o $B/fp ${SRC:-$(dirname $0)/filter_probe.cu} || exit 1
for m in 0 1; do $B/fp $m $OUT/occ_mode$m.csv; gzip $OUT/occ_mode$m.csv
$N --clock-control none --cache-control all --metrics gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,sm__cycles_active.avg,sm__warps_active.avg.per_cycle_active -f -o $B/n$m $B/fp $m /dev/null >/dev/null 2>&1
$N -i $B/n$m.ncu-rep --page raw --csv --print-units base > $OUT/occ_ncu$m.csv; done; ls -l $OUT
