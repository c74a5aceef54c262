#!/bin/bash
# Builds l2_store_tail_probe.cu and runs it under ncu (--clock-control none): on the device machine,
# from the repository root, `bash test/fidelity/probes/run_l2_store_tail_probe.sh`; $OUT gets the raw
# CSVs (kept here as l2_store_tail_probe_{flushed,kept}_h200.csv).
cd "$(dirname "$0")"
NCU=$(command -v ncu || ls -d /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | tail -n1)
nvcc -arch=sm_90 -O3 -o l2sttail l2_store_tail_probe.cu || exit 1
M=dram__bytes_write.sum,gpu__time_duration.sum
timeout 200 "$NCU" --clock-control none --cache-control all --metrics $M -f -o "$OUT/flushed" ./l2sttail flushed > "$OUT/ncu_flushed.log" 2>&1
timeout 300 "$NCU" --clock-control none --cache-control none --replay-mode application --metrics $M -f -o "$OUT/kept" ./l2sttail kept > "$OUT/ncu_kept.log" 2>&1
for m in flushed kept; do "$NCU" -i "$OUT/$m.ncu-rep" --page raw --csv --print-units base > "$OUT/l2_store_tail_probe_${m}_h200.csv" && rm -f "$OUT/$m.ncu-rep"; done
grep -h "passes\|err\|rror" "$OUT"/*.log | sort | uniq -c | head
