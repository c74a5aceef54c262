#!/bin/bash
# Builds l2_survival_probe.cu and runs it twice: alone (the latencies: l2_survival_probe_h200.csv.gz), and
# under ncu (--cache-control none, --clock-control none, one pass) for the DRAM bytes its workload
# kernels write and read (l2_survival_probe_h200_dram.csv: run, repetition, kernel, bytes written, read;
# the seed's own read in the r, w (and f, g) runs is left out). On the device machine, from the repository root:
# `bash test/fidelity/probes/run_l2_survival_probe.sh [words]`; both files go to $OUT (with `words`, the
# probe's words mode: l2_survival_probe_words_h200.csv.gz and l2_survival_probe_words_h200_dram.csv).
# Prints each run's latency histogram of the seed's lines (cycles).
cd "$(dirname "$0")"
MODE=$1
F=l2_survival_probe${MODE:+_$MODE}_h200
NCU=$(command -v ncu || ls -d /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | tail -n1)
nvcc -arch=sm_90 -O3 -o l2surv l2_survival_probe.cu || exit 1
./l2surv $MODE > "$OUT/$F.csv" || { tail -3 "$OUT/$F.csv"; exit 1; }
head -1 "$OUT/$F.csv"
awk -F, '$1=="surv"{delete b; for(i=4;i<=18435;i++) b[int($i/100)]++; printf "%s %s:", $2, $3; for(k=0;k<30;k++) if(b[k]) printf " %d00:%d", k, b[k]; print ""}' "$OUT/$F.csv"
gzip -9 "$OUT/$F.csv"
T=$(mktemp -d)
timeout 300 "$NCU" --clock-control none --cache-control none -k regex:'^(cp|rd)$' --metrics dram__bytes_read.sum,dram__bytes_write.sum -f -o "$T/s" ./l2surv $MODE > "$T/out.txt" 2> "$T/ncu.log" || { tail -5 "$T/ncu.log"; exit 1; }
"$NCU" -i "$T/s.ncu-rep" --page raw --csv --print-units base > "$T/kernels.csv"
python3 - "$T/kernels.csv" "$T/out.txt" > "$OUT/${F}_dram.csv" <<'PY'
import csv, sys
# the runs in the probe's order (its own output), the profiled kernels (cp, rd) in launch order
runs = [l.split(',')[1:3] for l in open(sys.argv[2]) if l.startswith('surv,')]
rows = list(csv.reader(open(sys.argv[1])))
h = rows[0]
ks = [(r[h.index('Kernel Name')].split('(')[0], r[h.index('dram__bytes_write.sum')].replace(',', ''), r[h.index('dram__bytes_read.sum')].replace(',', '')) for r in rows[2:]]
print('run,rep,kernel,dram__bytes_write.sum,dram__bytes_read.sum')
i = 0
for name, rep in runs:
    if name[0] in 'rwfg': i += 1  # the seed's read
    if name.split('.')[2][:2] in ('cp', 'rd'):
        print('%s,%s,%s,%s,%s' % ((name, rep) + ks[i]))
        i += 1
assert i == len(ks), (i, len(ks))
PY
cat "$OUT/${F}_dram.csv"
