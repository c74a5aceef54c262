#!/bin/bash
# Builds shared_misc_probe.cu and runs it under ncu (--clock-control none, --cache-control all): on the device
# machine, from the repository root, `bash test/fidelity/probes/run_shared_misc_probe.sh`; $OUT gets the raw CSV
# (kept here as shared_misc_probe_h200.csv) and the SASS special-register reads and warp primitives of each kernel.
cd "$(dirname "$0")"
NCU=$(command -v ncu || ls -d /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | tail -n1)
nvcc -arch=sm_90 -O3 -o misc shared_misc_probe.cu || exit 1
cuobjdump --dump-sass misc | grep -E "Function|S2R|S2UR|CS2R|BAR|EXIT|SHFL|VOTE|MATCH|WARPSYNC" > "$OUT/misc_sass.txt"
M=l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_misc.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts.sum,smsp__inst_executed.sum,smsp__warps_launched.sum,sm__ctas_launched.sum
timeout 300 "$NCU" --clock-control none --cache-control all --metrics $M -f -o "$OUT/misc" ./misc > "$OUT/misc.log" 2>&1
"$NCU" -i "$OUT/misc.ncu-rep" --page raw --csv --print-units base > "$OUT/shared_misc_probe_h200.csv" && rm -f "$OUT/misc.ncu-rep"
tail -3 "$OUT/misc.log"
python3 - "$OUT/shared_misc_probe_h200.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
h = rows[0]
g = lambda r, k: float(r[h.index(k)].replace(',', '') or 0)
for r in rows[2:]:
    w = g(r, 'smsp__warps_launched.sum')
    print('%-12s shared %8d per warp %5.2f  op_misc per warp %5.2f  inst per warp %6.1f' % (r[h.index('Kernel Name')][:12], g(r, 'l1tex__data_pipe_lsu_wavefronts_mem_shared.sum'), g(r, 'l1tex__data_pipe_lsu_wavefronts_mem_shared.sum') / w, g(r, 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_misc.sum') / w, g(r, 'smsp__inst_executed.sum') / w))
PY
