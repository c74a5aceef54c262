#!/bin/bash
# Builds l2_pushout_probe.cu and runs it under ncu (--clock-control none; --cache-control all, `seed`
# none): on the device machine, from the repository root, with the ground truth's metric list in $1
# (groundtruth/h200/metrics_used.txt): `bash test/fidelity/probes/run_l2_pushout_probe.sh FILE`.
# $OUT gets one CSV (l2_pushout_probe_h200.csv: run, launch, kernel, grid, DRAM bytes written / read,
# L2 write sectors, L2 read lookup hits (11-pass run only), passes) and the ncu logs.
GTM=$(cd "$(dirname "$1")" && pwd)/$(basename "$1"); cd "$(dirname "$0")"
NCU=$(command -v ncu || ls -d /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | tail -n1)
nvcc -arch=sm_90 -O3 -o l2pushout l2_pushout_probe.cu || exit 1
M=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_write.sum
T=$(mktemp -d)
run() {  # tag, metrics, program arguments...
  local t=$1 m=$2; shift 2
  timeout 200 "$NCU" --clock-control none --cache-control ${CACHE:-all} --metrics "$m" -f -o "$T/$t" ./l2pushout "$@" >> "$OUT/ncu.log" 2>&1
  "$NCU" -i "$T/$t.ncu-rep" --page raw --csv --print-units base > "$T/$t.csv"
}
for v in headA tailA headB tailB; do run "first_$v" $M first $v; done
run seq_p1 $M seq
run seq_p11 "$(grep -v '^#' "$GTM" | paste -sd, -),$M" seq
CACHE=none run seed_none_p1 $M seed
python3 - "$T" > "$OUT/l2_pushout_probe_h200.csv" <<'PY'
import csv, glob, os, sys
cols = ['dram__bytes_write.sum', 'dram__bytes_read.sum', 'lts__t_sectors_srcunit_tex_op_write.sum', 'lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum', 'profiler__replayer_passes']
print('run,launch,kernel,grid,' + ','.join(cols))
for f in sorted(glob.glob(os.path.join(sys.argv[1], '*.csv'))):
    rows = list(csv.reader(open(f)))
    if len(rows) < 3: continue
    h = rows[0]
    for i, r in enumerate(rows[2:]):
        print(os.path.basename(f)[:-4] + ',%d,' % i + r[h.index('Kernel Name')].split('(')[0].replace('void ', '') + ','
              + r[h.index('launch__grid_size')].replace(',', '') + ',' + ','.join(r[h.index(c)].replace(',', '') if c in h else '' for c in cols))
PY
grep -h "passes\|rror" "$OUT/ncu.log" | sort | uniq -c | head
python3 -c "import sys; [print(' '.join(x.ljust(14) for x in l.strip().split(','))) for l in open(sys.argv[1])]" "$OUT/l2_pushout_probe_h200.csv"
