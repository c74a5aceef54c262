#!/bin/bash
# Builds l2_store_merge_probe.cu and runs it under ncu (--clock-control none, --cache-control all, one
# replay pass): on the device machine, from the repository root,
# `bash test/fidelity/probes/run_l2_store_merge_probe.sh`; $OUT gets the raw CSV (kept here as
# l2_store_merge_probe_h200.csv) and a summary.
cd "$(dirname "$0")"
NCU=$(command -v ncu || ls -d /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | tail -n1)
nvcc -arch=sm_90 -O3 -o l2merge l2_store_merge_probe.cu || exit 1
M=l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_write_lookup_miss.sum,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
timeout 300 "$NCU" --clock-control none --cache-control all --metrics $M -f -o "$OUT/merge" ./l2merge > "$OUT/merge.log" 2>&1
"$NCU" -i "$OUT/merge.ncu-rep" --page raw --csv --print-units base > "$OUT/l2_store_merge_probe_h200.csv" && rm -f "$OUT/merge.ncu-rep"
grep -h "passes\|err" "$OUT"/*.log | sort | uniq -c | head
python3 - "$OUT/l2_store_merge_probe_h200.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
h = rows[0]
for r in rows[2:]:
    g = lambda k: float(r[h.index(k)].replace(',', ''))
    print('%-28s %-12s L1 st %8d  L2 wr %8d  (%.3f)  fills %7d  DRAM wr %.3f rd %.3f MB' % (r[h.index('Kernel Name')][:28], r[h.index('Block Size')], g('l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum'), g('lts__t_sectors_srcunit_tex_op_write.sum'), g('lts__t_sectors_srcunit_tex_op_write.sum') / max(1, g('l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum')), g('lts__t_sectors_srcunit_tex_op_write_lookup_miss.sum'), g('dram__bytes_write.sum') / 1e6, g('dram__bytes_read.sum') / 1e6))
PY
