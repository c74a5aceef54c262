#!/bin/bash
# Builds l2_seed_probe.cu and runs it under ncu (--clock-control none, one replay pass): on the device
# machine, from the repository root, `bash test/fidelity/probes/run_l2_seed_probe.sh`; $OUT gets the raw
# CSVs (kept here as l2_seed_probe_<fused|split>_h200.csv) and a summary.
cd "$(dirname "$0")"
NCU=$(command -v ncu || ls -d /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | tail -n1)
nvcc -arch=sm_90 -O3 -o l2seed l2_seed_probe.cu || exit 1
M=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_write.sum
run() {  # mode, cache control
  timeout 300 "$NCU" --clock-control none --cache-control "$2" --metrics $M -f -o "$OUT/$1" ./l2seed "$1" > "$OUT/$1.log" 2>&1
  "$NCU" -i "$OUT/$1.ncu-rep" --page raw --csv --print-units base > "$OUT/l2_seed_probe_$1_h200.csv" && rm -f "$OUT/$1.ncu-rep"
}
run fused all
run split none
grep -h "passes\|err" "$OUT"/*.log | sort | uniq -c | head
for f in "$OUT"/l2_seed_probe_*_h200.csv; do python3 - "$f" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
h = rows[0]
for i, r in enumerate(rows[2:]):
    g = lambda k: float(r[h.index(k)].replace(',', '')) / 1e6
    print(sys.argv[1].split('/')[-1], i, r[h.index('Kernel Name')][:30], 'DRAM write %.3f read %.3f MB, L2 writes %.2f MB' % (g('dram__bytes_write.sum'), g('dram__bytes_read.sum'), 32 * g('lts__t_sectors_srcunit_tex_op_write.sum')))
PY
done
