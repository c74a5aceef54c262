#!/bin/bash
# Builds ldgsts_probe.cu and runs it under ncu (--clock-control none, --cache-control all): on the device
# machine, from the repository root, `bash test/fidelity/probes/run_ldgsts_probe.sh`; $OUT gets the raw
# CSV (kept here as ldgsts_probe_h200.csv) and the SASS of the copies.
cd "$(dirname "$0")"
NCU=$(command -v ncu || ls -d /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | tail -n1)
nvcc -arch=sm_90 -O3 -o ldgsts ldgsts_probe.cu || exit 1
cuobjdump --dump-sass ldgsts | grep -E "Function|LDGSTS|DEPBAR" > "$OUT/ldgsts_sass.txt"
M=l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,smsp__inst_executed.sum,smsp__warps_launched.sum,smsp__sass_inst_executed_op_global_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,gpu__time_duration.sum
timeout 300 "$NCU" --clock-control none --cache-control all --metrics $M -f -o "$OUT/ldgsts" ./ldgsts > "$OUT/ldgsts.log" 2>&1
"$NCU" -i "$OUT/ldgsts.ncu-rep" --page raw --csv --print-units base > "$OUT/ldgsts_probe_h200.csv" && rm -f "$OUT/ldgsts.ncu-rep"
tail -3 "$OUT/ldgsts.log"
python3 - "$OUT/ldgsts_probe_h200.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
h = rows[0]
g = lambda r, k: float(r[h.index(k)].replace(',', '') or 0)
for r in rows[2:]:
    req = g(r, 'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum')
    rest = g(r, 'l1tex__data_pipe_lsu_wavefronts_mem_shared.sum') - g(r, 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum') - g(r, 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum')
    print('%-16s req %8d sec/req %5.2f  total-ld-st %9d  per copy %6.3f  per warp %6.2f  conflicts %8d  st %d' % (r[h.index('Kernel Name')][:16], req, g(r, 'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum') / max(1, req), rest, rest / max(1, req), rest / g(r, 'smsp__warps_launched.sum'), g(r, 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum'), g(r, 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum')))
PY
