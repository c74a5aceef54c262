#!/bin/bash
# l2_layout_probe.cu on the device machine, from the repository root, with the ground truth's
# metrics_used.txt in $1: `bash test/fidelity/probes/run_l2_layout_probe.sh DIR`. Each layout and fill is
# profiled REPEATS times with the ground truth's 77 metrics (multi-pass replay, caches flushed).
# $OUT gets l2_layout_probe_h200.csv (layout, init, run, DRAM bytes written and read, duration).
G=$(cd "$1" && pwd); cd "$(dirname "$0")"
NCU=$(command -v ncu || ls -d /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | tail -n1)
nvcc -arch=sm_90 -O3 -lineinfo -o "$G/layout" l2_layout_probe.cu || exit 1
M=$(grep -v '^#' "$G/metrics_used.txt" | paste -sd, -)
for r in $(seq 1 "${REPEATS:-3}"); do for l in small micro; do for i in memset fill; do
  timeout 120 "$NCU" --clock-control none --cache-control all --metrics "$M" -k copy_layout -f -o "$G/${l}_${i}_$r" "$G/layout" $l $i >> "$OUT/ncu.log" 2>&1
  "$NCU" -i "$G/${l}_${i}_$r.ncu-rep" --page raw --csv --print-units base > "$G/${l}_${i}_$r.csv"
done; done; done
python3 - "$G" > "$OUT/l2_layout_probe_h200.csv" <<'PY'
import csv, glob, os, sys
cols = ['dram__bytes_write.sum', 'dram__bytes_read.sum', 'gpu__time_duration.sum']
print('layout,init,run,' + ','.join(cols))
for f in sorted(glob.glob(os.path.join(sys.argv[1], '*_*_*.csv'))):
    rows = list(csv.reader(open(f)))
    if len(rows) < 3: continue
    h = rows[0]
    for r in rows[2:]:
        print(','.join(os.path.basename(f)[:-4].split('_')) + ',' + ','.join(r[h.index(c)].replace(',', '') for c in cols))
PY
grep -h "passes\|rror" "$OUT/ncu.log" | sort | uniq -c | head
