#!/bin/bash
# l2_request_probe.cu on the device machine, from the repository root, with the ground truth's
# metrics_used.txt in $1: `bash test/fidelity/probes/run_l2_request_probe.sh DIR`. The seven copies are
# profiled REPEATS times with the ground truth's 77 metrics (multi-pass replay, caches flushed, as
# run_all.sh). $OUT gets l2_request_probe_h200.csv (run, kernel, DRAM bytes written and read,
# L2 read requests, sectors and lookup hits, duration) and rq_sass.txt (the loads as compiled).
# MODE=sweep runs the probe's sweep instead, into l2_request_probe_sweep_h200.csv.
G=$(cd "$1" && pwd); cd "$(dirname "$0")"
NCU=$(command -v ncu || ls -d /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | tail -n1)
nvcc -arch=sm_90 -O3 -lineinfo -o "$G/rq" l2_request_probe.cu || exit 1
cuobjdump -sass "$G/rq" | grep -E "Function|LDG|STG" > "$OUT/rq_sass.txt"
M=$(grep -v '^#' "$G/metrics_used.txt" | paste -sd, -)
for r in $(seq 1 "${REPEATS:-8}"); do
  timeout 180 "$NCU" --clock-control none --cache-control all --metrics "$M" -k 'regex:^rq_' -f -o "$G/run_$r" "$G/rq" ${MODE:-} >> "$OUT/ncu.log" 2>&1
  "$NCU" -i "$G/run_$r.ncu-rep" --page raw --csv --print-units base > "$G/run_$r.csv"
done
python3 - "$G" > "$OUT/l2_request_probe${MODE:+_$MODE}_h200.csv" <<'PY'
import csv, glob, os, sys
cols = ['dram__bytes_write.sum', 'dram__bytes_read.sum', 'lts__t_requests_srcunit_tex_op_read.sum', 'lts__t_sectors_srcunit_tex_op_read.sum', 'lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum', 'gpu__time_duration.sum']
print('run,kernel,' + ','.join(cols))
for f in sorted(glob.glob(os.path.join(sys.argv[1], 'run_*.csv'))):
    rows = list(csv.reader(open(f)))
    if len(rows) < 3: continue
    h = rows[0]
    for r in rows[2:]:
        print(os.path.basename(f)[4:-4] + ',' + r[h.index('Kernel Name')].split('(')[0].replace('void ', '') + ','
              + ','.join(r[h.index(c)].replace(',', '') if c in h else '' for c in cols))
PY
grep -h "passes\|rror" "$OUT/ncu.log" | sort | uniq -c | head
