#!/bin/bash
# On the device machine, from anywhere: `bash test/fidelity/probes/setaside_time/run_setaside_time.sh`;
# $OUT gets the raw CSV (kept here as setaside_time_full_h200.csv) and ncu's details page. (The run
# recorded here sent the same source inline; it took 87 s of device time.)
cd "$(dirname "$0")"
NCU=$(command -v ncu || ls -d /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | tail -n1)
nvcc -arch=sm_90 -O3 -o "$OUT/sa" setaside_time_probe.cu || exit 1
"$OUT/sa" || exit 1
timeout 400 "$NCU" --set full --clock-control none --cache-control none --replay-mode application -k regex:'^(st|ld)$' -f -o "$OUT/full" "$OUT/sa" > "$OUT/ncu.log" 2>&1
"$NCU" -i "$OUT/full.ncu-rep" --page raw --csv --print-units base > "$OUT/setaside_time_full_h200.csv"
"$NCU" -i "$OUT/full.ncu-rep" --page details > "$OUT/details_h200.txt"
rm -f "$OUT/full.ncu-rep" "$OUT/sa"
