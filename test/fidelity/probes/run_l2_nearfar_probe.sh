#!/bin/bash
# Builds l2_nearfar_probe.cu and runs it under ncu (--clock-control none --cache-control none, only its
# `rsel` / `ssel` kernels profiled): on the device machine, from the repository root,
# `bash test/fidelity/probes/run_l2_nearfar_probe.sh`. $OUT gets the program's output (calibration and
# list sizes, l2_nearfar_probe_cal_h200.csv) and one CSV of the profiled kernels in launch order
# (l2_nearfar_probe_h200.csv: launch, kernel, size, mode, DRAM bytes written / read and L2 write sectors
# (one pass); L2 tex read lookup hits / misses and L2 fabric sectors (a second run, 4 passes: the
# lookups meet replayed lines, the fabric share holds); the DRAM bytes written of a third run (repeat).
# The runs: reads of 24-56 MiB, then stores of 24 and 32, each in modes near, far, mixed.
cd "$(dirname "$0")"
NCU=$(command -v ncu || ls -d /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | tail -n1)
nvcc -arch=sm_90 -O3 -o l2nearfar l2_nearfar_probe.cu || exit 1
# one pass (more metrics mean replay passes, and ncu restores memory between them: dirty lines)
M=dram__bytes_write.sum,dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_write.sum
# the check that the modes select as meant (near: no fabric traffic), a second run of its own
V=lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum
"$NCU" --query-metrics 2>/dev/null | grep -q '^lts__t_sectors_srcunit_ltcfabric ' && V=$V,lts__t_sectors_srcunit_ltcfabric.sum
T=$(mktemp -d)
prof() {  # tag, metrics
  timeout 280 "$NCU" --clock-control none --cache-control none --kernel-name regex:'^(rsel|ssel)$' --metrics "$2" \
    --log-file "$OUT/ncu_$1.log" -f -o "$T/$1" ./l2nearfar > "$T/$1.out" || { tail -5 "$T/$1.out" "$OUT/ncu_$1.log"; exit 1; }
  "$NCU" -i "$T/$1.ncu-rep" --page raw --csv --print-units base > "$T/$1.csv"
}
prof m "$M"
prof m2 "$M"
prof v "$V"
cp "$T/m.out" "$OUT/l2_nearfar_probe_cal_h200.csv"
python3 - "$T" "$M,$V,profiler__replayer_passes" > "$OUT/l2_nearfar_probe_h200.csv" <<'PY'
import csv, sys, os
cols = sys.argv[2].split(',')
runs = [list(csv.reader(open(os.path.join(sys.argv[1], t + '.csv')))) for t in ('m', 'v', 'm2')]
lists = [l.strip().split(',') for l in open(os.path.join(sys.argv[1], 'm.out')) if l.startswith('lists,')]
print('launch,kernel,mib,mode,' + ','.join(cols[:-1]) + ',passes_m,passes_v,dram__bytes_write.sum_rep2')
for i in range(len(runs[0]) - 2):
    get = lambda rs, c: rs[i + 2][rs[0].index(c)].replace(',', '') if c in rs[0] else ''
    r = runs[0]
    print('%d,%s,%s,%s,' % (i, get(r, 'Kernel Name').split('(')[0].replace('void ', ''), lists[i // 3][2], 'near far mixed'.split()[i % 3])
          + ','.join(get(runs[0] if c in r[0] else runs[1], c) for c in cols[:-1]) + ',' + get(runs[0], cols[-1]) + ',' + get(runs[1], cols[-1]) + ',' + get(runs[2], cols[0]))
PY
grep -h 'page\|sms_diff\|lists' "$OUT/l2_nearfar_probe_cal_h200.csv" | tr '\n' ' '; echo
python3 -c "import sys; [print(' '.join(x[:11].ljust(11) for x in l.strip().split(','))) for l in open(sys.argv[1])]" "$OUT/l2_nearfar_probe_h200.csv"
