#!/bin/bash
# What ncu's roll-up throughputs are made of on the H200: `breakdown:` of lts__throughput (SOL "L2 Cache
# Throughput"), gpu__compute_memory_{access,request}_throughput (MWA "Mem Busy", "Max Bandwidth"),
# sm__memory_throughput ("Mem Pipes Busy") and sm__instruction_throughput ("SM Busy"), for eight of
# micro.cu's launches (caches flushed, kernel replay, as run_all.sh). A second pass collects each
# constituent's count and peak. On the device machine, from the repository root, with micro.cu's folder
# in $1: `bash test/fidelity/probes/run_sol_breakdown_probe.sh DIR`. $OUT gets sol_breakdown_h200.csv
# (kernel, metric, value: the SM, L1TEX, L2, DRAM and GPU metrics of both passes, pass 1's first).
C=$(cd "$1" && pwd); B=/tmp/solb; mkdir -p "$B"; cd "$B" || exit 1
NCU=$(command -v ncu || ls -d /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | tail -n1)
nvcc -arch=sm_90 -O3 -lineinfo -o micro "$C/micro.cu" || exit 1
KS="g_ld_u32_stride32 sh_transpose_32x32_bd32x8 sh_transpose_32x33_bd32x8 g_ld_u32_coalesced g_ld_u128_coalesced g_st_u32_coalesced occ_regs_64 sync_reduce_shfl"
RE="regex:^($(echo $KS | tr ' ' '|'))\$"
TOP="lts__throughput gpu__compute_memory_access_throughput gpu__compute_memory_request_throughput gpu__compute_memory_throughput sm__memory_throughput sm__instruction_throughput sm__throughput l1tex__throughput"
M1=$(for t in $TOP; do printf 'breakdown:%s.avg.pct_of_peak_sustained_elapsed,%s.avg.pct_of_peak_sustained_elapsed,%s.max.pct_of_peak_sustained_elapsed,%s.min.pct_of_peak_sustained_elapsed,' $t $t $t $t; done)
timeout 300 "$NCU" --clock-control none --cache-control all --metrics "${M1%,}" -k "$RE" -f -o p1 ./micro $KS > "$OUT/ncu.log" 2>&1
"$NCU" -i p1.ncu-rep --page raw --csv --print-units base > p1.csv
# the constituents' counts, peaks and spread over units
M2=$(python3 - p1.csv <<'PY'
import csv, sys
h = next(csv.reader(open(sys.argv[1])))
base = sorted({c.split('.')[0] for c in h if '.pct_of_peak' in c})
print(','.join(f'{b}.sum,{b}.sum.peak_sustained,{b}.max.pct_of_peak_sustained_elapsed,{b}.min.pct_of_peak_sustained_elapsed' for b in base)
      + ',lts__cycles_elapsed.sum,lts__cycles_active.sum,sm__cycles_elapsed.sum,l1tex__cycles_elapsed.sum,dram__cycles_elapsed.sum,gpu__time_duration.sum')
PY
)
timeout 300 "$NCU" --clock-control none --cache-control all --metrics "$M2" -k "$RE" -f -o p2 ./micro $KS >> "$OUT/ncu.log" 2>&1
"$NCU" -i p2.ncu-rep --page raw --csv --print-units base > p2.csv
if [ "$(wc -l < p2.csv)" -lt 3 ]; then
  # a constituent without a .sum peak fails the whole pass: counts alone
  M2=$(echo "$M2" | tr ',' '\n' | grep -v 'peak_sustained$' | paste -sd, -)
  timeout 300 "$NCU" --clock-control none --cache-control all --metrics "$M2" -k "$RE" -f -o p2 ./micro $KS >> "$OUT/ncu.log" 2>&1
  "$NCU" -i p2.ncu-rep --page raw --csv --print-units base > p2.csv
fi
python3 - p1.csv p2.csv > "$OUT/sol_breakdown_h200.csv" <<'PY'
import csv, sys
print('kernel,metric,value')
for f in sys.argv[1:]:
    rows = list(csv.reader(open(f)))
    h = rows[0]
    for r in rows[2:]:
        k = r[h.index('Kernel Name')].split('(')[0].replace('void ', '')
        for i, c in enumerate(h):
            if c.split('__')[0] in ('sm', 'smsp', 'l1tex', 'lts', 'gpu', 'dram', 'fbpa', 'idc') and r[i] not in ('', 'n/a'):
                print(f'{k},{c},{r[i].replace(",", "")}')
PY
tail -3 "$OUT/ncu.log"; wc -l "$OUT/sol_breakdown_h200.csv"
