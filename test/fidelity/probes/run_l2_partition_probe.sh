#!/bin/bash
# Builds l2_partition_probe.cu and runs it (no ncu: latencies and %smid): on the device machine, from
# the repository root, `bash test/fidelity/probes/run_l2_partition_probe.sh`; $OUT gets its output
# (kept here, compressed, as l2_partition_probe_h200.csv.gz).
cd "$(dirname "$0")"
nvcc -arch=sm_90 -O3 -o l2part l2_partition_probe.cu || exit 1
./l2part > "$OUT/l2_partition_probe_h200.csv" || { tail -3 "$OUT/l2_partition_probe_h200.csv"; exit 1; }
gzip -9 "$OUT/l2_partition_probe_h200.csv"
zcat "$OUT/l2_partition_probe_h200.csv.gz" | awk -F, '$1=="near"{s=0;for(i=4;i<=NF;i++)s+=$i; printf "sm %s blocks-on-it %s mean %.0f min/max ", $2, $3, s/(NF-3); m=1e9;M=0;for(i=4;i<=NF;i++){if($i<m)m=$i;if($i>M)M=$i}; print m, M}' | head -8
zcat "$OUT/l2_partition_probe_h200.csv.gz" | awk -F, '$1=="order" && $2==0 && $3<40{printf "%s:%s ", $4, $5} END{print ""}'
