#!/bin/bash
# l2_delay_probe.cu on the device machine, from the repository root, with the ground truth's
# metrics_used.txt in $1: `bash test/fidelity/probes/run_l2_delay_probe.sh DIR`. Each delay D is profiled
# REPEATS times with the ground truth's 77 metrics (multi-pass replay: the residue is there) and twice
# with the DRAM metrics alone (one pass: no residue). $OUT gets l2_delay_probe_h200.csv (mode, run, D,
# DRAM bytes written and read, L2 write sectors, duration) and the ncu log.
G=$(cd "$1" && pwd); cd "$(dirname "$0")"
NCU=$(command -v ncu || ls -d /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | tail -n1)
nvcc -arch=sm_90 -O3 -lineinfo -o "$G/delay" l2_delay_probe.cu || exit 1
M=$(grep -v '^#' "$G/metrics_used.txt" | paste -sd, -)
ONE=dram__bytes_write.sum,dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,gpu__time_duration.sum
prof() {  # tag, D, metrics
  timeout 120 "$NCU" --clock-control none --cache-control all --metrics "$3" -k copy_delay -f -o "$G/$1" "$G/delay" "$2" >> "$OUT/ncu.log" 2>&1
  "$NCU" -i "$G/$1.ncu-rep" --page raw --csv --print-units base > "$G/$1.csv"
}
for r in $(seq 1 "${REPEATS:-3}"); do for d in 0 8 32 128 512; do prof "multi_${r}_$d" $d "$M"; prof "single_${r}_$d" $d "$ONE"; done; done
python3 - "$G" > "$OUT/l2_delay_probe_h200.csv" <<'PY'
import csv, glob, os, sys
cols = ['dram__bytes_write.sum', 'dram__bytes_read.sum', 'lts__t_sectors_srcunit_tex_op_write.sum', 'gpu__time_duration.sum']
print('mode,run,d,' + ','.join(cols))
for f in sorted(glob.glob(os.path.join(sys.argv[1], '*_*_*.csv'))):
    rows = list(csv.reader(open(f)))
    if len(rows) < 3: continue
    h = rows[0]
    mode, run, d = os.path.basename(f)[:-4].split('_')
    for r in rows[2:]:
        print(f'{mode},{run},{d},' + ','.join(r[h.index(c)].replace(',', '') for c in cols))
PY
grep -h "passes\|rror" "$OUT/ncu.log" | sort | uniq -c | head
